/** `npm run db:seed`: migrate, then add the demo data (idempotent: existing rows are kept). */

import { seedDemo } from "../server/db/seed/seed.ts";
import { acquireStartUpLock } from "../server/db/start-up-lock.ts";
import { loadEnv } from "../server/env.ts";
import { createRuntime, databaseUrl } from "../server/runtime.ts";

const env = loadEnv();
const runtime = await createRuntime(env, { seed: false });
// Not while a server starting on the same database seeds it (decision 027).
const lock = await acquireStartUpLock(databaseUrl(env), runtime.database.file, { logger: runtime.logger });
try {
  const summary = await seedDemo({
    db: runtime.database.db,
    auth: runtime.auth,
    storage: runtime.storage,
    logger: runtime.logger,
    dataDir: env.DATA_DIR,
  });
  process.stdout.write(`Demo data: ${JSON.stringify(summary)}\n`);
} finally {
  await lock.release();
  await runtime.close();
}
