/**
 * The media library's REST handlers (decision 011; the rules live in the media service).
 *
 * - POST  /api/media  raw file body (streamed), Content-Type (image/png|jpeg|webp|gif, video/mp4|webm,
 *         text/vtt), X-File-Name (percent-encoded), ?alt= (required for images) → 201 {media}.
 *         415 when the type is not accepted or the bytes are something else, 413 past the kind's
 *         limit (declared or streamed), 400 `alt` without alt text for an image.
 * - GET   /api/media?kind=&q=&cursor=&limit= → {items, nextCursor} (the writer's library)
 * - GET   /api/media/:id → {media}
 * - PATCH /api/media/:id {alt} → {media}
 * - GET   /api/media/:id/file → 302 to a short-lived signed link to the file, for anyone: the stable
 *         address rendered bodies and the editor use (media are public by id).
 *
 * Uploads and edits are for signed-in content writers (sessions; this app's pages only).
 */
import type { Hono } from "hono";
import { altSchema, libraryQuerySchema } from "../modules/media/media.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { type UserHandlerDeps, userHandler } from "./org-api.ts";
import { fail, handler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** How long a browser or proxy may reuse the redirect (well inside the link's lifetime). */
const FILE_REDIRECT_CACHE_S = 300;

export const mediaRoutes = defineRoutes([
  {
    method: "post",
    path: "/api/media",
    summary: "Upload a file (raw body, streamed)",
    description:
      "Content-Type image/png, image/jpeg, image/webp, image/gif, video/mp4, video/webm or text/vtt; `X-File-Name` (percent-encoded); `?alt=` is required for images. 415 when the type is not accepted or the bytes are something else, 413 past the kind's limit.",
    tag: "Media",
    access: "session",
    who: "content writers",
    mutates: true,
    rawBody: {
      contentType: "application/octet-stream",
      description: "The file's bytes, with its own Content-Type.",
    },
    responses: { 201: { description: "`{media}`" } },
    errors: [413, 415],
  },
  {
    method: "get",
    path: "/api/media",
    summary: "The media library",
    query: libraryQuerySchema,
    tag: "Media",
    access: "session",
    who: "content writers",
    responses: { 200: { description: "`{items, nextCursor}`" } },
  },
  {
    method: "get",
    path: "/api/media/:id",
    summary: "One media item",
    tag: "Media",
    access: "session",
    who: "content writers",
    responses: { 200: { description: "`{media}`" } },
  },
  {
    method: "patch",
    path: "/api/media/:id",
    summary: "Change a media item's alt text (`{alt}`)",
    tag: "Media",
    access: "session",
    who: "content writers",
    mutates: true,
    body: altSchema,
    responses: { 200: { description: "`{media}`" } },
  },
  {
    method: "get",
    path: "/api/media/:id/file",
    summary: "The file (a redirect to a short-lived signed link; media are public by id)",
    tag: "Media",
    access: "public",
    responses: { 302: { description: "To the signed link.", contentType: "text/plain" } },
    errors: [404],
  },
]);

export function registerMediaApi(
  app: AnyHono,
  deps: UserHandlerDeps & { services: Pick<Runtime["services"], "contentModels"> },
): void {
  const media = () => deps.services.contentModels.media;
  const handle = userHandler(deps);

  // A refused upload is answered before its body has been read: the connection is closed after
  // the answer, so no client sends its next request after the unread rest of this one.
  app.use("/api/media", async (c, next) => {
    await next();
    if (c.req.method === "POST" && c.res.status >= 400) c.res.headers.set("Connection", "close");
  });

  app.post(
    "/api/media",
    handle(
      async (c, actor) => {
        const length = c.req.header("content-length");
        const item = await media().upload(actor, {
          contentType: c.req.header("content-type") ?? "",
          fileName: c.req.header("x-file-name") ?? null,
          alt: c.req.query("alt") ?? null,
          declaredBytes: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
          body: c.req.raw.body,
        });
        return c.json({ media: item }, 201);
      },
      { mutates: true },
    ),
  );

  app.get(
    "/api/media",
    handle(async (c, actor) => c.json(await media().list(actor, c.req.query()))),
  );

  app.get(
    "/api/media/:id",
    handle(async (c, actor) => c.json({ media: await media().get(actor, c.req.param("id") ?? "") })),
  );

  app.patch(
    "/api/media/:id",
    handle(
      async (c, actor) =>
        c.json({ media: await media().update(actor, c.req.param("id") ?? "", await readJsonObject(c)) }),
      { mutates: true },
    ),
  );

  app.get(
    "/api/media/:id/file",
    handler(deps, async (c) => {
      const link = await media().fileLink(c.req.param("id") ?? "");
      if (!link) return fail(c, 404, "NOT_FOUND", "No media file with this id.");
      c.header("Cache-Control", `public, max-age=${FILE_REDIRECT_CACHE_S}`);
      return c.redirect(link.url, 302);
    }),
  );
}
