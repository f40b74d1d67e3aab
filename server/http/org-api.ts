/**
 * Organisation REST handlers (issue 3 item 9). Access rules live in the organisations service;
 * these handlers resolve the actor, check Origin on state changes, validate bodies and map errors.
 *
 * - GET    /api/orgs/mine → {organization} | 404 (not in an organisation)
 * - GET    /api/orgs/{slug} → {organization} (members, its admins, app-admin/app-owner; else 404)
 * - PATCH  /api/orgs/{slug} {name, domain?} → {organization} (org admins only)
 * - GET    /api/orgs/{slug}/members → {members, invitations} (org admins, app-admin/app-owner)
 * - POST   /api/orgs/{slug}/invitations {email, role?} → 201 {invitation} | 409 NO_SEATS
 * - DELETE /api/orgs/{slug}/members/{userId} → 204 (never the last admin)
 * - GET    /api/account/invitations → {invitations} (pending, for the caller's e-mail; no tokens)
 * - GET    /api/account/invitations/preview?token=… → {organizationName, role, expiresAt, state}
 * - POST   /api/account/invitations/accept {token} → {organization, role}
 *
 * Errors: `{error: {code, message, fields?}}`, 4xx for every bad request.
 */
import type { Context, Hono } from "hono";
import { normaliseIp } from "../auth/client-ip.ts";
import { CLIENT_IP_HEADER } from "../auth/session-guard.ts";
import { isDbError } from "../db/errors.ts";
import type { Actor } from "../modules/actor.ts";
import { isServiceError, SERVICE_ERROR_STATUS } from "../modules/organizations/service-error.ts";
import type { Runtime } from "../runtime.ts";
import { allowedOrigins, requestOrigin } from "./account-api.ts";
import { logRequestFailure } from "./client-abort.ts";
import { readLimited } from "./read-limited.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** Largest JSON body of these APIs. */
export const JSON_BODY_LIMIT = 64 * 1024;

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500;

export function apiFail(
  c: Context,
  status: ErrorStatus,
  code: string,
  message: string,
  fields?: Record<string, string>,
) {
  c.header("Cache-Control", "no-store");
  return c.json({ error: fields ? { code, message, fields } : { code, message } }, status);
}

/** A service or database error → its 4xx; anything else → 500 without details (logged). */
export function failFrom(c: Context, runtime: Runtime, error: unknown) {
  if (isServiceError(error)) {
    return apiFail(c, SERVICE_ERROR_STATUS[error.code], error.code, error.message, error.fields);
  }
  if (isDbError(error)) {
    const status = error.code === "NOT_FOUND" ? 404 : error.code === "CONFLICT" ? 409 : 400;
    return apiFail(c, status, error.code, error.message);
  }
  const code = (error as { code?: unknown })?.code;
  if (code === "BAD_USER_INPUT") return apiFail(c, 400, "BAD_USER_INPUT", "The request is not valid.");
  logRequestFailure(runtime.logger, c, error, "request failed");
  return apiFail(c, 500, "INTERNAL", "An unexpected error occurred");
}

/** null when the request comes from this app; else the 403 response. */
export function refuseForeignOrigin(c: Context, runtime: Runtime): Response | null {
  const origin = requestOrigin(c);
  if (origin && allowedOrigins(c, runtime).has(origin)) return null;
  return apiFail(c, 403, "FORBIDDEN_ORIGIN", "This request did not come from this site, so it was refused.");
}

/** The JSON object body, or an error response (413 too large, 400 not JSON / not an object). */
export async function readJsonObject(
  c: Context,
): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  const bytes = await readLimited(c.req.raw, JSON_BODY_LIMIT);
  if (bytes === null) {
    return {
      ok: false,
      response: apiFail(
        c,
        413,
        "PAYLOAD_TOO_LARGE",
        `The request body is larger than ${JSON_BODY_LIMIT / 1024} KB.`,
      ),
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, response: apiFail(c, 400, "INVALID_JSON", "The request body is not valid JSON.") };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    return {
      ok: false,
      response: apiFail(c, 400, "INVALID_BODY", "The request body must be a JSON object."),
    };
  }
  return { ok: true, body: parsed };
}

