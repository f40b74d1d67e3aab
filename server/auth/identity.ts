import type { Kysely } from "kysely";
import { effectiveSubscription } from "../../core/effective-subscription.ts";
import {
  buildUserContext,
  type Claims,
  NoValidTokensError,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  TOKEN_ROTATION_MS,
  type UserContext,
  visitorContext,
} from "../../core/index.ts";
import type { DB } from "../db/schema.ts";
import { type Actor, actorForCredential } from "../modules/actor.ts";
import { loadSubscriptionCandidates } from "../modules/subscriptions/subscriptions.repo.ts";
import type { ApiKeyService } from "./api-keys.ts";
import type { ClaimsCache } from "./identity-cache.ts";
import type { ServiceCredentials } from "./service-credentials.ts";
import type { SessionGuard } from "./session-guard.ts";
import { gateStaffClaims } from "./staff-mfa.ts";
import type { TokenService } from "./tokens.ts";
import { attributeClaims } from "./user-attributes.ts";

export interface IdentityDeps {
  db: Kysely<DB>;
  guard: SessionGuard;
  now: () => number;
  environment: string;
  featureFlags: Record<string, boolean>;
  /**
   * Bearer ID-token verifiers, tried in order (our own tokens first; an external OIDC provider
   * with Cognito-style claims may follow). See `tokens-verifiers.ts`.
   */
  bearerVerifiers?: BearerVerifier[];
  /** Service tokens (`token_use: "service"`) are verified with this. */
  tokens?: TokenService;
  apiKeys?: ApiKeyService;
  serviceCredentials?: ServiceCredentials;
  /** Claims of signed-in users, reused for a couple of seconds (decision 023). */
  cache?: ClaimsCache<Claims>;
}

/** The claims of a verified bearer ID token; `local` tokens name a user row of this app. */
export interface BearerVerification {
  claims: Claims;
  source: "local" | "external";
  /** Local tokens: the sign-in (session family) the token is bound to (`tokens-verifiers.ts`). */
  sessionFamilyId?: string;
}

export interface BearerVerifier {
  /** The claims of a valid, usable ID token, or null (never throws for a bad token). */
  verify(token: string): Promise<BearerVerification | null>;
}

/**
 * How a request authenticated (what body links are bound to); the services take the `Actor`
 * built from it (`server/modules/actor.ts`):
 * - visitor / session / bearer: a user context (scopes null: everything the user may do);
 * - api-key: public reads only — the context is a visitor's, whoever owns the key;
 * - service: a service credential's token, with its scopes.
 */
export type Credential = (
  | { kind: "visitor" | "session" | "bearer"; context: UserContext; scopes: null }
  | { kind: "api-key"; context: UserContext; scopes: string[]; keyId: string; ownerId: string }
  | { kind: "service"; context: UserContext; scopes: string[]; clientId: string }
) & {
  /** When the credential stops being usable (epoch ms), when known: links never outlive it. */
  expiresAtMs?: number | null;
  /** A bearer ID token of this app: the sign-in it is bound to (its body links are too). */
  sessionFamilyId?: string;
};

/**
 * What a body link is bound to, as an opaque string signed into the link: `v` (visitor),
 * `s.<sessionId>`, `t.<sessionFamilyId>` (bearer ID token of this app: the sign-in it is bound
 * to), `k.<apiKeyId>`,
 * `c.<clientId>.<a|p>` (service credential, with or without content:read:all). When the link is
 * used, the credential must still be live and its current context must still pass the rule.
 */
export type CredentialRef = string;

const REF_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** A request's credential and the actor built from it, or why the credential was refused. */
export type ActorResult =
  | { ok: true; credential: Credential; actor: Actor }
  | {
      ok: false;
      status: 401 | 429;
      code: "UNAUTHENTICATED" | "RATE_LIMITED";
      message: string;
      retryAfterS?: number;
    };

/** Roles granted to a service token with `content:read:all` (content gates only; no permissions). */
export const SERVICE_READ_ALL_ROLES = ["User", "ContentCreator", "Editor", "ContentManager"];

/** `Authorization: Bearer <token>` → the token; another scheme or a malformed value → "" (refused). */
export function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  const m = /^Bearer[ ]+([A-Za-z0-9_.~+/=-]+)[ ]*$/i.exec(header);
  return m ? m[1]! : "";
}

