import type { Hono } from "hono";
import { z } from "zod";
import { SEARCH_MAX_LIMIT } from "../modules/search/search.service.ts";
import { MAX_QUERY_LENGTH } from "../modules/search/search-query.ts";
import type { Runtime } from "../runtime.ts";
import { contentReader, invalidQuery } from "./content-api.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { sendError } from "./toolkit.ts";

export const SearchQuery = z
  .object({
    q: z
      .string({ message: "expected a search term" })
      .trim()
      .min(1, "expected a search term")
      .max(MAX_QUERY_LENGTH, `expected at most ${MAX_QUERY_LENGTH} characters`),
    section: z.string().max(100, "expected at most 100 characters").optional(),
    limit: z.coerce
      .number({ message: "expected a number" })
      .int("expected a whole number")
      .min(1, "expected at least 1")
      .max(SEARCH_MAX_LIMIT, `expected at most ${SEARCH_MAX_LIMIT}`)
      .optional(),
    cursor: z.string().max(500, "expected at most 500 characters").optional(),
  })
  .strict();

export const searchRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/search",
    summary: "Search content",
    description:
      "Locked items match on their metadata only and carry their excerpt as the snippet. `nextCursor` pages on.",
    tag: "Search",
    access: "reader",
    query: SearchQuery,
    responses: { 200: { description: "`{query, items, total, nextCursor}`" } },
  },
]);

/**
 * `GET /api/search?q=&section=&limit=&cursor=` → `{query, items, total, nextCursor}`: a thin handler
 * over the search service, which applies access (locked items match on metadata only and carry
 * their excerpt as the snippet). The same readers as the content API (session, bearer, API key or
 * service token with content:read).
 */
export function registerSearchApi(
  app: Hono<{ Variables: { nonce: string; clientIp: string } }>,
  runtime: Pick<Runtime, "identity" | "logger"> & { services: Pick<Runtime["services"], "search"> },
) {
  app.get("/api/search", async (c) => {
    const parsed = SearchQuery.safeParse(c.req.query());
    if (!parsed.success) return sendError(c, invalidQuery(parsed.error), runtime.logger);
    const actor = await contentReader(c, runtime);
    if (actor instanceof Response) return actor;
    try {
      const query = {
        q: parsed.data.q,
        section: parsed.data.section,
        limit: parsed.data.limit,
        cursor: parsed.data.cursor ?? null,
      };
      const { search } = runtime.services;
      c.header("Cache-Control", "private, no-store");
      if (search.searchJson) {
        // A cached page's JSON is made once for its audience, not per request.
        return c.body(await search.searchJson(actor, query), 200, { "Content-Type": "application/json" });
      }
      return c.json(await search.search(actor, query));
    } catch (error) {
      return sendError(c, error, runtime.logger);
    }
  });
}
