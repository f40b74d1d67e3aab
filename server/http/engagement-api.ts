/**
 * Engagement REST handlers (issue 4 item 8, course progress of item 3). The rules live in the
 * engagement service; these handlers validate input, resolve the actor, refuse foreign Origins
 * on cookie-authenticated state changes (CSRF) and map errors.
 *
 * - POST   /api/content/{idOrSlug}/view → {counted} (the content page's beacon; bots not counted)
 * - GET    /api/content/{slug}/engagement → the page's counters with the reader's own like, Save
 *   and course progress (what an audience page fills in once it runs, decision 039)
 * - PUT    /api/content/{idOrSlug}/like → {liked, likeCount}
 * - DELETE /api/content/{idOrSlug}/like → {liked, likeCount}
 * - POST   /api/content/{idOrSlug}/share {channel: link|x|linkedin|email} → {shareCount}
 * - GET    /api/courses/{idOrSlug}/progress → {completedLessonIds, total, percent, completedAt?, …}
 * - PUT    /api/courses/{idOrSlug}/progress/{lessonId} → the progress (lesson marked complete)
 * - DELETE /api/courses/{idOrSlug}/progress/{lessonId} → the progress (lesson unmarked)
 *
 * Likes, shares and progress are personal: a session or a bearer ID token (401 for visitors);
 * API keys and service tokens are refused (403). Errors: the REST envelope `{error: {code, message,
 * field?}}` (the field map on a bad share body).
 */
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { badInputFromZod } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import { contentKeySchema, shareBodySchema } from "../modules/engagement/engagement.schemas.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { fail, ipOf, personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

interface HandleOptions {
  /** A state change: a cookie-authenticated request needs this app's Origin. */
  mutates: boolean;
  /** Personal data (likes, shares, progress): a signed-in user, never an API key or service token. */
  personal: boolean;
  /** What the visitor is asked to sign in for (401 message). */
  signInFor?: string;
}

/** A body that fails its schema: 400 naming the field ("Invalid channel: …"). */
const invalidBody = (error: z.ZodError) =>
  badInputFromZod(error, { fallback: "body", message: (field, problem) => `Invalid ${field}: ${problem}` });

/** Path parameters that must be ids or slugs. */
const KEY_PARAMS = ["idOrSlug", "lessonId"] as const;

export const engagementRoutes = defineRoutes([
  {
    method: "post",
    path: "/api/content/:idOrSlug/view",
    summary: "Count a view (the content page's beacon; bots are not counted)",
    tag: "Engagement",
    access: "reader",
    mutates: true,
    params: { idOrSlug: contentKeySchema },
    responses: { 200: { description: "`{counted}`" } },
  },
  {
    method: "get",
    path: "/api/content/:idOrSlug/engagement",
    summary:
      "The page's counters with the reader's own like, Save and course progress (what an audience page fills in)",
    tag: "Engagement",
    access: "person",
    params: { idOrSlug: contentKeySchema },
    responses: { 200: { description: "`PageEngagement` with `saved`" } },
    errors: [404, 503],
  },
  {
    method: "put",
    path: "/api/content/:idOrSlug/like",
    summary: "Like an item (idempotent)",
    tag: "Engagement",
    access: "person",
    mutates: true,
    params: { idOrSlug: contentKeySchema },
    responses: { 200: { description: "`{liked, likeCount}`" } },
  },
  {
    method: "delete",
    path: "/api/content/:idOrSlug/like",
    summary: "Take back a like (idempotent)",
    tag: "Engagement",
    access: "person",
    mutates: true,
    params: { idOrSlug: contentKeySchema },
    responses: { 200: { description: "`{liked, likeCount}`" } },
  },
  {
    method: "post",
    path: "/api/content/:idOrSlug/share",
    summary: "Count a share",
    tag: "Engagement",
    access: "person",
    mutates: true,
    params: { idOrSlug: contentKeySchema },
    body: shareBodySchema,
    responses: { 200: { description: "`{shareCount}`" } },
  },
  {
    method: "get",
    path: "/api/courses/:idOrSlug/progress",
    summary: "The reader's progress in a course",
    tag: "Engagement",
    access: "person",
    params: { idOrSlug: contentKeySchema },
    responses: { 200: { description: "`{completedLessonIds, total, percent, completedAt?, …}`" } },
  },
  {
    method: "put",
    path: "/api/courses/:idOrSlug/progress/:lessonId",
    summary: "Mark a lesson complete",
    tag: "Engagement",
    access: "person",
    mutates: true,
    params: { idOrSlug: contentKeySchema, lessonId: contentKeySchema },
    responses: { 200: { description: "The progress." } },
  },
  {
    method: "delete",
    path: "/api/courses/:idOrSlug/progress/:lessonId",
    summary: "Unmark a lesson",
    tag: "Engagement",
    access: "person",
    mutates: true,
    params: { idOrSlug: contentKeySchema, lessonId: contentKeySchema },
    responses: { 200: { description: "The progress." } },
  },
]);