export interface IdentityUser {
  id: string;
  email: string;
  name: string;
  username: string | null;
  accountType?: string | null;
}

/**
 * The claims of a user, projected from database rows: groups from `user_group`, the tier and
 * subscription status from the effective subscription among the user's own rows and those of
 * their organisations (`core/effective-subscription.ts`), the account type from the user row. API tokens and the session context are built from the same claims.
 */
export async function claimsForUser(db: Kysely<DB>, user: IdentityUser, now = new Date()): Promise<Claims> {
  const groups = (
    await db
      .selectFrom("user_group")
      .select("groupName")
      .where("userId", "=", user.id)
      .orderBy("groupName")
      .execute()
  ).map((g) => g.groupName);

  const orgSlugs = groups.filter((g) => g.startsWith("org-") && !g.endsWith("-admin")).map((g) => g.slice(4));
  const orgs = orgSlugs.length
    ? await db
        .selectFrom("organization")
        .select(["id", "slug", "name"])
        .where("slug", "in", orgSlugs)
        .execute()
    : [];
  const tenantIds = orgs.map((o) => o.id);

  const candidates = await loadSubscriptionCandidates(db, user.id, tenantIds);
  const best = effectiveSubscription(candidates, now);
  const org = orgs[0];
  const isOrgAdmin = org ? groups.includes(`org-${org.slug}-admin`) : false;

  const claims: Claims = {
    sub: user.id,
    email: user.email,
    name: user.name,
    given_name: user.name,
    preferred_username: user.username ?? undefined,
    "cognito:groups": groups,
    "custom:account_type": user.accountType ?? "individual",
    "custom:subscriptionStatus": best ? best.status : "none",
  };
  // phone_number (+ phone_number_verified) and custom:lastLogin, from the user row.
  Object.assign(claims, await attributeClaims(db, user.id));
  // The subscription rows decide the tier (decision 019): rows but none granting (lapsed, ended,
  // cancelled) is Free, whatever the groups say; only an account with no rows at all falls back
  // to the groups (spec §6).
  if (best) claims["custom:tier"] = best.tier.toLowerCase();
  else if (candidates.length > 0) claims["custom:tier"] = "free";
  if (org) {
    claims["custom:tenantId"] = org.id;
    claims["custom:orgName"] = org.name;
    claims["custom:orgRole"] = isOrgAdmin ? "admin" : "member";
  }
  // Staff groups reach the claims only with a verified second factor (decision 012).
  return gateStaffClaims(db, claims);
}

export interface ResolvedRequest {
  context: UserContext;
  /** The request's actor (a visitor's when not signed in). */
  actor: Actor;
  /** Set-Cookie to send: a rotated session token, or the expired cookie after a failed check. */
  setCookie?: string;
}

