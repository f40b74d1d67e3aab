/**
 * The content studio's management table over REST (the `/content` screen's data):
 *
 * - GET /api/studio/content?q=&state=&section=&category=&tier=&type=&author=<userId|me>
 *       &sort=updated|title|published|created&dir=desc|asc&limit=25&cursor=
 *   → { items: StudioRow[], nextCursor, counts: Record<WorkflowState, number>, total }
 *
 * Content writers only (401 for visitors, 403 for everyone else, API keys and service tokens
 * included); the operation checks it. Every parameter is validated: 400 naming it.
 */
import type { Hono } from "hono";
import { studioListQuerySchema } from "../modules/content/studio-list-query.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { actorHeaders, fail, handler } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const studioListRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/studio/content",
    summary: "The studio's management table",
    description: "Every parameter is validated: 400 naming it.",
    query: studioListQuerySchema,
    tag: "Studio",
    access: "person",
    who: "content writers",
    responses: { 200: { description: "`{items: StudioRow[], nextCursor, counts, total}`" } },
    errors: [400],
  },
]);

export function registerStudioListApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & {
    services: Pick<Runtime["services"], "studioList">;
  },
): void {
  app.get(
    "/api/studio/content",
    handler(runtime, async (c) => {
      const resolved = await runtime.identity.resolveActor(actorHeaders(c));
      if (!resolved.ok) {
        if (resolved.retryAfterS !== undefined) c.header("Retry-After", String(resolved.retryAfterS));
        return fail(c, resolved.status, resolved.code, resolved.message);
      }
      // A repeated parameter is one value too many: the operation names it.
      const raw: Record<string, unknown> = {};
      for (const [name, values] of Object.entries(c.req.queries())) {
        raw[name] = values.length === 1 ? values[0] : values;
      }
      return c.json(await runtime.services.studioList.listForStudio(resolved.actor, raw));
    }),
  );
}
