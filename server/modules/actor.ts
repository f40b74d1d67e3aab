/**
 * The actor every service operation takes first: who is asking, reduced to what the access rules
 * of docs/decisions/007-data-rules.md read, with the user context (claims) pages show. Built once
 * per request by identity (`server/auth/identity.ts`) from the request's credential and handed to
 * every transport (React Router context, REST handlers, GraphQL context), so the services never
 * look at headers, tokens or sessions.
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
  APP_OWNER_GROUP,
  adminScopeOrgs,
  buildUserContext,
  hasAdminScope,
  type Tier,
  toAccessContext,
  type UserContext,
  visitorContext,
} from "../../core/index.ts";

import { ForbiddenError, UnauthenticatedError } from "../errors.ts";

export type ActorKind = "visitor" | "user" | "api-key" | "service";

/** How a request authenticated (identity's credential kind). */
export type CredentialKind = "visitor" | "session" | "bearer" | "api-key" | "service";

export interface Actor {
  kind: ActorKind;
  /** How the request authenticated. */
  auth: CredentialKind;
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
  /**
   * The user context the request was resolved to (claims, session, display fields): a visitor's
   * for API keys, the service context for service credentials. Pages show it; rules read the
   * fields above.
   */
  context: UserContext;
}

function fromContext(
  kind: ActorKind,
  auth: CredentialKind,
  context: UserContext,
  scopes: readonly string[] | null,
): Actor {
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
    context,
  };
}

/** What identity resolved a request's credential to: its kind, user context and scopes. */
export interface CredentialContext {
  kind: CredentialKind;
  context: UserContext;
  scopes: readonly string[] | null;
}

/** The actor of a request's credential (identity calls this once per request). */
export function actorForCredential(credential: CredentialContext): Actor {
  switch (credential.kind) {
    case "session":
    case "bearer":
      return credential.context.userId && credential.context.authStatus !== "visitor"
        ? fromContext("user", credential.kind, credential.context, null)
        : fromContext("visitor", "visitor", visitorContext(credential.context.environment), null);
    case "visitor":
      return fromContext("visitor", "visitor", credential.context, null);
    case "api-key":
      return fromContext(
        "api-key",
        "api-key",
        visitorContext(credential.context.environment),
        credential.scopes ?? [],
      );
    case "service":
      return fromContext("service", "service", credential.context, credential.scopes ?? []);
  }
}

/** A visitor (no credential at all). */
export function visitorActor(environment?: string): Actor {
  return fromContext("visitor", "visitor", visitorContext(environment), null);
}

/** True when the actor may use a read scope: users and visitors always, keys and services by scope. */
export function hasReadScope(actor: Actor, scope: string): boolean {
  if (actor.scopes === null) return true;
  if (actor.scopes.includes(scope)) return true;
  return scope === "content:read" && actor.kind === "service" && actor.scopes.includes("content:read:all");
}

/** A service credential with `content:read:all`: reads like a content manager. */
export function readsAllContent(actor: Actor): boolean {
  return actor.kind === "service" && (actor.scopes ?? []).includes("content:read:all");
}

/** Refuses an actor without the read scope (API keys and service credentials). */
export function requireReadScope(actor: Actor, scope: string): void {
  if (!hasReadScope(actor, scope)) throw new ForbiddenError(`this credential lacks the ${scope} scope`);
}

/**
 * The signed-in user's id, for operations that need one: a visitor → UnauthenticatedError; an API
 * key or a service credential (read-only credentials) → ForbiddenError.
 */
export function requireUser(actor: Actor): string {
  if (actor.kind === "user" && actor.userId) return actor.userId;
  if (actor.kind === "visitor") throw new UnauthenticatedError();
  throw new ForbiddenError("this credential is read only; sign in to make changes");
}

/** The "platform" admin scope (decision 009): app-admin or app-owner, signed in. */
export function requirePlatformAdmin(actor: Actor): string {
  const userId = requireUser(actor);
  if (!actor.platformAdmin) {
    throw new ForbiddenError(
      `only ${ADMIN_SCOPE_HOLDERS.platform} may do this; organisation administrators manage only their own organisation`,
    );
  }
  return userId;
}

/**
 * The user id the installation's operator acts under (the command line, `npm run hub`): not a
 * row of the user table. The audit log records its entries as the system actor (no actor id)
 * with `via: "cli"` in the details (audit.repo.ts).
 */
export const OPERATOR_ACTOR_ID = "operator:cli";

/**
 * The operator of the installation (someone with the server's shell and environment): the
 * platform owner's scope, through the same rules as a signed-in owner, audited as the system.
 */
export function operatorActor(environment?: string): Actor {
  const context = buildUserContext(
    { sub: OPERATOR_ACTOR_ID, "cognito:groups": [APP_OWNER_GROUP], "custom:tier": "enterprise" },
    { environment },
  );
  return actorForCredential({ kind: "session", context, scopes: null });
}