export function registerEngagementApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & {
    services: Pick<Runtime["services"], "engagement" | "content" | "dashboard">;
  },
): void {
  const engagement = () => runtime.services.engagement;

  const handle =
    (fn: (c: Context, actor: Actor) => Promise<Response>, opts: HandleOptions) => async (c: Context) => {
      c.header("Cache-Control", "no-store");
      for (const name of KEY_PARAMS) {
        const value = c.req.param(name);
        if (value !== undefined && !contentKeySchema.safeParse(value).success) {
          return fail(
            c,
            400,
            "BAD_USER_INPUT",
            `Invalid ${name === "lessonId" ? "lesson id" : "id or slug"}`,
          );
        }
      }
      return person(fn, opts)(c);
    };
  const person = (fn: (c: Context, actor: Actor) => Promise<Response>, opts: HandleOptions) =>
    personHandler(runtime, fn, {
      mutates: opts.mutates,
      signIn: opts.personal ? `Sign in to ${opts.signInFor ?? "do this"}.` : null,
      notAPerson:
        "Likes, shares, views and course progress belong to a person: use a signed-in session or an ID token, not an API key or service token.",
    });

  app.post(
    "/api/content/:idOrSlug/view",
    handle(
      async (c, actor) =>
        c.json(
          await engagement().recordView(actor, c.req.param("idOrSlug")!, {
            ip: ipOf(c),
            userAgent: c.req.header("user-agent") ?? null,
          }),
        ),
      { mutates: true, personal: false },
    ),
  );

  app.get(
    "/api/content/:idOrSlug/engagement",
    handle(
      async (c, actor) => {
        // The same page rules as the content page itself: visibility, gate, course lessons.
        const page = await runtime.services.content.getPage(actor, c.req.param("idOrSlug")!);
        if (!page) return fail(c, 404, "NOT_FOUND", "No published content has this address.");
        const counts = await engagement().forPage(actor, page);
        if (!counts) return fail(c, 503, "UNAVAILABLE", "Likes and progress cannot be read right now.");
        const saved = actor.userId
          ? await runtime.services.dashboard.isSaved(actor.userId, page.item.id)
          : null;
        return c.json({ ...counts, saved });
      },
      { mutates: false, personal: true, signInFor: "see your own likes, saves and progress" },
    ),
  );

  const like = (liked: boolean) =>
    handle(async (c, actor) => c.json(await engagement().setLike(actor, c.req.param("idOrSlug")!, liked)), {
      mutates: true,
      personal: true,
      signInFor: "like content",
    });
  app.put("/api/content/:idOrSlug/like", like(true));
  app.delete("/api/content/:idOrSlug/like", like(false));

  app.post(
    "/api/content/:idOrSlug/share",
    handle(
      async (c, actor) => {
        const parsed = shareBodySchema.safeParse(await readJsonObject(c));
        if (!parsed.success) throw invalidBody(parsed.error);
        const { shareCount } = await engagement().recordShare(
          actor,
          c.req.param("idOrSlug")!,
          parsed.data.channel,
        );
        return c.json({ shareCount });
      },
      { mutates: true, personal: true, signInFor: "share content" },
    ),
  );

  app.get(
    "/api/courses/:idOrSlug/progress",
    handle(async (c, actor) => c.json(await engagement().getProgress(actor, c.req.param("idOrSlug")!)), {
      mutates: false,
      personal: true,
      signInFor: "track your progress",
    }),
  );

  const lesson = (done: boolean) =>
    handle(
      async (c, actor) =>
        c.json(
          await engagement().setLessonComplete(
            actor,
            c.req.param("idOrSlug")!,
            c.req.param("lessonId")!,
            done,
          ),
        ),
      { mutates: true, personal: true, signInFor: "track your progress" },
    );
  app.put("/api/courses/:idOrSlug/progress/:lessonId", lesson(true));
  app.delete("/api/courses/:idOrSlug/progress/:lessonId", lesson(false));
}
