/**
 * The data API's limits (SECURITY.md §16, issue 5 item 5). Documented in
 * docs/decisions/006-graphql.md; each has a test in tests/integration/graphql-content.test.ts.
 */
export const GRAPHQL_LIMITS = {
  /** Deepest selection (fields nested in fields), introspection excluded. */
  maxDepth: 10,
  /** graphql-armor cost: objects 2, scalars 1, ×1.5 per level of depth. */
  maxCost: 1000,
  /**
   * Rows an operation may ask for (`cost.ts`: objects, lists multiplied by their page size): a
   * larger request is refused before it runs. The same cost is charged to the caller's per-minute
   * GraphQL budget (decision 014).
   */
  maxRows: 1000,
  /** Aliased fields per operation. */
  maxAliases: 15,
  /** Directives per operation. */
  maxDirectives: 10,
  /** Lexical tokens per document. */
  maxTokens: 1000,
  /** Request body (POST) in bytes; larger → HTTP 413. */
  maxBodyBytes: 100 * 1024,
  /**
   * A multipart request (an `uploadMedia` file, the GraphQL multipart request spec) in bytes:
   * the images' limit plus room for the operation. Yoga reads such a request whole into memory,
   * so it stays far below the video limit; larger videos go through POST /api/media, which
   * streams. Only writers' same-origin requests get this far (`http.ts`).
   */
  maxUploadBytes: 10 * 1024 * 1024 + 64 * 1024,
  /** Page size of every list: default 20, at most 100 (larger → BAD_USER_INPUT). */
  defaultPageSize: 20,
  maxPageSize: 100,
} as const;

/** The API version of spec §7, answered by `apiVersion` and in every response's extensions. */
export const API_VERSION = "1.4";
