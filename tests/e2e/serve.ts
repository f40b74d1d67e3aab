/** Starts the production build on a fresh temporary data folder for the browser tests. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "../../server/env.ts";
import { startServer } from "../../server/server.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "lumen-e2e-"));
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
