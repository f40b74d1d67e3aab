/**
 * The users admin queries (issue 14, /admin/users): the list (search, filters, sort, offset
 * paging with a total) and the rows of a user page. Indexes: migration 026.
 *
 * Search is a case-insensitive PREFIX match on the e-mail, the username and the name
 * (`lower(col) >= q AND lower(col) < q⁺`, a range on the b-tree index of `lower(col)`; PostgreSQL
 * compares under COLLATE "C" so the range is exactly the prefix set). A `%part%` match cannot use a
 * b-tree index in either dialect and would read all 100,000 users on every keystroke; prefixes find
 * "fre" → free@demo.local, "acme" → acme-…@…, "smi" → "Smith…" in a few index pages.
 *
 * The tier filter is the effective tier, computed in SQL with the rule of
 * core/effective-subscription.ts (granting rows of the user and of their organisations, highest
 * tier wins; no rows at all → the tier from the groups, core `tierFromGroups`).
 */
import { type Expression, type Kysely, type SqlBool, sql } from "kysely";
import {
  effectiveSubscription,
  isOrgAdminGroup,
  isOrgGroup,
  orgSlugFromGroup,
  parseTier,
  tierFromGroups,
} from "../../../core/index.ts";
import { dialectOf } from "../../db/dialect.ts";
import type { DB } from "../../db/schema.ts";
import { toBool } from "../../db/values.ts";
import type { AdminUserRow, UserSort, UserStatus, UserTier } from "./users-admin.types.ts";
import { ORG_ADMIN_FILTER } from "./users-admin.types.ts";

export interface ListFilter {
  q?: string;
  tier?: UserTier;
  group?: string;
  status?: UserStatus;
  organisation?: string;
  mfa?: "on" | "off";
  /** null = every user; otherwise only members of these organisation slugs. */
  scopeOrgs: readonly string[] | null;
  sort: UserSort;
  dir: "asc" | "desc";
  offset: number;
  limit: number;
  now: number;
}

const TIER_RANK: Record<UserTier, number> = { free: 0, basic: 1, pro: 2, enterprise: 3 };

export const iso = (value: unknown): string => {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number") return new Date(value).toISOString();
  const s = String(value ?? "");
  const t = Date.parse(s);
  return Number.isNaN(t) ? s : new Date(t).toISOString();
};

/** The first string after every string starting with `prefix` (for an index range). */
export function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

export function tierOf(value: string | null | undefined): UserTier | null {
  const t = parseTier(value);
  return t ? (t.toLowerCase() as UserTier) : null;
}

