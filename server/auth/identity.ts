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
import type { Auth } from "./auth.ts";

export interface IdentityDeps {
  db: Kysely<DB>;
  auth: Auth;
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

const asMs = (value: Date | string | number) => new Date(value).getTime();

export function createIdentity(deps: IdentityDeps) {
  const visitor = () => visitorContext(deps.environment);
  return {
    /**
     * The user context for a request. No session cookie → visitor without touching the
     * database. An invalid or expired session, or any failure → visitor (spec §4).
     */
    async resolveUser(headers: Headers): Promise<UserContext> {
      const cookie = headers.get("cookie");
      if (!cookie?.includes("lumen.session_token")) return visitor();
      try {
        const result = await deps.auth.api.getSession({ headers });
        if (!result) return visitor();
        const user = result.user as IdentityUser & { isActive?: boolean | number | null };
        if (user.isActive === false || user.isActive === 0) return visitor();
        const claims = await claimsForUser(deps.db, user);
        const issuedAt = asMs(result.session.createdAt);
        return buildUserContext(claims, {
          environment: deps.environment,
          featureFlags: deps.featureFlags,
          session: {
            sessionId: result.session.id,
            issuedAt,
            expiresAt: asMs(result.session.expiresAt),
            idleTimeoutMs: SESSION_IDLE_MS,
            absoluteTimeoutMs: SESSION_ABSOLUTE_MS,
            lastRotatedAt: asMs(result.session.updatedAt),
            rotationIntervalMs: TOKEN_ROTATION_MS,
          },
        });
      } catch {
        return visitor();
      }
    },
  };
}
