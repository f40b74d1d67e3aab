/**
 * Users administration (issue 14, /admin/users; docs/api/admin-users.md): the list, a user's page
 * and the actions on an account. Every operation checks `core/admin-scope.ts` (`users.read`,
 * `users.manage`, `users.groups`, `users.delete`); an organisation administrator reaches only the
 * members of its organisations (anyone else, like an unknown id, is 404 "No such user."). Which
 * groups may be granted by whom: `core/group-grants.ts`; whose account may be managed:
 * `canManageAccount` (platform administrators' accounts by the owner only, nobody suspends or
 * deletes themselves). Every action writes an audit row naming the actor, the target and the
 * admin's note. Unlocking stays `accounts.unlock` (account.service.ts); plans go through the
 * billing admin write path (billing-admin.ts).
 *
 * Deleting a user removes their own rows (sessions, groups, subscriptions, API keys, second
 * factors, likes, progress: cascades) and keeps the content they wrote with `authorId` null
 * (the foreign keys' ON DELETE SET NULL), so published pages do not disappear with an account.
 */
import { type Kysely, sql } from "kysely";
import { z } from "zod";
import { type AdminOperationName, adminAccess } from "../../../core/admin-scope.ts";
import { canChangeGroup, canManageAccount, isKnownGroup } from "../../../core/group-grants.ts";
import {
  APP_OWNER_GROUP,
  isOrgAdminGroup,
  isOrgGroup,
  isPlatformAdmin,
  orgSlugFromGroup,
  rolesFromGroups,
} from "../../../core/index.ts";
import { pendingStaffRolesOf } from "../../auth/staff-mfa.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { toBool } from "../../db/values.ts";
import {
  AppError,
  BadInputError,
  ConflictError,
  ForbiddenError,
  UnauthenticatedError,
} from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { parse } from "../billing/billing-inputs.ts";
import { createEngagementRepo } from "../engagement/engagement.repo.ts";
import { createOrganizationsRepo } from "../organizations/organizations.repo.ts";
import { avatarKey } from "../users/profile-image.ts";
import { createUsersAdminRepo, iso } from "./users-admin.repo.ts";
import {
  ADMIN_USERS_LIMIT,
  type AdminUserDetail,
  type AdminUserPage,
  userListQuerySchema,
} from "./users-admin.types.ts";

const note = z.string().trim().max(500).optional();
const noteOnly = z.strictObject({ note });
export const groupsSchema = z
  .strictObject({
    add: z.array(z.string().trim().min(1).max(120)).max(20).optional(),
    remove: z.array(z.string().trim().min(1).max(120)).max(20).optional(),
    note,
  })
  .refine((v) => (v.add?.length ?? 0) + (v.remove?.length ?? 0) > 0, {
    message: "add or remove at least one group",
    path: ["add"],
  });
export const deleteSchema = z.strictObject({
  confirm: z.string().trim().min(1, "type the user's e-mail"),
  note,
});

/** Security events shown on the user page and as the lockout's reasons. */
const LOCKOUT_ACTIONS = [
  "sign_in_failure",
  "lockout",
  "mfa_failure",
  "password_check_failure",
  "admin_unlock",
];

export interface UsersAdminDeps {
  db: Kysely<DB>;
  now(): number;
  storage?: Pick<ObjectStore, "delete">;
  /** The one unlock operation (account.service.ts `accounts.unlock`: access, scope and audit). */
  unlock?: (
    actor: Actor,
    userId: string,
    meta: { ip: string | null; note?: string },
  ) => Promise<{ userId: string; unlocked: boolean }>;
}

interface Target {
  id: string;
  /** = id (the shape core/group-grants.ts reads). */
  userId: string;
  email: string;
  groups: string[];
}

