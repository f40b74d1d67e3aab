/** `npm run db:seed`: migrate, then add the demo data (idempotent: existing rows are kept). */

import { seedDemo } from "../server/db/seed/seed.ts";
import { loadEnv } from "../server/env.ts";
import { createRuntime } from "../server/runtime.ts";

const env = loadEnv();
const runtime = await createRuntime(env, { seed: false });
const summary = await seedDemo({
  db: runtime.database.db,
  auth: runtime.auth,
  storage: runtime.storage,
  logger: runtime.logger,
  dataDir: env.DATA_DIR,
});
await runtime.close();
process.stdout.write(`Demo data: ${JSON.stringify(summary)}\n`);
