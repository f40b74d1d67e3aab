import { defineConfig } from "vitest/config";

/**
 * One graphql module instance (its CommonJS build, as Node loads it for Pothos, Yoga and
 * graphql-armor): Vite would otherwise give our own imports the ESM build (`index.mjs`), and two
 * copies of graphql cannot share a schema.
 */
const resolve = { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: "unit",
          include: ["core/**/*.test.ts", "server/**/*.unit.test.ts", "app/**/*.test.{ts,tsx}"],
          environment: "node",
        },
      },
      {
        resolve,
        test: {
          name: "integration",
          include: ["server/**/*.int.test.ts", "tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
