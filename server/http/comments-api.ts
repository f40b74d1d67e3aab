/**
 * Comments REST handlers (issue 15). The rules live in the comments service
 * (`server/modules/comments/comment-threads.ts`); these handlers resolve the actor, refuse foreign
 * Origins on cookie-authenticated changes (CSRF), charge each new comment to the caller's
 * per-minute comment limit and map errors to the REST envelope.
 *
 * - GET    /api/content/{idOrSlug}/comments?sort=oldest|newest|top&cursor=&limit= → a page of threads
 * - GET    /api/comments/{id}/replies?cursor=&limit= → {items, nextCursor}
 * - POST   /api/content/{idOrSlug}/comments {body, parentCommentId?, requestKey?} → 201 {comment} (200 on a repeated requestKey)
 * - PATCH  /api/comments/{id} {body} → {comment}
 * - DELETE /api/comments/{id} → {id, tombstone}
 * - POST   /api/comments/{id}/like, DELETE /api/comments/{id}/like → {liked, likeCount}
 * - POST   /api/comments/{id}/reports {reason, note?} → 201 {reported} (200 when already reported)
 *
 * Reads: visitors (the count of a public item), signed-in readers, API keys with a read scope.
 * Writes: a signed-in person only (API keys and service tokens: 403; visitors: 401).
 */
import type { Context, Hono } from "hono";
import { RateLimitedError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import { createSchema, listQuerySchema, reportSchema } from "../modules/comments/comment-model.ts";
import { contentKeySchema } from "../modules/engagement/engagement.schemas.ts";
import { rateLimitMessage } from "../modules/rate-limits/rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { RATE_CALLER, type RateCaller } from "./rate-limit.ts";
import { actorHeaders, fail, handler, personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const NOT_A_PERSON =
  "Comments are written by a person: use a signed-in session or an ID token, not an API key or service token.";

export const commentsRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/content/:idOrSlug/comments",
    summary: "A page of an item's comment threads",
    tag: "Comments",
    access: "reader",
    params: { idOrSlug: contentKeySchema },
    query: listQuerySchema,
    responses: { 200: { description: "`{items, total, nextCursor}`" } },
  },
  {
    method: "get",
    path: "/api/comments/:id/replies",
    summary: "A page of a comment's replies",
    tag: "Comments",
    access: "reader",
    query: listQuerySchema.omit({ sort: true }),
    responses: { 200: { description: "`{items, nextCursor}`" } },
  },
  {
    method: "post",
    path: "/api/content/:idOrSlug/comments",
    summary: "Comment on an item, or reply (`parentCommentId`)",
    description:
      "Charged to the caller's per-minute comment limit. A repeated `requestKey` answers the first comment (200) instead of a second one.",
    tag: "Comments",
    access: "person",
    mutates: true,
    params: { idOrSlug: contentKeySchema },
    body: createSchema,
    responses: {
      201: { description: "`{comment}`: created." },
      200: { description: "`{comment}`: the comment of a repeated `requestKey`." },
    },
  },
  {
    method: "patch",
    path: "/api/comments/:id",
    summary: "Edit a comment (`{body}`)",
    tag: "Comments",
    access: "person",
    who: "the comment's author",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{body}`" },
    responses: { 200: { description: "`{comment}`" } },
  },
  {
    method: "delete",
    path: "/api/comments/:id",
    summary: "Delete a comment (a tombstone stays when it has replies)",
    tag: "Comments",
    access: "person",
    who: "the comment's author, or a moderator",
    mutates: true,
    responses: { 200: { description: "`{id, tombstone}`" } },
  },
  {
    method: "post",
    path: "/api/comments/:id/like",
    summary: "Like a comment",
    tag: "Comments",
    access: "person",
    mutates: true,
    responses: { 200: { description: "`{liked, likeCount}`" } },
  },
  {
    method: "delete",
    path: "/api/comments/:id/like",
    summary: "Take back a like",
    tag: "Comments",
    access: "person",
    mutates: true,
    responses: { 200: { description: "`{liked, likeCount}`" } },
  },
  {
    method: "post",
    path: "/api/comments/:id/reports",
    summary: "Report a comment",
    tag: "Comments",
    access: "person",
    mutates: true,
    body: reportSchema,
    responses: {
      201: { description: "`{reported}`: reported." },
      200: { description: "`{reported}`: already reported by this person." },
    },
  },
]);

export function registerCommentsApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity" | "rateLimits"> & {
    services: Pick<Runtime["services"], "comments">;
  },
): void {
  const threads = () => runtime.services.comments.threads;

  /** A read: any caller (the service decides what it may see). */
  const read = (fn: (c: Context, actor: Actor) => Promise<Response>) =>
    handler(runtime, async (c) => {
      const result = await runtime.identity.resolveActor(actorHeaders(c));
      if (!result.ok) {
        if (result.retryAfterS !== undefined) c.header("Retry-After", String(result.retryAfterS));
        return fail(c, result.status, result.code, result.message);
      }
      return fn(c, result.actor);
    });

  const write = (signInFor: string, fn: (c: Context, actor: Actor) => Promise<Response>) =>
    personHandler(runtime, fn, {
      mutates: true,
      signIn: `Sign in to ${signInFor}.`,
      notAPerson: NOT_A_PERSON,
    });

  const query = (c: Context) => ({
    sort: c.req.query("sort") || undefined,
    cursor: c.req.query("cursor") || undefined,
    limit: c.req.query("limit") || undefined,
  });

  app.get(
    "/api/content/:idOrSlug/comments",
    read(async (c, actor) => c.json(await threads().listThreads(actor, c.req.param("idOrSlug")!, query(c)))),
  );

  app.get(
    "/api/comments/:id/replies",
    read(async (c, actor) => c.json(await threads().listReplies(actor, c.req.param("id")!, query(c)))),
  );

  app.post(
    "/api/content/:idOrSlug/comments",
    write("join the discussion", async (c, actor) => {
      const input = await readJsonObject(c);
      const caller = c.get(RATE_CALLER) as RateCaller | undefined;
      // Charged once the comment is valid and about to be written (a refused one costs nothing).
      const charge = async () => {
        if (!caller) return;
        const verdict = await runtime.rateLimits.charge(caller, { comment: 1 });
        if (!verdict.ok) throw new RateLimitedError(rateLimitMessage(verdict), verdict.retryAfterS);
      };
      const { comment, created } = await threads().create(actor, c.req.param("idOrSlug")!, input, { charge });
      return c.json({ comment }, created ? 201 : 200);
    }),
  );

  app.patch(
    "/api/comments/:id",
    write("edit comments", async (c, actor) => {
      const input = await readJsonObject(c);
      return c.json({ comment: await threads().edit(actor, c.req.param("id")!, input) });
    }),
  );

  app.delete(
    "/api/comments/:id",
    write("delete comments", async (c, actor) => c.json(await threads().remove(actor, c.req.param("id")!))),
  );

  const like = (liked: boolean) =>
    write("like comments", async (c, actor) =>
      c.json(await threads().setLike(actor, c.req.param("id")!, liked)),
    );
  app.post("/api/comments/:id/like", like(true));
  app.delete("/api/comments/:id/like", like(false));

  app.post(
    "/api/comments/:id/reports",
    write("report comments", async (c, actor) => {
      const input = await readJsonObject(c);
      const result = await threads().report(actor, c.req.param("id")!, input);
      return c.json(result, result.created ? 201 : 200);
    }),
  );
}
