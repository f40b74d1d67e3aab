import { configDefaults, defineConfig } from "vitest/config";

/**
 * One graphql module instance (its CommonJS build, as Node loads it for Pothos, Yoga and
 * graphql-armor): Vite would otherwise give our own imports the ESM build (`index.mjs`), and two
 * copies of graphql cannot share a schema.
 */
const resolve = { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] };

/**
 * Integration files that never choose a database dialect: the PostgreSQL-only pass of
 * `scripts/test-integration.ts` (TEST_DIALECTS=postgres) leaves them to the SQLite pass.
 */
const dialectFree = [
  "server/db/sqlite-durability.int.test.ts",
  "server/mail/mailer.int.test.ts",
  "server/modules/data-api-indexes.int.test.ts",
  "server/storage/local-store.int.test.ts",
  "server/storage/s3-store.int.test.ts",
];
/** Every test fails on an unexpected console.error or console.warn (`tests/helpers/console-guard.ts`). */
const setupFiles = ["tests/setup/console-guard.setup.ts"];
const postgresOnlyPass = process.env.TEST_DIALECTS === "postgres";

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: "unit",
          include: [
            "core/**/*.test.ts",
            "server/**/*.unit.test.ts",
            "app/**/*.test.{ts,tsx}",
            "tests/helpers/*.test.ts",
          ],
          environment: "node",
          setupFiles,
        },
      },
      {
        resolve,
        test: {
          name: "integration",
          include: ["server/**/*.int.test.ts", "tests/integration/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...(postgresOnlyPass ? dialectFree : [])],
          environment: "node",
          setupFiles,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        resolve,
        test: {
          // Several app processes of the production build (decision 029): `npm run test:scale`.
          name: "scale",
          include: ["tests/scale/**/*.test.ts"],
          environment: "node",
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
