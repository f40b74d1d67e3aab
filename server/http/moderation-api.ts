/**
 * Moderation REST handlers (issue 15; docs/api/moderation.md). The service
 * (server/modules/moderation) checks access (content managers, platform administrators, the
 * owner) and validates; these handlers resolve the caller, check Origin on writes and map errors.
 *
 * - GET    /api/moderation/summary → { reported, pending, hidden, restricted, review }
 * - GET    /api/moderation/comments?queue=reported|pending|hidden|all&cursor&limit&contentId&authorId
 *          → { queue, items, nextCursor }
 * - POST   /api/moderation/comments/actions {action, ids[], reason?} → { action, results, done, changed }
 * - GET    /api/moderation/restrictions → { items }
 * - POST   /api/moderation/restrictions {userId, kind, duration?, reason?, hideComments?}
 *          → { restriction, hidden }
 * - DELETE /api/moderation/restrictions/:userId → { lifted: true }
 * - GET    /api/moderation/review → { items, total } (content waiting in review)
 *
 * Visitors 401; API keys, service tokens, readers, writers and organisation admins 403.
 */
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import {
  actionInputSchema,
  queueQuerySchema,
  restrictInputSchema,
} from "../modules/moderation/moderation.schemas.ts";
import type { ModerationService } from "../modules/moderation/moderation.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: { moderation: ModerationService };
};

const moderationRoute = routeGroup({
  tag: "Moderation",
  access: "person",
  who: "content managers, platform admins, the owner",
});

export const moderationRoutes = defineRoutes([
  moderationRoute(
    "get",
    "/api/moderation/summary",
    "Queue sizes",
    "`{reported, pending, hidden, restricted, review}`",
  ),
  moderationRoute("get", "/api/moderation/comments", "A moderation queue", "`{queue, items, nextCursor}`", {
    query: queueQuerySchema,
  }),
  moderationRoute(
    "post",
    "/api/moderation/comments/actions",
    "Approve, hide, remove or dismiss comments (`{action, ids[], reason?}`)",
    "`{action, results, done, changed}`",
    { body: actionInputSchema },
  ),
  moderationRoute("get", "/api/moderation/restrictions", "Muted and banned people", "`{items}`"),
  moderationRoute(
    "post",
    "/api/moderation/restrictions",
    "Mute or ban someone (`{userId, kind, duration?, reason?, hideComments?}`)",
    "`{restriction, hidden}`",
    { body: restrictInputSchema },
  ),
  moderationRoute("delete", "/api/moderation/restrictions/:userId", "Lift a restriction", "`{lifted: true}`"),
  moderationRoute("get", "/api/moderation/review", "Content waiting in review", "`{items, total}`"),
]);

export function registerModerationApi(app: AnyHono, runtime: Deps): void {
  const moderation = () => runtime.services.moderation;
  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as a moderator.",
      notAPerson: "Moderation is done by a signed-in moderator: API keys and service tokens are refused.",
      logMessage: "moderation request failed",
    });

  app.get(
    "/api/moderation/summary",
    handle(async (c, actor) => c.json(await moderation().summary(actor)), false),
  );
  app.get(
    "/api/moderation/comments",
    handle(async (c, actor) => c.json(await moderation().listQueue(actor, c.req.query())), false),
  );
  app.post(
    "/api/moderation/comments/actions",
    handle(async (c, actor) => {
      moderationGate(actor);
      return c.json(await moderation().act(actor, await readJsonObject(c)));
    }, true),
  );
  app.get(
    "/api/moderation/restrictions",
    handle(async (c, actor) => c.json({ items: await moderation().listRestricted(actor) }), false),
  );
  app.post(
    "/api/moderation/restrictions",
    handle(async (c, actor) => {
      moderationGate(actor);
      return c.json(await moderation().restrict(actor, await readJsonObject(c)), 201);
    }, true),
  );
  app.delete(
    "/api/moderation/restrictions/:userId",
    handle(async (c, actor) => {
      await moderation().lift(actor, c.req.param("userId") ?? "");
      return c.json({ lifted: true });
    }, true),
  );
  app.get(
    "/api/moderation/review",
    handle(async (c, actor) => c.json(await moderation().reviewQueue(actor)), false),
  );

  /** Access before the body is read: a refused caller learns nothing about the input rules. */
  function moderationGate(actor: Actor) {
    runtime.services.moderation.assertModerator(actor);
  }
}
