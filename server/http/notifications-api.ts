/**
 * E-mail notification REST handlers (issue 15); the rules live in the notifications service.
 *
 * - GET    /api/me/notifications            → {preferences: {replies, followed_sections, weekly_digest}}
 * - PUT    /api/me/notifications {kind: bool…} → the same (unknown kind or non-boolean: 400 naming it)
 * - GET    /api/me/follows                  → {follows: [{section, createdAt}]}
 * - PUT    /api/me/follows/{section}        → the follows (idempotent; unknown section: 400)
 * - DELETE /api/me/follows/{section}        → the follows (idempotent)
 * - POST   /unsubscribe?u=&k=&sig=          → the signed unsubscribe, no sign-in: the RFC 8058
 *   one-click POST (`List-Unsubscribe=One-Click`, any origin) answers 200 text; the page's own
 *   form (this site's Origin) is redirected back to the page with `done=1`. A bad signature: 400.
 *
 * Personal settings: a session or a bearer ID token (401 for visitors); API keys and service
 * tokens are refused (403); cookie writes need this site's Origin.
 */
import type { Context, Hono } from "hono";
import { preferencesPatchSchema, sectionSchema } from "../modules/notifications/notifications.schemas.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import {
  FOREIGN_ORIGIN_MESSAGE,
  fail,
  isSameOrigin,
  personHandler,
  readJsonObject,
  readLimited,
} from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const NOT_A_PERSON =
  "Notification settings belong to a person: API keys and service tokens cannot change them.";
const SIGN_IN = "Sign in to manage your e-mail notifications.";

export const notificationsRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/me/notifications",
    summary: "E-mail notification preferences",
    tag: "Notifications",
    access: "person",
    responses: { 200: { description: "`{preferences: {replies, followed_sections, weekly_digest}}`" } },
  },
  {
    method: "put",
    path: "/api/me/notifications",
    summary: "Change notification preferences",
    tag: "Notifications",
    access: "person",
    mutates: true,
    body: preferencesPatchSchema,
    responses: { 200: { description: "`{preferences}`" } },
  },
  {
    method: "get",
    path: "/api/me/follows",
    summary: "Followed sections",
    tag: "Notifications",
    access: "person",
    responses: { 200: { description: "`{follows: [{section, createdAt}]}`" } },
  },
  {
    method: "put",
    path: "/api/me/follows/:section",
    summary: "Follow a section (idempotent)",
    tag: "Notifications",
    access: "person",
    mutates: true,
    params: { section: sectionSchema },
    responses: { 200: { description: "`{follows}`" } },
  },
  {
    method: "delete",
    path: "/api/me/follows/:section",
    summary: "Stop following a section (idempotent)",
    tag: "Notifications",
    access: "person",
    mutates: true,
    params: { section: sectionSchema },
    responses: { 200: { description: "`{follows}`" } },
  },
]);

export function registerNotificationsApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & {
    services: Pick<Runtime["services"], "notifications">;
  },
): void {
  const notifications = () => runtime.services.notifications;
  const read = { mutates: false, signIn: SIGN_IN, notAPerson: NOT_A_PERSON };
  const write = { mutates: true, signIn: SIGN_IN, notAPerson: NOT_A_PERSON };

  app.get(
    "/api/me/notifications",
    personHandler(
      runtime,
      async (c, actor) => c.json({ preferences: await notifications().getPreferences(actor) }),
      read,
    ),
  );
  app.put(
    "/api/me/notifications",
    personHandler(
      runtime,
      async (c, actor) => {
        const body = await readJsonObject(c);
        return c.json({ preferences: await notifications().setPreferences(actor, body) });
      },
      write,
    ),
  );
  app.get(
    "/api/me/follows",
    personHandler(
      runtime,
      async (c, actor) => c.json({ follows: await notifications().listFollows(actor) }),
      read,
    ),
  );
  app.put(
    "/api/me/follows/:section",
    personHandler(
      runtime,
      async (c, actor) =>
        c.json({ follows: await notifications().follow(actor, c.req.param("section") ?? "") }),
      write,
    ),
  );
  app.delete(
    "/api/me/follows/:section",
    personHandler(
      runtime,
      async (c, actor) =>
        c.json({ follows: await notifications().unfollow(actor, c.req.param("section") ?? "") }),
      write,
    ),
  );

  app.post("/unsubscribe", async (c: Context) => {
    c.header("Cache-Control", "no-store");
    const bytes = await readLimited(c.req.raw, 4096);
    if (bytes === null) return fail(c, 413, "PAYLOAD_TOO_LARGE", "The request body is too large.");
    const form = new URLSearchParams(new TextDecoder().decode(bytes));
    const oneClick = form.get("List-Unsubscribe") === "One-Click";
    if (!oneClick && !isSameOrigin(c, runtime))
      return fail(c, 403, "FORBIDDEN_ORIGIN", FOREIGN_ORIGIN_MESSAGE);
    const query = { u: c.req.query("u"), k: c.req.query("k"), sig: c.req.query("sig") };
    try {
      const done = await notifications().unsubscribe(query);
      if (!done) {
        if (oneClick)
          return fail(c, 400, "BAD_USER_INPUT", "This unsubscribe link is invalid or was changed.");
        return c.redirect(`/unsubscribe?${new URLSearchParams({ invalid: "1" })}`, 303);
      }
      if (oneClick) return c.text("Unsubscribed.", 200);
      const back = new URLSearchParams({ u: done.userId, k: done.kind, sig: String(query.sig), done: "1" });
      return c.redirect(`/unsubscribe?${back}`, 303);
    } catch (error) {
      runtime.logger.error({ err: error }, "unsubscribe failed");
      return fail(c, 500, "INTERNAL", "Something went wrong; please try again.");
    }
  });
}
