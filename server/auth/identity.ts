import type { Kysely } from "kysely";
import {
  buildUserContext,
  type Claims,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  TOKEN_ROTATION_MS,
  type UserContext,
  visitorContext,
} from "../../core/index.ts";
import type { DB } from "../db/schema.ts";
import type { SessionGuard } from "./session-guard.ts";

export interface IdentityDeps {
  db: Kysely<DB>;
  guard: SessionGuard;
  now: () => number;
  environment: string;
  featureFlags: Record<string, boolean>;
}

export interface IdentityUser {
  id: string;
  email: string;
  name: string;
  username: string | null;
  accountType?: string | null;
}

/** Subscription statuses that grant their tier (until expiresAt). */
const ACTIVE_STATUSES = ["active", "trialing"];

/**
 * The claims of a user, projected from database rows: groups from `user_group`, the tier from
 * the user's active subscription (or, for a business account, the organisation's), the account
 * type from the user row. API tokens and the session context are built from the same claims.
 */
export async function claimsForUser(db: Kysely<DB>, user: IdentityUser, now = new Date()): Promise<Claims> {
  const nowIso = now.toISOString();
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

  let query = db
    .selectFrom("user_subscription")
    .select(["tier", "status", "tenantId", "expiresAt"])
    .where("status", "in", ACTIVE_STATUSES)
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", nowIso)]))
    .where((eb) => eb.or([eb("canceledAt", "is", null), eb("canceledAt", ">", nowIso)]));
  query = query.where((eb) =>
    tenantIds.length
      ? eb.or([eb("userId", "=", user.id), eb("tenantId", "in", tenantIds)])
      : eb("userId", "=", user.id),
  );
  const subscriptions = await query.execute();
  const rank: Record<string, number> = { free: 0, basic: 1, pro: 2, business: 3, enterprise: 3 };
  const best = subscriptions.sort(
    (a, b) => (rank[b.tier.toLowerCase()] ?? -1) - (rank[a.tier.toLowerCase()] ?? -1),
  )[0];
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
  if (best) claims["custom:tier"] = best.tier.toLowerCase();
  if (org) {
    claims["custom:tenantId"] = org.id;
    claims["custom:orgName"] = org.name;
    claims["custom:orgRole"] = isOrgAdmin ? "admin" : "member";
  }
  return claims;
}

export interface ResolvedRequest {
  context: UserContext;
  /** Set-Cookie to send: a rotated session token, or the expired cookie after a failed check. */
  setCookie?: string;
}

export function createIdentity(deps: IdentityDeps) {
  const visitor = () => visitorContext(deps.environment);

  /**
   * The user context for a request, through the session guard (absolute and idle time-outs,
   * rotation, device binding: `session-guard.ts`). No session cookie → visitor without touching
   * the database. An invalid, expired or revoked session, or any failure → visitor (spec §4).
   */
  async function resolveRequest(
    headers: Headers,
    opts: { rotate?: boolean; markActivity?: boolean } = {},
  ): Promise<ResolvedRequest> {
    const cookie = headers.get("cookie");
    if (!cookie?.includes(deps.guard.cookieName)) return { context: visitor() };
    try {
      const result = await deps.guard.check(headers, opts);
      if (!result.ok) return { context: visitor(), setCookie: result.clearCookie };
      const claims = await claimsForUser(deps.db, result.user, new Date(deps.now()));
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
      return { context, setCookie: result.setCookie };
    } catch {
      return { context: visitor() };
    }
  }

  return {
    resolveRequest,
    /** The user context without side effects on the cookie (REST, GraphQL). */
    async resolveUser(headers: Headers): Promise<UserContext> {
      return (await resolveRequest(headers)).context;
    },
  };
}

export type Identity = ReturnType<typeof createIdentity>;
