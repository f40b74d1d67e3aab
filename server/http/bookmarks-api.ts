/**
 * Bookmarks and reading time REST handlers (issue 15). The rules live in the dashboard service
 * (server/modules/dashboard); these handlers validate input, resolve the actor, refuse foreign
 * Origins on cookie-authenticated state changes (CSRF) and map errors.
 *
 * - GET    /api/dashboard → the reader's dashboard (DashboardData; marks the visit, like the page)
 * - GET    /api/bookmarks → {items: [{item: ContentSummary, savedAt}], total}
 * - PUT    /api/bookmarks/{contentId} → {contentId, saved: true} (idempotent)
 * - DELETE /api/bookmarks/{contentId} → {contentId, saved: false} (idempotent)
 * - POST   /api/reading {contentId, seconds} → {added, today} (the content page's reading beacon)
 *
 * Personal data: a session or a bearer ID token (401 for visitors); API keys and service tokens
 * are refused (403). Every request is also charged to the API rate limits (rate-limit.ts).
 */
import type { Context, Hono } from "hono";
import { badInputFromZod } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import { readingPingSchema } from "../modules/dashboard/reading.ts";
import { contentKeySchema } from "../modules/engagement/engagement.schemas.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { fail, personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const bookmarksRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/dashboard",
    summary: "The reader's dashboard (marks the visit)",
    tag: "Reading",
    access: "person",
  },
  {
    method: "get",
    path: "/api/bookmarks",
    summary: "Saved items",
    tag: "Reading",
    access: "person",
    responses: { 200: { description: "`{items: [{item: ContentSummary, savedAt}], total}`" } },
  },
  {
    method: "put",
    path: "/api/bookmarks/:contentId",
    summary: "Save an item (idempotent)",
    tag: "Reading",
    access: "person",
    mutates: true,
    params: { contentId: contentKeySchema },
    responses: { 200: { description: "`{contentId, saved: true}`" } },
  },
  {
    method: "delete",
    path: "/api/bookmarks/:contentId",
    summary: "Remove a saved item (idempotent)",
    tag: "Reading",
    access: "person",
    mutates: true,
    params: { contentId: contentKeySchema },
    responses: { 200: { description: "`{contentId, saved: false}`" } },
  },
  {
    method: "post",
    path: "/api/reading",
    summary: "Record reading time (the content page's beacon)",
    tag: "Reading",
    access: "person",
    mutates: true,
    body: readingPingSchema,
    responses: { 200: { description: "`{added, today}`: seconds added by this ping and the day's total." } },
  },
]);

export function registerBookmarksApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & {
    services: Pick<Runtime["services"], "dashboard">;
  },
): void {
  const dashboard = () => runtime.services.dashboard;
  const person = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean, signInFor: string) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: `Sign in to ${signInFor}.`,
      notAPerson:
        "Saved items and reading time belong to a person: use a signed-in session or an ID token, not an API key or service token.",
    });

  app.get(
    "/api/dashboard",
    person(async (c, actor) => c.json(await dashboard().get(actor)), false, "see your dashboard"),
  );

  app.get(
    "/api/bookmarks",
    person(async (c, actor) => c.json(await dashboard().listBookmarks(actor)), false, "see your saved items"),
  );

  const bookmark = (saved: boolean) =>
    person(
      async (c, actor) => {
        const key = c.req.param("contentId")!;
        if (!contentKeySchema.safeParse(key).success) {
          return fail(c, 400, "BAD_USER_INPUT", "Invalid contentId", { contentId: "Not an id or slug" });
        }
        return c.json(await dashboard().setBookmark(actor, key, saved));
      },
      true,
      "save items",
    );
  app.put("/api/bookmarks/:contentId", bookmark(true));
  app.delete("/api/bookmarks/:contentId", bookmark(false));

  app.post(
    "/api/reading",
    person(
      async (c, actor) => {
        const parsed = readingPingSchema.safeParse(await readJsonObject(c));
        if (!parsed.success) {
          throw badInputFromZod(parsed.error, {
            fallback: "body",
            message: (field, problem) => `Invalid ${field}: ${problem}`,
          });
        }
        return c.json(await dashboard().recordReading(actor, parsed.data));
      },
      true,
      "record your reading",
    ),
  );
}
