/** `npm run db:migrate`: apply every migration (the app's and the identity library's). */
import { loadEnv } from "../server/env.ts";
import { createRuntime } from "../server/runtime.ts";

const env = loadEnv();
const runtime = await createRuntime(env, { seed: false });
await runtime.close();
process.stdout.write("Database is up to date.\n");
