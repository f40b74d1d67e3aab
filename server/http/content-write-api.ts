/**
 * Content writes over REST (the content studio; docs/api/content-studio.md). Thin handlers over
 * the content operations, which check access themselves: the same saves GraphQL makes, and the
 * workflow, versions and history of the studio (decision 017). Signed-in sessions; state
 * changes need this app's Origin.
 *
 * - POST   /api/content {title, slug, …fields, body?} → 201 {item} (a draft)
 * - PATCH  /api/content/{id} {version, …fields, body?} → {item}; stale version → 409 STALE_VERSION
 * - DELETE /api/content/{id}?version=N → {item}
 * - POST   /api/content/{id}/transitions {action, version, at?, notes?} → {item, event}
 * - GET    /api/content/{id}/history → {events} (newest first)
 * - GET    /api/content/{id}/versions → {versions} (newest first)
 * - GET    /api/content/{id}/versions/{n} → {version, snapshot}
 * - GET    /api/content/{id}/diff?from=N&to=M|current → {from, to, fields, body}
 * - POST   /api/content/{id}/restore {from, version} → {item}
 */
import type { Context, Hono } from "hono";
import { MAX_BODY_BYTES } from "../modules/content/content.schemas.ts";
import { transitionSchema } from "../modules/content/content-studio.service.ts";
import type { Runtime } from "../runtime.ts";
import { contentIdSchema } from "./content-api.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { type UserHandlerDeps, userHandler } from "./org-api.ts";
import { fail, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** A save carries the body (≤ 1 MiB) and the metadata fields around it. */
const SAVE_BODY_LIMIT = MAX_BODY_BYTES + 256 * 1024;
const ID = /^[A-Za-z0-9_-]{1,200}$/;

export const contentWriteRoutes = defineRoutes([
  {
    method: "post",
    path: "/api/content",
    summary: "Create a draft",
    description: "`{title, slug, …fields, body?}` (the body at most 1 MiB) → 201 `{item}`.",
    tag: "Content writing",
    access: "session",
    who: "content writers",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{title, slug, …fields, body?}`" },
    responses: { 201: { description: "`{item}`: the new draft." } },
    errors: [409],
  },
  {
    method: "patch",
    path: "/api/content/:id",
    summary: "Save an item",
    description: "`{version, …fields, body?}` → `{item}`; a stale `version` answers 409 STALE_VERSION.",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    mutates: true,
    params: { id: contentIdSchema },
    rawBody: { contentType: "application/json", description: "`{version, …fields, body?}`" },
    responses: { 200: { description: "`{item}`" } },
    errors: [409],
  },
  {
    method: "delete",
    path: "/api/content/:id",
    summary: "Delete an item (`?version=N`)",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    mutates: true,
    params: { id: contentIdSchema },
    responses: { 200: { description: "`{item}`" } },
    errors: [409],
  },
  {
    method: "post",
    path: "/api/content/:id/transitions",
    summary: "Move an item through the workflow (submit, approve, publish, schedule …)",
    tag: "Content writing",
    access: "session",
    who: "writers; reviewers and publishers for their steps",
    mutates: true,
    params: { id: contentIdSchema },
    body: transitionSchema,
    responses: { 200: { description: "`{item, event}`" } },
    errors: [409],
  },
  {
    method: "get",
    path: "/api/content/:id/history",
    summary: "The item's workflow events (newest first)",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    params: { id: contentIdSchema },
    responses: { 200: { description: "`{events}`" } },
  },
  {
    method: "get",
    path: "/api/content/:id/versions",
    summary: "The item's saved versions (newest first)",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    params: { id: contentIdSchema },
    responses: { 200: { description: "`{versions}`" } },
  },
  {
    method: "get",
    path: "/api/content/:id/versions/:n",
    summary: "One saved version",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    params: { id: contentIdSchema },
    responses: { 200: { description: "`{version, snapshot}`" } },
  },
  {
    method: "get",
    path: "/api/content/:id/diff",
    summary: "The changes between two versions (`?from=N&to=M|current`)",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    params: { id: contentIdSchema },
    responses: { 200: { description: "`{from, to, fields, body}`" } },
  },
  {
    method: "post",
    path: "/api/content/:id/restore",
    summary: "Restore an earlier version (`{from, version}`)",
    tag: "Content writing",
    access: "session",
    who: "the item's writers",
    mutates: true,
    params: { id: contentIdSchema },
    rawBody: { contentType: "application/json", description: "`{from, version}`" },
    responses: { 200: { description: "`{item}`" } },
    errors: [409],
  },
]);

export function registerContentWriteApi(
  app: AnyHono,
  deps: UserHandlerDeps & { services: Pick<Runtime["services"], "content" | "contentModels"> },
): void {
  const studio = () => deps.services.contentModels.studio;
  const handle = userHandler(deps);
  /** The `:id` parameter, or a 400 answer. */
  const idOf = (c: Context): string | Response => {
    const id = c.req.param("id") ?? "";
    return ID.test(id) ? id : fail(c, 400, "BAD_USER_INPUT", "Invalid content id", { id: "invalid id" });
  };
  const saveBody = (c: Context) =>
    readJsonObject(c, {
      limit: SAVE_BODY_LIMIT,
      tooLarge: `The body is larger than ${MAX_BODY_BYTES} bytes.`,
    });

  app.post(
    "/api/content",
    handle(
      async (c, actor) => {
        const item = await studio().create(actor, await saveBody(c));
        return c.json({ item }, 201);
      },
      { mutates: true },
    ),
  );

  app.patch(
    "/api/content/:id",
    handle(
      async (c, actor) => {
        const id = idOf(c);
        if (id instanceof Response) return id;
        return c.json({ item: await studio().update(actor, id, await saveBody(c)) });
      },
      { mutates: true },
    ),
  );

  app.delete(
    "/api/content/:id",
    handle(
      async (c, actor) => {
        const id = idOf(c);
        if (id instanceof Response) return id;
        const raw = c.req.query("version");
        const version = raw === undefined ? null : Number(raw);
        if (version !== null && (!Number.isSafeInteger(version) || version < 1)) {
          return fail(c, 400, "BAD_USER_INPUT", "Invalid version: expected a positive whole number", {
            version: "expected a positive whole number",
          });
        }
        return c.json({ item: await deps.services.content.delete(actor, id, version) });
      },
      { mutates: true },
    ),
  );

  app.post(
    "/api/content/:id/transitions",
    handle(
      async (c, actor) => {
        const id = idOf(c);
        if (id instanceof Response) return id;
        return c.json(await studio().transition(actor, id, await readJsonObject(c)));
      },
      { mutates: true },
    ),
  );

  app.get(
    "/api/content/:id/history",
    handle(async (c, actor) => {
      const id = idOf(c);
      if (id instanceof Response) return id;
      return c.json({ events: await studio().history(actor, id) });
    }),
  );

  app.get(
    "/api/content/:id/versions",
    handle(async (c, actor) => {
      const id = idOf(c);
      if (id instanceof Response) return id;
      return c.json({ versions: await studio().versions(actor, id) });
    }),
  );

  app.get(
    "/api/content/:id/versions/:n",
    handle(async (c, actor) => {
      const id = idOf(c);
      if (id instanceof Response) return id;
      return c.json(await studio().version(actor, id, c.req.param("n")));
    }),
  );

  app.get(
    "/api/content/:id/diff",
    handle(async (c, actor) => {
      const id = idOf(c);
      if (id instanceof Response) return id;
      return c.json(await studio().diff(actor, id, c.req.query("from"), c.req.query("to")));
    }),
  );

  app.post(
    "/api/content/:id/restore",
    handle(
      async (c, actor) => {
        const id = idOf(c);
        if (id instanceof Response) return id;
        return c.json({ item: await studio().restore(actor, id, await saveBody(c)) });
      },
      { mutates: true },
    ),
  );
}
