/**
 * Freshness of content over REST (decision 038): the studio's review queue and "Mark reviewed".
 *
 * - GET  /api/studio/review-queue?section=&limit=50&cursor=
 *        → { items: ReviewQueueRow[], nextCursor, total, horizonDays, now }
 * - POST /api/content/{id}/reviewed → { reviewed: { id, lastReviewedAt, lastReviewedBy, reviewBy, stale } }
 *
 * Signed-in content writers only (visitors 401; readers, API keys and service tokens 403); marking
 * a published item reviewed needs content:publish (403). Cookie writes need this app's Origin.
 * Every parameter is validated: 400 naming it.
 */
import type { Hono } from "hono";
import { reviewQueueQuerySchema } from "../modules/content/freshness.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { fail, ipOf, type PersonHandlerDeps, personHandler } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const ID = /^[A-Za-z0-9_-]{1,200}$/;

const freshnessRoute = routeGroup({
  tag: "Studio: freshness",
  access: "person",
  who: "content writers",
  errors: [400],
});

export const freshnessRoutes = defineRoutes([
  freshnessRoute(
    "get",
    "/api/studio/review-queue",
    "Published items overdue or due for review within 14 days, due first",
    "`{items: ReviewQueueRow[], nextCursor, total, horizonDays, now}`",
    { query: reviewQueueQuerySchema },
  ),
  freshnessRoute(
    "post",
    "/api/content/:id/reviewed",
    "Mark an item reviewed now (a published item needs content:publish)",
    "`{reviewed: {id, lastReviewedAt, lastReviewedBy, reviewBy, stale}}`",
    { errors: [400, 404] },
  ),
]);
const NOT_A_PERSON =
  "Reviewing content is for signed-in content writers; API keys and service tokens cannot do it.";

export function registerFreshnessApi(
  app: AnyHono,
  deps: PersonHandlerDeps & { services: Pick<Runtime["services"], "contentModels"> },
): void {
  const freshness = () => deps.services.contentModels.freshness;

  app.get(
    "/api/studio/review-queue",
    personHandler(
      deps,
      async (c, actor) => {
        const raw: Record<string, unknown> = {};
        for (const [name, values] of Object.entries(c.req.queries())) {
          raw[name] = values.length === 1 ? values[0] : values;
        }
        return c.json(await freshness().queue(actor, raw));
      },
      { mutates: false, signIn: "Sign in first.", notAPerson: NOT_A_PERSON },
    ),
  );

  app.post(
    "/api/content/:id/reviewed",
    personHandler(
      deps,
      async (c, actor) => {
        const id = c.req.param("id") ?? "";
        if (!ID.test(id)) return fail(c, 400, "BAD_USER_INPUT", "Invalid content id", { id: "invalid id" });
        const reviewed = await freshness().markReviewed(actor, id, { ip: ipOf(c) });
        return c.json({ reviewed });
      },
      { mutates: true, signIn: "Sign in first.", notAPerson: NOT_A_PERSON },
    ),
  );
}
