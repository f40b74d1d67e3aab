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
import type { Runtime } from "../runtime.ts";
import { type UserHandlerDeps, userHandler } from "./org-api.ts";
import { fail, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** A save carries the body (≤ 1 MiB) and the metadata fields around it. */
const SAVE_BODY_LIMIT = MAX_BODY_BYTES + 256 * 1024;
const ID = /^[A-Za-z0-9_-]{1,200}$/;

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
