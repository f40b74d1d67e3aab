/**
 * Profile REST handlers (issue 3 item 11): the caller's own profile, avatar, data export and
 * account deletion. Rules live in the profile service.
 *
 * - GET    /api/account/profile → {profile}
 * - PATCH  /api/account/profile {displayName?, bio?} → {profile} (other fields refused: 400)
 * - PUT|POST /api/profile/avatar (raw image bytes, ≤ 2 MiB; type sniffed from the bytes) → {profile}
 *          415 when not PNG/JPEG/WebP, 413 when larger
 * - DELETE /api/profile/avatar → {profile}
 * - GET    /api/account/avatar/{userId} → the image (any signed-in user; 401 for visitors),
 *          safe content type, nosniff, attachment, private cache
 * - GET    /api/account/export → JSON attachment (no password hash, tokens or secrets)
 * - POST   /api/account/delete {password, confirm:"DELETE"} → 204 and the cookie cleared;
 *          403 SESSION_NOT_FRESH when the sign-in is older than 15 minutes
 *
 * The avatar upload is outside /api/account/* because that prefix caps bodies at 64 KB.
 */
import type { Hono } from "hono";
import { AVATAR_MAX_BYTES } from "../modules/users/profile-image.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { type UserHandlerDeps, userHandler } from "./org-api.ts";
import { fail, ipOf, readJsonObject, readLimited } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const profileRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/account/profile",
    summary: "The caller's profile",
    tag: "Account",
    access: "session",
    responses: { 200: { description: "`{profile}`" } },
  },
  {
    method: "patch",
    path: "/api/account/profile",
    summary: "Change the profile (`{displayName?, bio?}`)",
    tag: "Account",
    access: "session",
    mutates: true,
    rawBody: {
      contentType: "application/json",
      description: "`{displayName?, bio?}`; other fields are refused (400).",
    },
    responses: { 200: { description: "`{profile}`" } },
  },
  {
    method: "put",
    path: "/api/profile/avatar",
    summary: "Upload the avatar (raw image bytes, at most 2 MiB)",
    tag: "Account",
    access: "session",
    mutates: true,
    rawBody: {
      contentType: "application/octet-stream",
      description: "A PNG, JPEG or WebP image (type read from the bytes).",
    },
    responses: { 200: { description: "`{profile}`" } },
    errors: [413, 415],
  },
  {
    method: "post",
    path: "/api/profile/avatar",
    summary: "Upload the avatar (as PUT)",
    tag: "Account",
    access: "session",
    mutates: true,
    rawBody: {
      contentType: "application/octet-stream",
      description: "A PNG, JPEG or WebP image (type read from the bytes).",
    },
    responses: { 200: { description: "`{profile}`" } },
    errors: [413, 415],
  },
  {
    method: "delete",
    path: "/api/profile/avatar",
    summary: "Remove the avatar",
    tag: "Account",
    access: "session",
    mutates: true,
    responses: { 200: { description: "`{profile}`" } },
  },
  {
    method: "get",
    path: "/api/account/avatar/:userId",
    summary: "A user's avatar image",
    tag: "Account",
    access: "session",
    responses: { 200: { description: "The image.", contentType: "image/*" } },
  },
  {
    method: "get",
    path: "/api/account/export",
    summary: "Export the caller's data (a JSON attachment; no secrets)",
    tag: "Account",
    access: "session",
  },
  {
    method: "post",
    path: "/api/account/delete",
    summary: 'Delete the account (`{password, confirm: "DELETE"}`)',
    description: "Needs a sign-in of the last 15 minutes (else 403 SESSION_NOT_FRESH). Clears the cookie.",
    tag: "Account",
    access: "session",
    mutates: true,
    rawBody: { contentType: "application/json", description: '`{password, confirm: "DELETE"}`' },
    responses: { 204: { description: "Deleted." } },
  },
]);

export function registerProfileApi(
  app: AnyHono,
  deps: UserHandlerDeps & Pick<Runtime, "authSecurity"> & { services: Pick<Runtime["services"], "profile"> },
): void {
  const profile = () => deps.services.profile;
  const handle = userHandler(deps);

  app.get(
    "/api/account/profile",
    handle(async (c, actor) => c.json({ profile: await profile().get(actor) })),
  );

  app.patch(
    "/api/account/profile",
    handle(
      async (c, actor) => {
        const body = await readJsonObject(c);
        return c.json({ profile: await profile().update(actor, body, { ip: ipOf(c) }) });
      },
      { mutates: true },
    ),
  );

  const upload = handle(
    async (c, actor) => {
      if (actor.kind === "visitor") return fail(c, 401, "UNAUTHENTICATED", "Sign in first.");
      const bytes = await readLimited(c.req.raw, AVATAR_MAX_BYTES);
      if (bytes === null) return fail(c, 413, "PAYLOAD_TOO_LARGE", "The image is larger than 2 MiB.");
      if (bytes.byteLength === 0) {
        return fail(c, 400, "BAD_USER_INPUT", "Choose an image to upload.", {
          avatar: "Choose an image to upload.",
        });
      }
      return c.json({ profile: await profile().setAvatar(actor, bytes, { ip: ipOf(c) }) });
    },
    { mutates: true },
  );
  app.put("/api/profile/avatar", upload);
  app.post("/api/profile/avatar", upload);
  app.delete(
    "/api/profile/avatar",
    handle(async (c, actor) => c.json({ profile: await profile().removeAvatar(actor) }), { mutates: true }),
  );
  // The catch-all 404 of /api/* answers other methods; other paths under /api/profile too.

  app.get(
    "/api/account/avatar/:userId",
    handle(async (c, actor) => {
      const avatar = await profile().readAvatar(actor, c.req.param("userId") ?? "");
      const ext = avatar.contentType === "image/jpeg" ? "jpg" : avatar.contentType.slice(6);
      return new Response(avatar.body as BodyInit, {
        status: 200,
        headers: {
          "Content-Type": avatar.contentType,
          "Content-Length": String(avatar.body.byteLength),
          "X-Content-Type-Options": "nosniff",
          "Content-Disposition": `attachment; filename="avatar.${ext}"`,
          "Content-Security-Policy": "default-src 'none'; sandbox",
          "Cache-Control": "private, max-age=300",
        },
      });
    }),
  );

  app.get(
    "/api/account/export",
    handle(async (c, actor) => {
      const data = await profile().exportData(actor, { ip: ipOf(c) });
      const day = data.exportedAt.slice(0, 10);
      return new Response(JSON.stringify(data, null, 2), {
        status: 200,
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Content-Disposition": `attachment; filename="lumen-hub-export-${day}.json"`,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-store",
        },
      });
    }),
  );

  app.post(
    "/api/account/delete",
    handle(
      async (c, actor) => {
        await profile().deleteAccount(actor, await readJsonObject(c), { ip: ipOf(c) });
        c.header("Set-Cookie", deps.authSecurity.guard.clearCookie, { append: true });
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );
}
