/** Starts the production build on a fresh temporary data folder for the browser tests. */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "../../server/env.ts";
import { startServer } from "../../server/server.ts";

// A fixed, fresh folder: the browser tests read confirmation codes from its outbox.
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data");
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const env = parseEnv({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  STORAGE_URL: "",
  LOG_LEVEL: "warn",
});
const running = await startServer(env);
process.stdout.write(`e2e server on ${running.url} (data ${dataDir})\n`);
const stop = () => running.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