export function createIdentity(deps: IdentityDeps) {
  const visitor = () => visitorContext(deps.environment);

  /** A user's claims: from the cache while fresh, else read (and cached unless a write raced). */
  async function currentClaims(user: IdentityUser): Promise<Claims> {
    const cache = deps.cache;
    const cached = cache?.getClaims(user.id);
    if (cached) return cached;
    const readAt = cache?.generation ?? 0;
    const claims = await claimsForUser(deps.db, user, new Date(deps.now()));
    cache?.putClaims(user.id, claims, readAt);
    return claims;
  }

  /**
   * The user context for a request, through the session guard (absolute and idle time-outs,
   * rotation, device binding: `session-guard.ts`). No session cookie → visitor without touching
   * the database. An invalid, expired or revoked session, or any failure → visitor (spec §4).
   */
  function asVisitor(setCookie?: string): ResolvedRequest {
    const context = visitor();
    return { context, actor: actorForCredential({ kind: "visitor", context, scopes: null }), setCookie };
  }

  async function resolveRequest(
    headers: Headers,
    opts: { rotate?: boolean; markActivity?: boolean } = {},
  ): Promise<ResolvedRequest> {
    const cookie = headers.get("cookie");
    if (!cookie?.includes(deps.guard.cookieName)) return asVisitor();
    try {
      const result = await deps.guard.check(headers, opts);
      if (!result.ok) return asVisitor(result.clearCookie);
      const claims = await currentClaims(result.user);
      const context = buildUserContext(claims, {
        environment: deps.environment,
        featureFlags: deps.featureFlags,
        session: {
          sessionId: result.session.id,
          issuedAt: result.session.issuedAt,
          expiresAt: result.session.expiresAt,
          idleTimeoutMs: SESSION_IDLE_MS,
          absoluteTimeoutMs: SESSION_ABSOLUTE_MS,
          lastRotatedAt: result.session.rotatedAt,
          rotationIntervalMs: TOKEN_ROTATION_MS,
        },
      });
      return {
        context,
        actor: actorForCredential({ kind: "session", context, scopes: null }),
        setCookie: result.setCookie,
      };
    } catch {
      return asVisitor();
    }
  }

  const unauthenticated = (message: string): ActorResult => ({
    ok: false,
    status: 401,
    code: "UNAUTHENTICATED",
    message,
  });

  async function userStillActive(userId: string): Promise<boolean> {
    const row = await deps.db
      .selectFrom("user")
      .select(["id", "isActive"])
      .where("id", "=", userId)
      .executeTakeFirst();
    return !!row && row.isActive !== false && row.isActive !== 0;
  }

  function serviceContext(clientId: string, scopes: string[]): UserContext {
    const readAll = scopes.includes("content:read:all");
    if (!readAll) return visitor();
    const context = buildUserContext(
      { sub: `svc:${clientId}`, "custom:tier": "enterprise", "cognito:groups": [] },
      { environment: deps.environment, featureFlags: deps.featureFlags },
    );
    return { ...context, authStatus: "authenticated", roles: [...SERVICE_READ_ALL_ROLES], permissions: [] };
  }

  const accepted = (credential: Credential): ActorResult => ({
    ok: true,
    credential,
    actor: actorForCredential(credential),
  });

  /**
   * The credential and actor of a REST request: a bearer token (ID token or service token) in Authorization,
   * else an API key in x-api-key, else the session cookie (visitor without one). A credential
   * that is present but not valid is refused (401), never downgraded to a visitor.
   */
  async function resolveActor(headers: Headers): Promise<ActorResult> {
    const token = bearerToken(headers.get("authorization"));
    if (token !== null) {
      if (token === "") return unauthenticated("The Authorization header must be 'Bearer <token>'.");
      try {
        for (const verifier of deps.bearerVerifiers ?? []) {
          const verified = await verifier.verify(token);
          if (!verified) continue;
          const sub = verified.claims.sub;
          if (verified.source === "local" && (typeof sub !== "string" || !(await userStillActive(sub)))) {
            return unauthenticated("This token's account is no longer active.");
          }
          // A local token's staff groups count only while the account still has its second factor.
          const claims =
            verified.source === "local" ? await gateStaffClaims(deps.db, verified.claims) : verified.claims;
          const context = buildUserContext(claims, {
            environment: deps.environment,
            featureFlags: deps.featureFlags,
          });
          const exp = verified.claims.exp;
          return accepted({
            kind: "bearer",
            context,
            scopes: null,
            expiresAtMs: typeof exp === "number" ? exp * 1000 : null,
            sessionFamilyId: verified.source === "local" ? verified.sessionFamilyId : undefined,
          });
        }
        const service = deps.tokens ? await deps.tokens.verify(token, "service") : null;
        const clientId = service?.client_id;
        const issuedAtS = typeof service?.iat === "number" ? service.iat : 0; // a token without iat predates any rotation
        if (
          service &&
          typeof clientId === "string" &&
          (await deps.serviceCredentials?.isActive(clientId, issuedAtS))
        ) {
          const scopes = typeof service.scope === "string" ? service.scope.split(" ").filter(Boolean) : [];
          return accepted({
            kind: "service",
            context: serviceContext(clientId, scopes),
            scopes,
            clientId,
            expiresAtMs: typeof service.exp === "number" ? service.exp * 1000 : null,
          });
        }
      } catch (error) {
        if (!(error instanceof NoValidTokensError)) throw error;
      }
      return unauthenticated("The bearer token is not valid, has expired or is not accepted here.");
    }

    const apiKey = headers.get("x-api-key");
    if (apiKey !== null) {
      if (!deps.apiKeys) return unauthenticated("API keys are not accepted here.");
      const check = await deps.apiKeys.authenticate(apiKey);
      if (!check.ok) {
        if (check.reason === "rate-limited") {
          return {
            ok: false,
            status: 429,
            code: "RATE_LIMITED",
            message: "Too many requests with this API key. Try again later.",
            retryAfterS: check.retryAfterS,
          };
        }
        return unauthenticated("The API key is not valid, has expired or was revoked.");
      }
      return accepted({
        kind: "api-key",
        context: visitor(),
        scopes: check.scopes,
        keyId: check.keyId,
        ownerId: check.userId,
        expiresAtMs: check.expiresAtMs,
      });
    }

    const { context, actor } = await resolveRequest(headers);
    return {
      ok: true,
      credential: {
        kind: context.authStatus === "visitor" ? "visitor" : "session",
        context,
        scopes: null,
        expiresAtMs: context.session?.expiresAt ?? null,
      },
      actor,
    };
  }

  async function contextForUserId(userId: string, guardUser?: IdentityUser): Promise<UserContext | null> {
    const user =
      guardUser ??
      (await deps.db
        .selectFrom("user")
        .select(["id", "email", "name", "username", "accountType", "isActive"])
        .where("id", "=", userId)
        .executeTakeFirst()
        .then((row) => (row && row.isActive !== false && row.isActive !== 0 ? row : undefined)));
    if (!user) return null;
    const claims = await claimsForUser(deps.db, user, new Date(deps.now()));
    return buildUserContext(claims, { environment: deps.environment, featureFlags: deps.featureFlags });
  }

  /** The reference a link issued to `actor` is bound to. */
  function credentialRef(actor: Credential): CredentialRef | null {
    switch (actor.kind) {
      case "visitor":
        return "v";
      case "session": {
        const id = actor.context.session?.sessionId;
        return id && REF_ID.test(id) ? `s.${id}` : null;
      }
      case "bearer": {
        // Only this app's tokens: an external provider's token has no sign-in here to re-check.
        const id = actor.sessionFamilyId;
        return id && REF_ID.test(id) ? `t.${id}` : null;
      }
      case "api-key":
        return REF_ID.test(actor.keyId) ? `k.${actor.keyId}` : null;
      case "service":
        return REF_ID.test(actor.clientId)
          ? `c.${actor.clientId}.${actor.scopes.includes("content:read:all") ? "a" : "p"}`
          : null;
    }
  }

  /**
   * The current actor behind a link's credential reference, or null when that credential is gone
   * (signed out, session timed out or rotated away, key revoked, account disabled). Links of
   * bearer tokens follow the token's sign-in across rotations (`t.`); `u.<userId>` links from
   * before tokens were bound to a sign-in are refused. A key or service credential's link was
   * issued under `content:read` (or `content:read:all`), which is what its actor holds here.
   */
  async function actorForCredentialRef(ref: CredentialRef): Promise<Actor | null> {
    if (ref === "v") return actorForCredential({ kind: "visitor", context: visitor(), scopes: null });
    const [kind, id, extra] = ref.split(".");
    if (!id || !REF_ID.test(id)) return null;
    const userActor = (kind: "session" | "bearer", context: UserContext | null) =>
      context ? actorForCredential({ kind, context, scopes: null }) : null;
    switch (kind) {
      case "s": {
        const user = await deps.guard.inspect(id);
        return userActor("session", user ? await contextForUserId(user.id, user) : null);
      }
      case "t": {
        const user = await deps.guard.inspectFamily(id);
        return userActor("bearer", user ? await contextForUserId(user.id, user) : null);
      }
      case "k":
        return (await deps.apiKeys?.isActive(id))
          ? actorForCredential({ kind: "api-key", context: visitor(), scopes: ["content:read"] })
          : null;
      case "c": {
        if (extra !== "a" && extra !== "p") return null;
        if (!(await deps.serviceCredentials?.isActive(id))) return null;
        const scopes = extra === "a" ? ["content:read:all"] : ["content:read"];
        return actorForCredential({ kind: "service", context: serviceContext(id, scopes), scopes });
      }
      default:
        return null;
    }
  }

  return {
    resolveRequest,
    resolveActor,
    credentialRef,
    actorForCredentialRef,
    /** The user context without side effects on the cookie (REST, GraphQL). */
    async resolveUser(headers: Headers): Promise<UserContext> {
      return (await resolveRequest(headers)).context;
    },
    /** The session's actor without side effects on the cookie (REST handlers for signed-in users). */
    async resolveSessionActor(headers: Headers): Promise<Actor> {
      return (await resolveRequest(headers)).actor;
    },
  };
}

export type Identity = ReturnType<typeof createIdentity>;
