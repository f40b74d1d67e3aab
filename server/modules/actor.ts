/**
 * The actor every data service operation takes first: who is asking, reduced to what the access
 * rules of docs/decisions/007-data-rules.md read. Built once per request from the identity actor
 * (`server/auth/identity.ts`), so the services never look at headers, tokens or sessions.
 *
 * - `user`: a signed-in user (session cookie or bearer ID token) with a user id;
 * - `visitor`: nobody signed in;
 * - `api-key`: public reads only, like a visitor, within the key's scopes;
 * - `service`: a service credential; reads within its scopes, and with `content:read:all` it
 *   reads like a content manager (content roles, Enterprise tier). Never writes.
 */
import {
  type AccessContext,
  ADMIN_SCOPE_HOLDERS,
  adminScopeOrgs,
  hasAdminScope,
  type Tier,
  toAccessContext,
  type UserContext,
  visitorContext,
} from "../../core/index.ts";
import type { Actor } from "../auth/identity.ts";
import { ForbiddenError, UnauthenticatedError } from "../errors.ts";

export type ActorKind = "visitor" | "user" | "api-key" | "service";

export interface ServiceActor {
  kind: ActorKind;
  /** How the request authenticated (identity's actor kind). */
  auth: Actor["kind"];
  /** The signed-in user's id; null for visitors, API keys and service credentials. */
  userId: string | null;
  groups: readonly string[];
  /** Routing and raw roles (core `AccessContext.roles`). */
  roles: readonly string[];
  permissions: readonly string[];
  /** The plan in the content reading (null = visitor, counted as Free). */
  tier: Tier | null;
  /** The `custom:tenantId` claim: the organisation id of the user's organisation. */
  tenantId: string | null;
  /** API-key and service scopes; null for users and visitors (their context decides). */
  scopes: readonly string[] | null;
  /** Holds the "platform" admin scope (app-admin or app-owner; core/admin-scope.ts), signed in. */
  platformAdmin: boolean;
  /** Organisations (slugs) this user administers: null = every one (platform admin). */
  adminOrgs: readonly string[] | null;
  /** The core access context, for `canAccessContent` and the content data rules. */
  access: AccessContext;
}

function fromContext(
  kind: ActorKind,
  auth: Actor["kind"],
  context: UserContext,
  scopes: readonly string[] | null,
): ServiceActor {
  const access = toAccessContext(context);
  const isUser = kind === "user" && context.userId !== null;
  const groups = isUser ? [...context.groups] : [];
  return {
    kind,
    auth,
    userId: isUser ? context.userId : null,
    groups,
    roles: access.roles,
    permissions: isUser ? access.permissions : [],
    tier: access.tier,
    tenantId: isUser ? (context.customAttributes.tenantId ?? null) : null,
    scopes,
    platformAdmin: isUser && hasAdminScope(groups, "platform"),
    adminOrgs: isUser ? adminScopeOrgs(groups) : [],
    access: isUser ? access : { ...access, permissions: [], groups: [] },
  };
}

/** The service actor of a request's identity actor. */
export function serviceActor(actor: Actor): ServiceActor {
  switch (actor.kind) {
    case "session":
    case "bearer":
      return actor.context.userId
        ? fromContext("user", actor.kind, actor.context, null)
        : fromContext("visitor", "visitor", visitorContext(actor.context.environment), null);
    case "visitor":
      return fromContext("visitor", "visitor", actor.context, null);
    case "api-key":
      return fromContext("api-key", "api-key", visitorContext(actor.context.environment), actor.scopes);
    case "service":
      return fromContext("service", "service", actor.context, actor.scopes);
  }
}

/** A visitor (no credential at all). */
export function visitorActor(environment?: string): ServiceActor {
  return fromContext("visitor", "visitor", visitorContext(environment), null);
}

/** A signed-in user's actor from a server-built user context (pages call services with one). */
export function actorFromUserContext(context: UserContext): ServiceActor {
  return context.userId && context.authStatus !== "visitor"
    ? fromContext("user", "session", context, null)
    : fromContext("visitor", "visitor", context, null);
}

/** True when the actor may use a read scope: users and visitors always, keys and services by scope. */
export function hasReadScope(actor: ServiceActor, scope: string): boolean {
  if (actor.scopes === null) return true;
  if (actor.scopes.includes(scope)) return true;
  return scope === "content:read" && actor.kind === "service" && actor.scopes.includes("content:read:all");
}

/** A service credential with `content:read:all`: reads like a content manager. */
export function readsAllContent(actor: ServiceActor): boolean {
  return actor.kind === "service" && (actor.scopes ?? []).includes("content:read:all");
}

/** Refuses an actor without the read scope (API keys and service credentials). */
export function requireReadScope(actor: ServiceActor, scope: string): void {
  if (!hasReadScope(actor, scope)) throw new ForbiddenError(`this credential lacks the ${scope} scope`);
}

/**
 * The signed-in user's id, for operations that need one: a visitor → UnauthenticatedError; an API
 * key or a service credential (read-only credentials) → ForbiddenError.
 */
export function requireUser(actor: ServiceActor): string {
  if (actor.kind === "user" && actor.userId) return actor.userId;
  if (actor.kind === "visitor") throw new UnauthenticatedError();
  throw new ForbiddenError("this credential is read only; sign in to make changes");
}

/** The "platform" admin scope (decision 009): app-admin or app-owner, signed in. */
export function requirePlatformAdmin(actor: ServiceActor): string {
  const userId = requireUser(actor);
  if (!actor.platformAdmin) {
    throw new ForbiddenError(
      `only ${ADMIN_SCOPE_HOLDERS.platform} may do this; organisation administrators manage only their own organisation`,
    );
  }
  return userId;
}
