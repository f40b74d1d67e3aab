/**
 * The content studio's own REST endpoints (docs/api/content-studio.md), for content writers:
 *
 * - GET  /api/studio/content/{id} → {item} (the editor's view: every field, the body source and
 *        the workflow actions this actor may take; 404 for anyone but writers)
 * - GET  /api/studio/slug?slug=x&exclude=<id> → {slug, available, suggestion, error?}
 * - POST /api/studio/bulk {ids, action: publish|archive|set_category|set_tier, value?} → {results}
 *        (one result per item; each through the same operation as alone)
 */
import type { Hono } from "hono";
import { bulkSchema } from "../modules/content/content-studio.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { type UserHandlerDeps, userHandler } from "./org-api.ts";
import { fail, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const studioRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/studio/content/:id",
    summary: "The editor's view of an item (every field, the body source, the actions allowed)",
    tag: "Studio",
    access: "session",
    who: "content writers",
    responses: { 200: { description: "`{item}`" } },
  },
  {
    method: "get",
    path: "/api/studio/slug",
    summary: "Whether a slug is free (`?slug=&exclude=`)",
    tag: "Studio",
    access: "session",
    who: "content writers",
    responses: { 200: { description: "`{slug, available, suggestion, error?}`" } },
  },
  {
    method: "post",
    path: "/api/studio/bulk",
    summary: "One action on many items (publish, archive, set_category, set_tier)",
    tag: "Studio",
    access: "session",
    who: "content writers",
    mutates: true,
    body: bulkSchema,
    responses: { 200: { description: "`{results}`: one per item." } },
  },
]);

export function registerStudioApi(
  app: AnyHono,
  deps: UserHandlerDeps & { services: Pick<Runtime["services"], "contentModels"> },
): void {
  const studio = () => deps.services.contentModels.studio;
  const handle = userHandler(deps);

  app.get(
    "/api/studio/content/:id",
    handle(async (c, actor) => {
      const id = c.req.param("id") ?? "";
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(id)) {
        return fail(c, 400, "BAD_USER_INPUT", "Invalid content id", { id: "invalid id" });
      }
      return c.json({ item: await studio().get(actor, id) });
    }),
  );

  app.get(
    "/api/studio/slug",
    handle(async (c, actor) => {
      const slug = c.req.query("slug") ?? "";
      if (slug === "") return fail(c, 400, "BAD_USER_INPUT", "Invalid slug: required", { slug: "required" });
      return c.json(await studio().checkSlug(actor, slug, c.req.query("exclude") ?? null));
    }),
  );

  app.post(
    "/api/studio/bulk",
    handle(async (c, actor) => c.json({ results: await studio().bulk(actor, await readJsonObject(c)) }), {
      mutates: true,
    }),
  );
}