export function actorHeaders(c: Context): Headers {
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, normaliseIp(c.get("clientIp") as string | undefined));
  return headers;
}

export const ipOf = (c: Context) => normaliseIp(c.get("clientIp") as string | undefined);

/**
 * The wrapper of the signed-in user's account and organisation handlers: resolves the actor,
 * answers `no-store`, refuses state changes from another Origin and maps service errors.
 */
export function userHandler(runtime: Runtime) {
  const actorOf = (c: Context): Promise<Actor> => runtime.identity.resolveSessionActor(actorHeaders(c));
  return (fn: (c: Context, actor: Actor) => Promise<Response>, opts: { mutates?: boolean } = {}) =>
    async (c: Context) => {
      if (opts.mutates) {
        const refused = refuseForeignOrigin(c, runtime);
        if (refused) return refused;
      }
      try {
        const actor = await actorOf(c);
        c.header("Cache-Control", "no-store");
        return await fn(c, actor);
      } catch (error) {
        return failFrom(c, runtime, error);
      }
    };
}

export function registerOrgApi(app: AnyHono, runtime: Runtime): void {
  const orgs = () => runtime.services.organizations;
  const handle = userHandler(runtime);

  const withJson = (fn: (c: Context, actor: Actor, body: unknown) => Promise<Response>) =>
    handle(
      async (c, actor) => {
        const read = await readJsonObject(c);
        if (!read.ok) return read.response;
        return fn(c, actor, read.body);
      },
      { mutates: true },
    );

  app.get(
    "/api/orgs/mine",
    handle(async (c, actor) => {
      const organization = await orgs().mine(actor);
      if (!organization) {
        if (actor.kind === "visitor") return apiFail(c, 401, "UNAUTHENTICATED", "Sign in first.");
        return apiFail(c, 404, "NOT_FOUND", "You do not belong to an organisation.");
      }
      return c.json({ organization });
    }),
  );

  app.get(
    "/api/orgs/:slug",
    handle(async (c, actor) => c.json({ organization: await orgs().get(actor, c.req.param("slug") ?? "") })),
  );

  app.patch(
    "/api/orgs/:slug",
    withJson(async (c, actor, body) =>
      c.json({ organization: await orgs().update(actor, c.req.param("slug") ?? "", body, { ip: ipOf(c) }) }),
    ),
  );

  app.get(
    "/api/orgs/:slug/members",
    handle(async (c, actor) => {
      const slug = c.req.param("slug") ?? "";
      const members = await orgs().listMembers(actor, slug);
      const invitations = await orgs().listPendingInvitations(actor, slug);
      return c.json({ members, invitations });
    }),
  );

  app.post(
    "/api/orgs/:slug/invitations",
    withJson(async (c, actor, body) => {
      const invitation = await orgs().invite(actor, c.req.param("slug") ?? "", body, { ip: ipOf(c) });
      return c.json({ invitation }, 201);
    }),
  );

  app.delete(
    "/api/orgs/:slug/members/:userId",
    handle(
      async (c, actor) => {
        await orgs().removeMember(actor, c.req.param("slug") ?? "", c.req.param("userId") ?? "", {
          ip: ipOf(c),
        });
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );

  app.get(
    "/api/account/invitations",
    handle(async (c, actor) => c.json({ invitations: await orgs().myInvitations(actor) })),
  );

  app.get(
    "/api/account/invitations/preview",
    handle(async (c, actor) => c.json(await orgs().previewInvitation(actor, c.req.query("token") ?? ""))),
  );

  app.post(
    "/api/account/invitations/accept",
    withJson(async (c, actor, body) => c.json(await orgs().accept(actor, body, { ip: ipOf(c) }))),
  );
}