export function createUsersAdminService(deps: UsersAdminDeps) {
  const { db } = deps;
  const repo = createUsersAdminRepo(db);
  const audit = createAuditRepo(db);
  const nowIso = () => new Date(deps.now()).toISOString();

  /** The signed-in person allowed `op`, with the organisations it may touch (null = all). */
  function allow(actor: Actor, op: AdminOperationName) {
    if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in first.");
    if (actor.kind !== "user" || !actor.userId) {
      throw new ForbiddenError("Users are managed by a signed-in administrator; API keys are refused.");
    }
    const decision = adminAccess(op, actor.access);
    if (decision.kind === "denied") {
      if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
      throw new ForbiddenError(decision.message);
    }
    return { actorId: actor.userId, orgs: decision.orgs, groups: [...actor.access.groups] };
  }

  const noSuchUser = () => new AppError("NOT_FOUND", "No such user.");

  /** The target user, inside the caller's organisations (404 otherwise). */
  async function loadTarget(orgs: readonly string[] | null, userId: string): Promise<Target> {
    if (typeof userId !== "string" || userId.length === 0 || userId.length > 200) throw noSuchUser();
    const user = await db
      .selectFrom("user")
      .select(["id", "email"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) throw noSuchUser();
    const groups = (await repo.groupsOf([user.id])).get(user.id) ?? [];
    if (orgs !== null && !groups.some((g) => isOrgGroup(g) && orgs.includes(orgSlugFromGroup(g) ?? ""))) {
      throw noSuchUser();
    }
    return { id: user.id, userId: user.id, email: user.email, groups };
  }

  async function ownerCount(): Promise<number> {
    const row = await db
      .selectFrom("user_group")
      .select(db.fn.countAll<number | string>().as("n"))
      .where("groupName", "=", APP_OWNER_GROUP)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  function requireManage(actor: { actorId: string; groups: string[] }, target: Target, selfAllowed: boolean) {
    const decision = canManageAccount({ userId: actor.actorId, groups: actor.groups }, target, selfAllowed);
    if (!decision.ok) throw new ForbiddenError(decision.message);
  }

  async function record(action: string, actorId: string, target: Target, details: Record<string, unknown>) {
    await audit.append({
      action,
      actorId,
      targetType: "user",
      targetId: target.id,
      at: nowIso(),
      details: { email: target.email, ...details },
    });
  }

  /** Groups the caller could add / remove for the target now (for the screen). */
  async function grantable(actor: { actorId: string; groups: string[] }, target: Target) {
    const known = (await db.selectFrom("group").select("name").execute())
      .map((g) => g.name)
      .filter(isKnownGroup);
    const context = { ownerCount: await ownerCount() };
    const me = { userId: actor.actorId, groups: actor.groups };
    return {
      addGroups: known.filter((g) => canChangeGroup(me, target, g, "add", context).ok).sort(),
      removeGroups: target.groups.filter((g) => canChangeGroup(me, target, g, "remove", context).ok),
    };
  }

  return {
    /** The list: search, filters, sort, offset paging with the total. */
    async list(actor: Actor, query: unknown): Promise<AdminUserPage> {
      const { orgs } = allow(actor, "users.read");
      const f = parse(userListQuerySchema, query);
      if (f.organisation && orgs !== null && !orgs.includes(f.organisation)) {
        throw new BadInputError("You manage only your own organisation's members.", {
          field: { organisation: "not one of your organisations" },
        });
      }
      const pageSize = f.limit ?? ADMIN_USERS_LIMIT;
      const page = f.page ?? 1;
      const { items, total } = await repo.list({
        q: f.q,
        tier: f.tier,
        group: f.group,
        status: f.status,
        organisation: f.organisation,
        mfa: f.mfa,
        scopeOrgs: orgs,
        sort: f.sort ?? "name",
        dir: f.dir ?? (f.sort === "created" || f.sort === "lastLogin" ? "desc" : "asc"),
        offset: (page - 1) * pageSize,
        limit: pageSize,
        now: deps.now(),
      });
      return { items, total, page, pageSize, pages: Math.max(1, Math.ceil(total / pageSize)) };
    },

    /** What the list's filter selects offer the caller (an organisation admin: its own only). */
    async filterOptions(actor: Actor): Promise<{
      scopeOrgs: string[] | null;
      groups: string[];
      organisations: { slug: string; name: string }[];
    }> {
      const { orgs } = allow(actor, "users.read");
      let query = db.selectFrom("organization").select(["slug", "name"]).orderBy("name");
      if (orgs !== null)
        query = orgs.length ? query.where("slug", "in", [...orgs]) : query.where(sql<boolean>`1 = 0`);
      const organisations = await query.execute();
      const names = (await db.selectFrom("group").select("name").orderBy("name").execute())
        .map((g) => g.name)
        .filter(isKnownGroup)
        .filter((g) => orgs === null || orgs.includes(orgSlugFromGroup(g) ?? ""));
      return { scopeOrgs: orgs === null ? null : [...orgs], groups: names, organisations };
    },

    /** A user's page. */
    async detail(actor: Actor, userId: string): Promise<AdminUserDetail> {
      const caller = allow(actor, "users.read");
      const target = await loadTarget(caller.orgs, userId);
      const now = deps.now();
      const user = await db
        .selectFrom("user")
        .selectAll()
        .where("id", "=", target.id)
        .executeTakeFirstOrThrow();
      const tier = (await repo.tiersOf([target], now)).get(target.id);
      const locked = (await repo.lockedOf([target.id], now)).has(target.id);
      const slugs = [...new Set(target.groups.map(orgSlugFromGroup).filter((s): s is string => s !== null))];
      const orgRows = slugs.length
        ? await db
            .selectFrom("organization")
            .select(["id", "slug", "name"])
            .where("slug", "in", slugs)
            .execute()
        : [];
      const orgName = new Map(orgRows.map((o) => [o.id, o.name]));
      const subscriptions = await db
        .selectFrom("user_subscription")
        .selectAll()
        .where("userId", "=", target.id)
        .orderBy("createdAt", "desc")
        .limit(50)
        .execute();
      const invoices = await db
        .selectFrom("billing_invoice")
        .select(["id", "number", "status", "amountCents", "currency", "description", "createdAt", "paidAt"])
        .where("userId", "=", target.id)
        .orderBy("createdAt", "desc")
        .limit(20)
        .execute();
      const sessions = (
        await db
          .selectFrom("session")
          .select(["id", "createdAt", "issuedAt", "lastActiveAt", "expiresAt", "ipAddress", "userAgent"])
          .where("userId", "=", target.id)
          .execute()
      )
        .filter((s) => Date.parse(iso(s.expiresAt)) > now)
        .map((s) => {
          const created = s.issuedAt ? Number(s.issuedAt) : Date.parse(iso(s.createdAt));
          return {
            id: s.id,
            createdAt: iso(created),
            lastActiveAt: iso(s.lastActiveAt ? Number(s.lastActiveAt) : created),
            expiresAt: iso(s.expiresAt),
            ipAddress: s.ipAddress,
            userAgent: s.userAgent,
          };
        })
        .sort((a, b) => b.lastActiveAt.localeCompare(a.lastActiveAt));
      const keys = [`acct:${target.id}`, `name:email:${user.email.toLowerCase()}`];
      if (user.username) keys.push(`name:username:${user.username.toLowerCase()}`);
      const throttles = await db.selectFrom("login_throttle").selectAll().where("key", "in", keys).execute();
      const lockedUntil = throttles
        .map((t) => (t.lockedUntil !== null ? Number(t.lockedUntil) : 0))
        .filter((t) => t > now)
        .sort((a, b) => b - a)[0];
      const lockoutEvents = await db
        .selectFrom("audit_log")
        .select(["at", "action", "ip", "details"])
        .where("actorId", "=", target.id)
        .where("action", "in", LOCKOUT_ACTIONS)
        .orderBy("at", "desc")
        .limit(20)
        .execute();
      const events = await db
        .selectFrom("audit_log")
        .select(["id", "at", "action", "actorId", "ip", "details"])
        .where((eb) =>
          eb.or([
            eb("actorId", "=", target.id),
            eb.and([eb("targetType", "=", "user"), eb("targetId", "=", target.id)]),
          ]),
        )
        .orderBy("at", "desc")
        .limit(30)
        .execute();
      const factors = await db
        .selectFrom("twoFactor")
        .select("verified")
        .where("userId", "=", target.id)
        .execute();
      const apiKeys = await db
        .selectFrom("api_key")
        .select(["id", "name", "prefix", "scopes", "createdAt", "expiresAt", "lastUsedAt", "revokedAt"])
        .where("userId", "=", target.id)
        .orderBy("createdAt", "desc")
        .limit(50)
        .execute();
      const parseDetails = (value: string | null): Record<string, unknown> | null => {
        if (!value) return null;
        try {
          const parsed = JSON.parse(value);
          return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
        } catch {
          return null;
        }
      };
      const parseScopes = (value: string): string[] => {
        try {
          const parsed = JSON.parse(value);
          return Array.isArray(parsed) ? parsed.map(String) : [];
        } catch {
          return [];
        }
      };
      const canManage =
        adminAccess("users.manage", actor.access).kind === "allowed" &&
        canManageAccount({ userId: caller.actorId, groups: caller.groups }, target, false).ok;
      const canDelete = adminAccess("users.delete", actor.access).kind === "allowed" && canManage;
      const groupsAllowed = adminAccess("users.groups", actor.access).kind === "allowed";
      const { addGroups, removeGroups } = groupsAllowed
        ? await grantable(caller, target)
        : { addGroups: [], removeGroups: [] };
      return {
        profile: {
          id: user.id,
          name: user.name,
          displayName: user.displayName,
          email: user.email,
          emailVerified: toBool(user.emailVerified),
          username: user.username,
          phoneNumber: user.phoneNumber,
          accountType: user.accountType,
          createdAt: iso(user.createdAt),
          lastLoginAt: user.lastLoginAt ? iso(user.lastLoginAt) : null,
          isActive: toBool(user.isActive),
        },
        status: repo.statusOf(user, locked),
        tier: tier?.tier ?? null,
        tierSource: tier?.subscriptionId
          ? { kind: "subscription", subscriptionId: tier.subscriptionId }
          : tier?.fromGroups && tier.tier
            ? { kind: "groups" }
            : { kind: "none" },
        groups: target.groups,
        roles: rolesFromGroups(target.groups),
        organisations: orgRows.map((o) => ({
          slug: o.slug,
          name: o.name,
          admin: target.groups.includes(`org-${o.slug}-admin`),
        })),
        subscriptions: subscriptions.map((s) => ({
          id: s.id,
          planId: s.planId,
          tier: s.tier,
          status: s.status,
          source: s.source,
          organisation: s.tenantId ? (orgName.get(s.tenantId) ?? s.tenantId) : null,
          startedAt: s.startedAt,
          periodEnd: s.periodEnd,
          expiresAt: s.expiresAt,
          canceledAt: s.canceledAt,
          createdAt: s.createdAt,
        })),
        invoices: invoices.map((i) => ({ ...i, amountCents: Number(i.amountCents) })),
        sessions,
        lockout: {
          locked: lockedUntil !== undefined,
          lockedUntil: lockedUntil !== undefined ? iso(lockedUntil) : null,
          failures: throttles.reduce((sum, t) => sum + Number(t.failures ?? 0), 0),
          events: lockoutEvents.map((e) => ({
            at: e.at,
            action: e.action,
            ip: e.ip,
            details: parseDetails(e.details),
          })),
        },
        mfa: {
          enabled: toBool(user.twoFactorEnabled),
          verifiedApp: factors.some((f) => toBool(f.verified)),
          pendingStaffRoles: await pendingStaffRolesOf(db, target.id),
        },
        apiKeys: apiKeys.map((k) => ({ ...k, scopes: parseScopes(k.scopes) })),
        securityEvents: events.map((e) => ({ ...e, details: parseDetails(e.details) })),
        can: {
          manage: canManage,
          delete: canDelete,
          plan: adminAccess("subscriptions.manage", actor.access).kind === "allowed",
          addGroups,
          removeGroups,
        },
      };
    },

    /** Unlocks through `accounts.unlock` (the screen's form; REST: POST /api/admin/users/:id/unlock). */
    async unlock(actor: Actor, userId: string, input: unknown, ip: string | null) {
      if (!deps.unlock) throw new Error("unlock is not wired");
      const data = parse(noteOnly, input);
      return deps.unlock(actor, userId, { ip, note: data.note || undefined });
    },

    /** Adds and/or removes groups (core/group-grants.ts decides each one). */
    async changeGroups(actor: Actor, userId: string, input: unknown): Promise<{ groups: string[] }> {
      const caller = allow(actor, "users.groups");
      const target = await loadTarget(caller.orgs, userId);
      const data = parse(groupsSchema, input);
      const add = [...new Set(data.add ?? [])];
      const remove = [...new Set(data.remove ?? [])];
      const both = add.find((g) => remove.includes(g));
      if (both)
        throw new BadInputError(`${both} is both added and removed.`, { field: { remove: "also in add" } });
      let groups = [...target.groups];
      let owners = await ownerCount();
      const me = { userId: caller.actorId, groups: caller.groups };
      for (const [change, list] of [
        ["remove", remove],
        ["add", add],
      ] as const) {
        for (const group of list) {
          const current = { ...target, groups };
          const decision = canChangeGroup(
            target.id === caller.actorId ? { ...me, groups } : me,
            current,
            group,
            change,
            { ownerCount: owners },
          );
          if (!decision.ok) {
            const unknown = !isKnownGroup(group);
            if (unknown || decision.message.startsWith("The user")) {
              throw new BadInputError(decision.message, { field: { [change]: decision.message } });
            }
            throw new ForbiddenError(decision.message);
          }
          groups = change === "add" ? [...groups, group] : groups.filter((g) => g !== group);
          if (group === APP_OWNER_GROUP) owners += change === "add" ? 1 : -1;
        }
      }
      const existing = new Set((await db.selectFrom("group").select("name").execute()).map((g) => g.name));
      const missing = add.find((g) => !existing.has(g));
      if (missing) {
        throw new BadInputError(`There is no group ${missing}.`, { field: { add: `no group ${missing}` } });
      }
      const at = nowIso();
      await inTransaction(db, async (trx) => {
        if (remove.length) {
          await trx
            .deleteFrom("user_group")
            .where("userId", "=", target.id)
            .where("groupName", "in", remove)
            .execute();
        }
        for (const groupName of add) {
          await trx
            .insertInto("user_group")
            .values({ userId: target.id, groupName, createdAt: at })
            .execute();
        }
        if (remove.includes(APP_OWNER_GROUP)) {
          const left = await trx
            .selectFrom("user_group")
            .select("userId")
            .where("groupName", "=", APP_OWNER_GROUP)
            .executeTakeFirst();
          if (!left) throw new ConflictError("The installation's last owner keeps app-owner.");
        }
        await createAuditRepo(trx).append({
          action: "user_groups_changed",
          actorId: caller.actorId,
          targetType: "user",
          targetId: target.id,
          at,
          details: {
            email: target.email,
            added: add,
            removed: remove,
            ...(data.note ? { note: data.note } : {}),
          },
        });
      });
      return { groups: (await repo.groupsOf([target.id])).get(target.id) ?? [] };
    },

    /** Revokes one session, or every session (`sessionId` null). */
    async revokeSessions(
      actor: Actor,
      userId: string,
      sessionId: string | null,
      input: unknown,
    ): Promise<{ revoked: number }> {
      const caller = allow(actor, "users.manage");
      const target = await loadTarget(caller.orgs, userId);
      requireManage(caller, target, true);
      const data = parse(noteOnly, input);
      let query = db.deleteFrom("session").where("userId", "=", target.id);
      if (sessionId !== null) query = query.where("id", "=", sessionId);
      const deleted = Number((await query.executeTakeFirst()).numDeletedRows);
      if (sessionId !== null && deleted === 0)
        throw new AppError("NOT_FOUND", "No such session on this account.");
      await record("user_sessions_revoked", caller.actorId, target, {
        scope: sessionId === null ? "all" : "one",
        ...(sessionId ? { sessionId } : {}),
        count: deleted,
        ...(data.note ? { note: data.note } : {}),
      });
      return { revoked: deleted };
    },

    /** Removes the second factors and signs the user out everywhere; they enrol again. */
    async resetMfa(actor: Actor, userId: string, input: unknown): Promise<{ ok: true }> {
      const caller = allow(actor, "users.manage");
      const target = await loadTarget(caller.orgs, userId);
      requireManage(caller, target, false);
      const data = parse(noteOnly, input);
      let sessions = 0;
      await inTransaction(db, async (trx) => {
        await trx.deleteFrom("twoFactor").where("userId", "=", target.id).execute();
        await trx.deleteFrom("mfa_totp_step").where("userId", "=", target.id).execute();
        await trx
          .updateTable("user")
          .set({ twoFactorEnabled: false, updatedAt: nowIso() })
          .where("id", "=", target.id)
          .execute();
        sessions = Number(
          (await trx.deleteFrom("session").where("userId", "=", target.id).executeTakeFirst()).numDeletedRows,
        );
      });
      await record("user_mfa_reset", caller.actorId, target, {
        sessionsRevoked: sessions,
        ...(data.note ? { note: data.note } : {}),
      });
      return { ok: true };
    },

    /** Revokes one of the user's API keys. */
    async revokeApiKey(actor: Actor, userId: string, keyId: string, input: unknown): Promise<{ ok: true }> {
      const caller = allow(actor, "users.manage");
      const target = await loadTarget(caller.orgs, userId);
      requireManage(caller, target, true);
      const data = parse(noteOnly, input);
      const updated = await db
        .updateTable("api_key")
        .set({ revokedAt: nowIso() })
        .where("id", "=", keyId)
        .where("userId", "=", target.id)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        throw new AppError("NOT_FOUND", "No such active API key on this account.");
      await record("user_api_key_revoked", caller.actorId, target, {
        keyId,
        ...(data.note ? { note: data.note } : {}),
      });
      return { ok: true };
    },

    /** Suspends (sign-in refused, sessions and API keys dead at once) or reinstates an account. */
    async setActive(
      actor: Actor,
      userId: string,
      active: boolean,
      input: unknown,
    ): Promise<{ isActive: boolean }> {
      const caller = allow(actor, "users.manage");
      const target = await loadTarget(caller.orgs, userId);
      requireManage(caller, target, false);
      const data = parse(noteOnly, input);
      let sessions = 0;
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable("user")
          .set({ isActive: active, updatedAt: nowIso() })
          .where("id", "=", target.id)
          .execute();
        if (!active) {
          sessions = Number(
            (await trx.deleteFrom("session").where("userId", "=", target.id).executeTakeFirst())
              .numDeletedRows,
          );
        }
      });
      await record(active ? "user_reinstated" : "user_suspended", caller.actorId, target, {
        ...(active ? {} : { sessionsRevoked: sessions }),
        ...(data.note ? { note: data.note } : {}),
      });
      return { isActive: active };
    },

    /** Deletes the account with its own data (typed confirmation: the user's e-mail). */
    async deleteUser(actor: Actor, userId: string, input: unknown): Promise<{ deleted: true }> {
      const caller = allow(actor, "users.delete");
      const target = await loadTarget(caller.orgs, userId);
      requireManage(caller, target, false);
      const data = parse(deleteSchema, input);
      if (data.confirm.toLowerCase() !== target.email.toLowerCase()) {
        throw new BadInputError("Type the user's e-mail exactly to confirm.", {
          field: { confirm: "does not match the user's e-mail" },
        });
      }
      if (target.groups.includes(APP_OWNER_GROUP) && (await ownerCount()) <= 1) {
        throw new ConflictError("This is the installation's last owner: make someone else owner first.");
      }
      await inTransaction(db, async (trx) => {
        const orgs = createOrganizationsRepo(trx);
        for (const group of target.groups.filter((g) => isOrgGroup(g) && !isOrgAdminGroup(g))) {
          const slug = group.slice(4);
          if (!target.groups.includes(`org-${slug}-admin`)) continue;
          const heir = (await orgs.listMembers(slug)).find((m) => m.isAdmin && m.userId !== target.id);
          if (!heir) {
            throw new ConflictError(
              `This user is the last administrator of the organisation ${slug}: make someone else its administrator first.`,
            );
          }
          const org = await orgs.getBySlug(slug);
          if (org) await orgs.reassignTenantSubscriptions(org.id, target.id, heir.userId);
        }
        await trx.deleteFrom("session").where("userId", "=", target.id).execute();
        await trx.deleteFrom("user_group").where("userId", "=", target.id).execute();
        await trx.deleteFrom("user_subscription").where("userId", "=", target.id).execute();
        await trx.deleteFrom("login_throttle").where("key", "=", `acct:${target.id}`).execute();
        await createEngagementRepo(trx).forgetUserLikes(target.id);
        await trx.deleteFrom("user").where("id", "=", target.id).execute();
        await createAuditRepo(trx).append({
          action: "user_deleted",
          actorId: caller.actorId,
          targetType: "user",
          targetId: target.id,
          at: nowIso(),
          details: {
            email: target.email,
            groups: target.groups,
            platformAdmin: isPlatformAdmin(target.groups),
            ...(data.note ? { note: data.note } : {}),
          },
        });
      });
      for (const ext of ["png", "jpg", "webp"] as const) {
        await deps.storage?.delete(avatarKey(target.id, ext)).catch(() => {});
      }
      return { deleted: true };
    },
  };
}

export type UsersAdminService = ReturnType<typeof createUsersAdminService>;