export function createUsersAdminRepo(db: Kysely<DB>) {
  const pg = dialectOf(db) === "postgres";
  /** `lower(u.<col>)`, compared bytewise (the index expression of migration 026). */
  const lowered = (column: "email" | "username" | "name") =>
    pg ? sql<string>`lower(u.${sql.ref(column)}) collate "C"` : sql<string>`lower(u.${sql.ref(column)})`;

  const granting = (now: string) =>
    sql<SqlBool>`((s.status in ('active', 'trialing') or (s.status = 'past_due' and s."expiresAt" is not null))
      and (s."expiresAt" is null or s."expiresAt" > ${now})
      and (s."canceledAt" is null or s."canceledAt" > ${now}))`;
  const rank = sql<number>`(case lower(s.tier) when 'free' then 0 when 'basic' then 1 when 'pro' then 2
      when 'enterprise' then 3 when 'business' then 3 else -1 end)`;
  /**
   * (userId, rank) of every subscription row that counts for a user — their own, and their
   * organisations' (members are `org-<slug>` holders) — optionally only the granting ones. Set-based
   * (no per-user subquery), so a filter over 100,000 users reads each table once.
   */
  const candidates = (only: Expression<SqlBool> | null) => {
    const where = only ?? sql<SqlBool>`(1 = 1)`;
    return sql`select s."userId" as uid, ${rank} as r from user_subscription s where s."userId" is not null and ${where}
      union all
      select ug."userId" as uid, ${rank} as r from user_subscription s
        inner join organization o on o.id = s."tenantId"
        inner join user_group ug on ug."groupName" = 'org-' || o.slug
        where ${where}`;
  };
  /** Group names (of the group table) whose `tierFromGroups` is `tier`, and those of higher tiers. */
  async function groupsByTier(tier: UserTier) {
    const names = (await db.selectFrom("group").select("name").execute()).map((g) => g.name);
    const at: string[] = [];
    const above: string[] = [];
    for (const name of names) {
      const t = tierOf(tierFromGroups([name]));
      if (t === null) continue;
      if (t === tier) at.push(name);
      else if (TIER_RANK[t] > TIER_RANK[tier]) above.push(name);
    }
    return { at, above };
  }

  async function tierCondition(tier: UserTier, nowIso: string): Promise<Expression<SqlBool>> {
    const r = TIER_RANK[tier];
    const { at, above } = await groupsByTier(tier);
    const anyRow = sql<SqlBool>`u.id in (select c.uid from (${candidates(null)}) c)`;
    // The highest granting tier is this one (identity's rule 2).
    const bySubscription = sql<SqlBool>`u.id in (select g.uid from (${candidates(granting(nowIso))}) g
      group by g.uid having max(g.r) = ${r})`;
    const inGroups = (names: string[]) =>
      names.length
        ? sql<SqlBool>`u.id in (select ug2."userId" from user_group ug2 where ug2."groupName" in (${sql.join(names)}))`
        : sql<SqlBool>`(1 = 0)`;
    // Rows but none granting: free, whatever the groups say (identity's rule).
    const lapsed =
      tier === "free"
        ? sql<SqlBool>`(${anyRow} and u.id not in (select g2.uid from (${candidates(granting(nowIso))}) g2))`
        : sql<SqlBool>`(1 = 0)`;
    // No rows at all: the tier from the groups (core tierFromGroups: the highest wins).
    const byGroups = sql<SqlBool>`(not ${anyRow} and ${inGroups(at)} and not ${inGroups(above)})`;
    return sql<SqlBool>`(${bySubscription} or ${lapsed} or ${byGroups})`;
  }

  function lockedCondition(nowMs: number) {
    return sql<SqlBool>`exists (select 1 from login_throttle t where t.key = 'acct:' || u.id and t."lockedUntil" > ${nowMs})`;
  }

  async function whereOf(f: ListFilter) {
    const conditions: Expression<SqlBool>[] = [];
    const nowIso = new Date(f.now).toISOString();
    if (f.scopeOrgs !== null) {
      const groups = f.scopeOrgs.map((slug) => `org-${slug}`);
      conditions.push(
        groups.length
          ? sql<SqlBool>`u.id in (select sg."userId" from user_group sg where sg."groupName" in (${sql.join(groups)}))`
          : sql<SqlBool>`(1 = 0)`,
      );
    }
    const q = f.q?.trim().toLowerCase();
    if (q) {
      const hi = prefixUpperBound(q);
      const range = (column: "email" | "username" | "name") =>
        sql<SqlBool>`(${lowered(column)} >= ${q} and ${lowered(column)} < ${hi})`;
      conditions.push(sql<SqlBool>`(${range("email")} or ${range("username")} or ${range("name")})`);
    }
    if (f.tier) conditions.push(await tierCondition(f.tier, nowIso));
    if (f.group) {
      conditions.push(
        f.group === ORG_ADMIN_FILTER
          ? sql<SqlBool>`u.id in (select gg."userId" from user_group gg where gg."groupName" like 'org-%-admin')`
          : sql<SqlBool>`u.id in (select gg."userId" from user_group gg where gg."groupName" = ${f.group})`,
      );
    }
    if (f.organisation) {
      conditions.push(
        sql<SqlBool>`u.id in (select og2."userId" from user_group og2 where og2."groupName" = ${`org-${f.organisation}`})`,
      );
    }
    if (f.mfa) conditions.push(sql<SqlBool>`u."twoFactorEnabled" = ${f.mfa === "on"}`);
    if (f.status === "suspended") conditions.push(sql<SqlBool>`u."isActive" = ${false}`);
    if (f.status === "unverified") {
      conditions.push(sql<SqlBool>`(u."emailVerified" = ${false} and u."isActive" = ${true})`);
    }
    if (f.status === "locked") {
      conditions.push(sql<SqlBool>`(u."isActive" = ${true} and ${lockedCondition(f.now)})`);
    }
    if (f.status === "active") {
      conditions.push(
        sql<SqlBool>`(u."isActive" = ${true} and u."emailVerified" = ${true} and not ${lockedCondition(f.now)})`,
      );
    }
    return conditions.length ? sql<SqlBool>`${sql.join(conditions, sql` and `)}` : sql<SqlBool>`(1 = 1)`;
  }

  function orderOf(sort: UserSort, dir: "asc" | "desc") {
    const d = sql.raw(dir);
    switch (sort) {
      case "email":
        return sql`${lowered("email")} ${d}, u.id ${d}`;
      case "created":
        return sql`u."createdAt" ${d}, u.id ${d}`;
      case "lastLogin":
        // Never signed in: first going up, last going down (SQLite's order; PostgreSQL is told so,
        // and its index of migration 026 is declared in that order).
        return pg
          ? sql`u."lastLoginAt" ${d} ${sql.raw(dir === "desc" ? "nulls last" : "nulls first")}, u.id ${d}`
          : sql`u."lastLoginAt" ${d}, u.id ${d}`;
      default:
        return sql`${lowered("name")} ${d}, u.id ${d}`;
    }
  }

  /** The list query itself (also EXPLAINed by the scale test). */
  async function listSql(f: ListFilter) {
    const where = await whereOf(f);
    return {
      rows: sql<{
        id: string;
        name: string;
        email: string;
        username: string | null;
        createdAt: unknown;
        lastLoginAt: string | null;
        isActive: unknown;
        emailVerified: unknown;
        twoFactorEnabled: unknown;
      }>`select u.id, u.name, u.email, u.username, u."createdAt", u."lastLoginAt", u."isActive",
          u."emailVerified", u."twoFactorEnabled"
        from "user" u where ${where} order by ${orderOf(f.sort, f.dir)} limit ${f.limit} offset ${f.offset}`,
      count: sql<{ n: number | string }>`select count(*) as n from "user" u where ${where}`,
    };
  }

  /** Effective tier per user (identity's rule), for a page of users. */
  async function tiersOf(users: { id: string; groups: string[] }[], now: number) {
    const slugs = [
      ...new Set(users.flatMap((u) => u.groups.filter((g) => isOrgGroup(g) && !isOrgAdminGroup(g)))),
    ].map((g) => g.slice(4));
    const orgs = slugs.length
      ? await db.selectFrom("organization").select(["id", "slug"]).where("slug", "in", slugs).execute()
      : [];
    const orgIdBySlug = new Map(orgs.map((o) => [o.slug, o.id]));
    const ids = users.map((u) => u.id);
    const tenantIds = orgs.map((o) => o.id);
    const rows = ids.length
      ? await db
          .selectFrom("user_subscription")
          .select([
            "id",
            "userId",
            "tier",
            "status",
            "tenantId",
            "expiresAt",
            "canceledAt",
            "startedAt",
            "createdAt",
          ])
          .where((eb) =>
            tenantIds.length
              ? eb.or([eb("userId", "in", ids), eb("tenantId", "in", tenantIds)])
              : eb("userId", "in", ids),
          )
          .execute()
      : [];
    const at = new Date(now);
    const out = new Map<
      string,
      { tier: UserTier | null; subscriptionId: string | null; fromGroups: boolean }
    >();
    for (const user of users) {
      const tenants = new Set(
        user.groups
          .filter((g) => isOrgGroup(g) && !isOrgAdminGroup(g))
          .map((g) => orgIdBySlug.get(g.slice(4)))
          .filter(Boolean),
      );
      const candidates = rows.filter(
        (r) => r.userId === user.id || (r.tenantId !== null && tenants.has(r.tenantId)),
      );
      const best = effectiveSubscription(candidates, at);
      if (best) out.set(user.id, { tier: tierOf(best.tier), subscriptionId: best.id, fromGroups: false });
      else if (candidates.length) out.set(user.id, { tier: "free", subscriptionId: null, fromGroups: false });
      else
        out.set(user.id, {
          tier: tierOf(tierFromGroups(user.groups)),
          subscriptionId: null,
          fromGroups: true,
        });
    }
    return out;
  }

  async function groupsOf(ids: string[]) {
    const rows = ids.length
      ? await db
          .selectFrom("user_group")
          .select(["userId", "groupName"])
          .where("userId", "in", ids)
          .orderBy("groupName")
          .execute()
      : [];
    const map = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const r of rows) map.get(r.userId)?.push(r.groupName);
    return map;
  }

  async function lockedOf(ids: string[], now: number) {
    const keys = ids.map((id) => `acct:${id}`);
    const rows = keys.length
      ? await db
          .selectFrom("login_throttle")
          .select(["key"])
          .where("key", "in", keys)
          .where("lockedUntil", ">", now)
          .execute()
      : [];
    return new Set(rows.map((r) => r.key.slice(5)));
  }

  function statusOf(row: { isActive: unknown; emailVerified: unknown }, locked: boolean): UserStatus {
    if (!toBool(row.isActive as boolean | number)) return "suspended";
    if (locked) return "locked";
    if (!toBool(row.emailVerified as boolean | number)) return "unverified";
    return "active";
  }

  return {
    listSql,

    async list(f: ListFilter): Promise<{ items: AdminUserRow[]; total: number }> {
      const q = await listSql(f);
      const [rows, count] = await Promise.all([q.rows.execute(db), q.count.execute(db)]);
      const ids = rows.rows.map((r) => r.id);
      const groups = await groupsOf(ids);
      const tiers = await tiersOf(
        ids.map((id) => ({ id, groups: groups.get(id) ?? [] })),
        f.now,
      );
      const locked = await lockedOf(ids, f.now);
      const items = rows.rows.map((r): AdminUserRow => {
        const g = groups.get(r.id) ?? [];
        return {
          id: r.id,
          name: r.name,
          email: r.email,
          username: r.username,
          createdAt: iso(r.createdAt),
          lastLoginAt: r.lastLoginAt ? iso(r.lastLoginAt) : null,
          tier: tiers.get(r.id)?.tier ?? null,
          groups: g,
          organisations: [...new Set(g.map(orgSlugFromGroup).filter((s): s is string => s !== null))],
          status: statusOf(r, locked.has(r.id)),
          mfa: toBool(r.twoFactorEnabled as boolean | number),
        };
      });
      return { items, total: Number(count.rows[0]?.n ?? 0) };
    },

    groupsOf,
    tiersOf,
    lockedOf,
    statusOf,
  };
}

export type UsersAdminRepo = ReturnType<typeof createUsersAdminRepo>;
