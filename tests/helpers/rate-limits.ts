/**
 * Raised API rate limits (decision 014) for the test files that drive whole authorization tables
 * from one address within a minute (hundreds of requests per actor and thousands per address).
 * Passed explicitly as `startTestServer(dialect, RAISED_RATE_LIMITS)`; every other test server
 * runs with the production defaults, and tests/integration/rate-limits.test.ts holds them.
 */
export const RAISED_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_READS_PER_USER: "100000",
  RATE_LIMIT_READS_PER_ADDRESS: "100000",
  RATE_LIMIT_WRITES_PER_USER: "100000",
  RATE_LIMIT_WRITES_PER_ADDRESS: "100000",
  RATE_LIMIT_COMMENTS_PER_USER: "100000",
  RATE_LIMIT_GRAPHQL_COST_PER_USER: "1000000",
  RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: "1000000",
};
