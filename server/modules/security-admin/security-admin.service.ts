/**
 * The platform owner's security console (issue 14, /super-admin/security and the /super-admin
 * summary): sessions across the platform (revoke one, revoke all of a user's), current sign-in
 * lockouts (clear), MFA adoption, the password policy the server enforces, recent security events,
 * and the service credentials (create, rotate, revoke; the secret in the answer once).
 *
 * Access: core/admin-scope.ts operations `security.read`, `security.sessions.revoke`,
 * `security.lockouts.clear` and `service-credentials.rotate` (scope `owner`: app-owner only; an
 * app-admin, organisation admins, readers, API keys and service tokens are refused). Every write is
 * audited with the actor (and the admin's note where one is given).
 *
 * Revocation deletes the session rows: every process reads the session row on every request
 * (server/auth/session-guard.ts; no cookie cache), so the next request with a revoked cookie, or
 * an ID token bound to that sign-in, is signed out.
 */
import { type Kysely, sql } from "kysely";
import type { Logger } from "pino";
import { z } from "zod";
import { auditActionLabel, SECURITY_CONSOLE_ACTIONS } from "../../../core/audit-actions.ts";
import {
  type AdminOperationName,
  adminAccess,
  isStaffGroup,
  LOGIN_LOCKOUT_MS,
  LOGIN_MAX_ATTEMPTS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULE_TEXT,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  TOKEN_ROTATION_MS,
} from "../../../core/index.ts";
import { commonPasswords } from "../../auth/password-policy.ts";
import {
  SERVICE_SCOPES,
  type ServiceCredentialInfo,
  type ServiceCredentials,
} from "../../auth/service-credentials.ts";
import { ADDRESS_MAX_ATTEMPTS, COUNT_WINDOW_MS, type LoginThrottle } from "../../auth/throttle.ts";
import { PASSWORD_MAX_LENGTH } from "../../auth/validation.ts";
import type { DB } from "../../db/schema.ts";
import { toBool } from "../../db/values.ts";
import { AppError, badInputFromZod, ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { type AuditDetails, createAuditRepo } from "../audit/audit.repo.ts";
import type { AccountService } from "../users/account.service.ts";

export const SESSIONS_PAGE_SIZE = 25;
const LOCKOUTS_LIMIT = 200;
const EVENTS_LIMIT = 25;
const RECENT_DAYS = 7;
const DAY_MS = 86_400_000;

/** The audit actions shown as "recent security events" (core/audit-actions.ts). */
export const SECURITY_EVENT_ACTIONS = SECURITY_CONSOLE_ACTIONS;

export interface PlatformSession {
  id: string;
  user: { id: string; name: string; email: string };
  createdAt: string;
  lastActiveAt: string;
  /** When the session ends unless used again: the idle time-out or the absolute lifetime, whichever comes first. */
  expiresAt: string;
  ipAddress: string | null;
  /** The user agent summarised ("Firefox on Linux"); the raw one in `userAgent`. */
  device: string;
  userAgent: string | null;
  /** The session the asking owner is using (revoking it signs them out). */
  current: boolean;
}

export interface SessionsPage {
  items: PlatformSession[];
  total: number;
  page: number;
  pageSize: number;
  email: string;
}

export interface Lockout {
  key: string;
  kind: "account" | "login name" | "address";
  /** The account's e-mail, the login name tried, or the client address. */
  subject: string;
  user: { id: string; name: string; email: string } | null;
  /** Failures counted since the lock was set (the counter restarts with each lock). */
  failures: number;
  /** The failures that set the lock. */
  limit: number;
  lockedUntil: string;
  updatedAt: string;
}

export interface MfaAdoption {
  accounts: number;
  withMfa: number;
  /** Whole percent (0 when there are no accounts). */
  percent: number;
  staff: {
    total: number;
    withMfa: number;
    withoutMfa: { id: string; name: string; email: string; groups: string[] }[];
  };
}

export interface PasswordPolicyView {
  minLength: number;
  maxLength: number;
  rules: string[];
  commonPasswords: number;
  hashing: string;
  lockout: {
    accountAttempts: number;
    addressAttempts: number;
    lockoutMinutes: number;
    windowMinutes: number;
  };
  sessions: { idleMinutes: number; absoluteHours: number; rotationHours: number };
  staffMfa: string;
}

export interface SecurityEvent {
  id: string;
  at: string;
  action: string;
  label: string;
  actor: { id: string; email: string | null } | null;
  target: { type: string | null; id: string | null; email: string | null };
  ip: string | null;
  note: string | null;
  /** A few words from the details ("no such account", "2 sessions", "scope: account"). */
  summary: string | null;
}

export interface CredentialView extends ServiceCredentialInfo {
  createdByEmail: string | null;
}

export interface SecurityOverview {
  sessions: { active: number; users: number };
  lockouts: number;
  /** The current locks (at most 200). */
  lockoutList: Lockout[];
  mfa: MfaAdoption;
  policy: PasswordPolicyView;
  events: SecurityEvent[];
  /** Security events in the last 7 days, and sign-in failures among them. */
  recent: { events: number; signInFailures: number; days: number };
  credentials: { active: number };
  /** Setting changes (system-config) in the last 7 days. */
  settingChanges: number;
}

export interface SecurityAdminDeps {
  db: Kysely<DB>;
  now: () => number;
  throttle: Pick<LoginThrottle, "clearKey">;
  accounts: Pick<AccountService, "unlock">;
  serviceCredentials: ServiceCredentials;
  logger?: Logger;
}

type Meta = { ip: string | null };

const notFound = (message: string) => new AppError("NOT_FOUND", message);
const iso = (ms: number) => new Date(ms).toISOString();
const epochOf = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  const n = Number(value);
  if (Number.isFinite(n)) return n;
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : parsed;
};
const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A few readable words from an event's details (never the whole object). */
function summaryOf(details: Record<string, unknown>): string | null {
  const parts: string[] = [];
  if (details.known === false) parts.push("no such account");
  if (typeof details.scope === "string" && details.scope !== "one") parts.push(`scope: ${details.scope}`);
  if (Array.isArray(details.scope)) parts.push(`locked: ${details.scope.join(", ")}`);
  if (typeof details.count === "number")
    parts.push(`${details.count} session${details.count === 1 ? "" : "s"}`);
  if (typeof details.kind === "string" && details.kind !== "id" && details.kind !== "service")
    parts.push(details.kind);
  return parts.length ? parts.join(", ") : null;
}

/** "Firefox on Linux", "Safari on iOS", "curl": enough to recognise a device, never a fingerprint. */
export function summariseUserAgent(ua: string | null | undefined): string {
  if (!ua) return "Unknown device";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /^curl\//i.test(ua)
              ? "curl"
              : /node|undici/i.test(ua)
                ? "Node.js"
                : null;
  const os = /iPhone|iPad|iPod/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /CrOS/.test(ua)
            ? "ChromeOS"
            : /Linux/.test(ua)
              ? "Linux"
              : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? (ua.length > 40 ? `${ua.slice(0, 40)}…` : ua);
}

const note = z.string().trim().max(500, "at most 500 characters").optional();
const nameSchema = z
  .string({ message: "expected a name" })
  .trim()
  .min(1, "a name is required")
  .max(100, "at most 100 characters")
  .refine(
    (v) => ![...v].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
    "no control characters",
  );
const createSchema = z.strictObject({
  name: nameSchema,
  scopes: z
    .array(z.enum(SERVICE_SCOPES, { message: `expected one of ${SERVICE_SCOPES.join(", ")}` }), {
      message: "expected a list",
    })
    .min(1, "choose at least one scope")
    .max(SERVICE_SCOPES.length)
    .transform((list) => [...new Set(list)]),
});
export const noteBody = z.strictObject({ note });
export const clearBody = z.strictObject({
  key: z
    .string({ message: "expected a lock key" })
    .trim()
    .min(5, "expected a lock key")
    .max(400, "at most 400 characters")
    .regex(/^(acct|name|ip):./, "expected a key starting acct:, name: or ip:"),
  note,
});
export const sessionsQuery = z.strictObject({
  email: z.string().trim().max(320, "at most 320 characters").optional(),
  page: z.coerce
    .number({ message: "expected a page number" })
    .int("expected a whole number")
    .min(1)
    .max(100_000)
    .optional(),
});

const invalid = (error: z.ZodError) =>
  badInputFromZod(error, { fallback: "body", message: (field, problem) => `Invalid ${field}: ${problem}` });

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** The platform owner acting (throws 401/403 otherwise): API keys and service tokens are refused. */
export function requireSecurityAdmin(actor: Actor, operation: AdminOperationName = "security.read"): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in first.");
  if (actor.kind !== "user" || !actor.userId) {
    throw new ForbiddenError(
      "The security console is for the signed-in platform owner; API keys and service tokens are refused.",
    );
  }
  const decision = adminAccess(operation, actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  return actor.userId;
}

export function createSecurityAdminService(deps: SecurityAdminDeps) {
  const { db, now } = deps;
  const auditRepo = createAuditRepo(db);

  const audit = (
    action: string,
    actorId: string,
    meta: Meta,
    target: { type: string; id: string },
    details: Record<string, unknown>,
  ) =>
    auditRepo.append({
      action,
      at: new Date(now()),
      actorId,
      ip: meta.ip,
      targetType: target.type,
      targetId: target.id,
      details: Object.fromEntries(
        Object.entries(details).filter(([, v]) => v !== undefined && v !== ""),
      ) as AuditDetails,
    });

  /** Sessions the guard would still accept: inside the absolute lifetime and the idle time-out. */
  function activeSessions(t: number) {
    return db
      .selectFrom("session as s")
      .innerJoin("user as u", "u.id", "s.userId")
      .where("s.issuedAt", ">", t - SESSION_ABSOLUTE_MS)
      .where(sql<number>`coalesce(s."lastActiveAt", s."issuedAt")`, ">", t - SESSION_IDLE_MS);
  }

  async function usersById(ids: readonly string[]) {
    const unique = [...new Set(ids.filter(Boolean))];
    if (unique.length === 0) return new Map<string, { id: string; name: string; email: string }>();
    const rows = await db
      .selectFrom("user")
      .select(["id", "name", "email"])
      .where("id", "in", unique)
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  async function listSessions(actor: Actor, query: Record<string, unknown> = {}): Promise<SessionsPage> {
    requireSecurityAdmin(actor);
    const q = parse(sessionsQuery, query);
    const page = q.page ?? 1;
    const email = q.email ?? "";
    const t = now();
    let base = activeSessions(t);
    if (email) {
      const pattern = `%${likeEscape(email.toLowerCase())}%`;
      base = base.where(sql<string>`lower(u.email)`, "like", sql<string>`${pattern} escape '\\'`);
    }
    const [countRow, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
      base
        .select([
          "s.id",
          "s.userId",
          "s.issuedAt",
          "s.lastActiveAt",
          "s.createdAt",
          "s.ipAddress",
          "s.userAgent",
          "u.name",
          "u.email",
        ])
        .orderBy(sql`coalesce(s."lastActiveAt", s."issuedAt")`, "desc")
        .orderBy("s.id", "desc")
        .limit(SESSIONS_PAGE_SIZE)
        .offset((page - 1) * SESSIONS_PAGE_SIZE)
        .execute(),
    ]);
    return {
      items: rows.map((r) => {
        const issued = epochOf(r.issuedAt) ?? epochOf(r.createdAt) ?? t;
        const last = epochOf(r.lastActiveAt) ?? issued;
        return {
          id: r.id,
          user: { id: r.userId, name: r.name, email: r.email },
          createdAt: iso(issued),
          lastActiveAt: iso(last),
          expiresAt: iso(Math.min(issued + SESSION_ABSOLUTE_MS, last + SESSION_IDLE_MS)),
          ipAddress: r.ipAddress,
          device: summariseUserAgent(r.userAgent),
          userAgent: r.userAgent,
          current: r.id === (actor.context.session?.sessionId ?? null),
        };
      }),
      total: Number(countRow?.n ?? 0),
      page,
      pageSize: SESSIONS_PAGE_SIZE,
      email,
    };
  }

  async function listLockouts(actor: Actor): Promise<Lockout[]> {
    requireSecurityAdmin(actor);
    const t = now();
    const rows = await db
      .selectFrom("login_throttle")
      .select(["key", "failures", "lockedUntil", "updatedAt"])
      .where("lockedUntil", ">", t)
      .orderBy("lockedUntil", "desc")
      .limit(LOCKOUTS_LIMIT)
      .execute();
    const accountIds = rows.filter((r) => r.key.startsWith("acct:")).map((r) => r.key.slice(5));
    const users = await usersById(accountIds);
    return rows.map((r) => {
      const [prefix] = r.key.split(":", 1);
      const rest = r.key.slice((prefix?.length ?? 0) + 1);
      const user = prefix === "acct" ? (users.get(rest) ?? null) : null;
      return {
        key: r.key,
        kind: prefix === "acct" ? "account" : prefix === "ip" ? "address" : "login name",
        // name: keys are `name:<column>:<identifier>` (email:…, username:…): the identifier tried.
        subject:
          prefix === "acct"
            ? (user?.email ?? `deleted account ${rest}`)
            : prefix === "name"
              ? rest.replace(/^[A-Za-z]+:/, "")
              : rest,
        user,
        failures: Number(r.failures ?? 0),
        limit: prefix === "ip" ? ADDRESS_MAX_ATTEMPTS : LOGIN_MAX_ATTEMPTS,
        lockedUntil: iso(Number(r.lockedUntil)),
        updatedAt: iso(Number(r.updatedAt)),
      };
    });
  }

  async function mfaAdoption(actor: Actor): Promise<MfaAdoption> {
    requireSecurityAdmin(actor);
    const counts = await db
      .selectFrom("user")
      .select((eb) => [
        eb.fn.countAll<number>().as("accounts"),
        eb.fn
          .sum<number>(sql`case when ${sql.ref("twoFactorEnabled")} = ${true} then 1 else 0 end`)
          .as("withMfa"),
      ])
      .where("isActive", "=", true)
      .executeTakeFirst();
    const accounts = Number(counts?.accounts ?? 0);
    const withMfa = Number(counts?.withMfa ?? 0);
    // Staff groups are few: find them by name, then their members (never a scan of every membership).
    const groupNames = (await db.selectFrom("user_group").select("groupName").distinct().execute())
      .map((g) => g.groupName)
      .filter(isStaffGroup);
    const staffRows = groupNames.length
      ? await db
          .selectFrom("user_group as g")
          .innerJoin("user as u", "u.id", "g.userId")
          .select(["u.id", "u.name", "u.email", "u.twoFactorEnabled", "g.groupName"])
          .where("g.groupName", "in", groupNames)
          .where("u.isActive", "=", true)
          .execute()
      : [];
    const staff = new Map<
      string,
      { id: string; name: string; email: string; groups: string[]; mfa: boolean }
    >();
    for (const r of staffRows) {
      const entry = staff.get(r.id) ?? {
        id: r.id,
        name: r.name,
        email: r.email,
        groups: [],
        mfa: toBool(r.twoFactorEnabled),
      };
      entry.groups.push(r.groupName);
      staff.set(r.id, entry);
    }
    const people = [...staff.values()];
    return {
      accounts,
      withMfa,
      percent: accounts ? Math.round((withMfa / accounts) * 100) : 0,
      staff: {
        total: people.length,
        withMfa: people.filter((p) => p.mfa).length,
        withoutMfa: people
          .filter((p) => !p.mfa)
          .map(({ id, name, email, groups }) => ({ id, name, email, groups: groups.sort() }))
          .sort((a, b) => a.email.localeCompare(b.email)),
      },
    };
  }

  async function passwordPolicy(): Promise<PasswordPolicyView> {
    return {
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      rules: Object.values(PASSWORD_RULE_TEXT),
      commonPasswords: (await commonPasswords()).size,
      hashing: "scrypt (N = 2^17, r = 8, p = 1), 16-byte salt, compared in constant time",
      lockout: {
        accountAttempts: LOGIN_MAX_ATTEMPTS,
        addressAttempts: ADDRESS_MAX_ATTEMPTS,
        lockoutMinutes: LOGIN_LOCKOUT_MS / 60_000,
        windowMinutes: COUNT_WINDOW_MS / 60_000,
      },
      sessions: {
        idleMinutes: SESSION_IDLE_MS / 60_000,
        absoluteHours: SESSION_ABSOLUTE_MS / 3_600_000,
        rotationHours: TOKEN_ROTATION_MS / 3_600_000,
      },
      staffMfa:
        "Staff rights (admins, the owner, managers, editors, writers) apply only once an authenticator app is enrolled.",
    };
  }

  async function recentEvents(actor: Actor, limit = EVENTS_LIMIT): Promise<SecurityEvent[]> {
    requireSecurityAdmin(actor);
    const rows = await db
      .selectFrom("audit_log")
      .select(["id", "at", "action", "actorId", "targetType", "targetId", "ip", "details"])
      .where("action", "in", [...SECURITY_EVENT_ACTIONS])
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    const users = await usersById([
      ...rows.map((r) => r.actorId ?? ""),
      ...rows.filter((r) => r.targetType === "user").map((r) => r.targetId ?? ""),
    ]);
    return rows.map((r) => {
      let details: Record<string, unknown> = {};
      try {
        details = r.details ? (JSON.parse(String(r.details)) as Record<string, unknown>) : {};
      } catch {
        details = {};
      }
      return {
        id: r.id,
        at: String(r.at),
        action: r.action,
        label: auditActionLabel(r.action),
        actor: r.actorId ? { id: r.actorId, email: users.get(r.actorId)?.email ?? null } : null,
        target: {
          type: r.targetType,
          id: r.targetId,
          email: r.targetType === "user" && r.targetId ? (users.get(r.targetId)?.email ?? null) : null,
        },
        ip: r.ip,
        note: typeof details.note === "string" ? details.note : null,
        summary: summaryOf(details),
      };
    });
  }

  async function listCredentials(actor: Actor): Promise<CredentialView[]> {
    requireSecurityAdmin(actor);
    const list = await deps.serviceCredentials.list(actor);
    const users = await usersById(list.map((c) => c.createdBy ?? ""));
    return list.map((c) => ({
      ...c,
      createdByEmail: c.createdBy ? (users.get(c.createdBy)?.email ?? null) : null,
    }));
  }

  return {
    listSessions,
    listLockouts,
    mfaAdoption,
    passwordPolicy,
    recentEvents,
    listCredentials,

    /** Everything the console shows above the sessions table, in one read. */
    async overview(actor: Actor): Promise<SecurityOverview> {
      requireSecurityAdmin(actor);
      const t = now();
      const since = iso(t - RECENT_DAYS * DAY_MS);
      const [sessions, lockouts, mfa, policy, events, recent, credentials, settings] = await Promise.all([
        activeSessions(t)
          .select((eb) => [
            eb.fn.countAll<number>().as("active"),
            eb.fn.count<number>("s.userId").distinct().as("users"),
          ])
          .executeTakeFirst(),
        listLockouts(actor),
        mfaAdoption(actor),
        passwordPolicy(),
        recentEvents(actor),
        db
          .selectFrom("audit_log")
          .select((eb) => [
            eb.fn.countAll<number>().as("events"),
            eb.fn
              .sum<number>(sql`case when ${sql.ref("action")} = ${"sign_in_failure"} then 1 else 0 end`)
              .as("failures"),
          ])
          .where("action", "in", [...SECURITY_EVENT_ACTIONS])
          .where("at", ">=", since)
          .executeTakeFirst(),
        db
          .selectFrom("service_credential")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("revokedAt", "is", null)
          .executeTakeFirst(),
        db
          .selectFrom("audit_log")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("action", "=", "setting_changed")
          .where("at", ">=", since)
          .executeTakeFirst(),
      ]);
      return {
        sessions: { active: Number(sessions?.active ?? 0), users: Number(sessions?.users ?? 0) },
        lockouts: lockouts.length,
        lockoutList: lockouts,
        mfa,
        policy,
        events,
        recent: {
          events: Number(recent?.events ?? 0),
          signInFailures: Number(recent?.failures ?? 0),
          days: RECENT_DAYS,
        },
        credentials: { active: Number(credentials?.n ?? 0) },
        settingChanges: Number(settings?.n ?? 0),
      };
    },

    /** Revokes one session (and its sign-in family): the next request with it is signed out. */
    async revokeSession(
      actor: Actor,
      sessionId: string,
      body: unknown,
      meta: Meta,
    ): Promise<{ userId: string }> {
      const actorId = requireSecurityAdmin(actor, "security.sessions.revoke");
      const input = parse(noteBody, body);
      const row = sessionId
        ? await db
            .selectFrom("session")
            .select(["id", "userId", "familyId"])
            .where("id", "=", sessionId)
            .executeTakeFirst()
        : undefined;
      if (!row) throw notFound("No such session: it may have ended already.");
      await db
        .deleteFrom("session")
        .where((eb) =>
          row.familyId
            ? eb.or([eb("id", "=", row.id), eb("familyId", "=", row.familyId)])
            : eb("id", "=", row.id),
        )
        .execute();
      await audit(
        "admin_session_revoked",
        actorId,
        meta,
        { type: "user", id: row.userId },
        {
          sessionId: row.id,
          scope: "one",
          note: input.note,
        },
      );
      return { userId: row.userId };
    },

    /** Revokes every session of a user. */
    async revokeUserSessions(
      actor: Actor,
      userId: string,
      body: unknown,
      meta: Meta,
    ): Promise<{ userId: string; revoked: number }> {
      const actorId = requireSecurityAdmin(actor, "security.sessions.revoke");
      const input = parse(noteBody, body);
      const user = userId
        ? await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst()
        : undefined;
      if (!user) throw notFound("No such user.");
      const deleted = await db.deleteFrom("session").where("userId", "=", user.id).executeTakeFirst();
      const revoked = Number(deleted.numDeletedRows);
      await audit(
        "admin_session_revoked",
        actorId,
        meta,
        { type: "user", id: user.id },
        {
          scope: "all",
          count: revoked,
          note: input.note,
        },
      );
      return { userId: user.id, revoked };
    },

    /**
     * Clears a sign-in lock. An account's lock goes through the account service's unlock
     * (`admin_unlock`); a login name's or an address's is cleared here (`admin_lockout_cleared`).
     */
    async clearLockout(actor: Actor, body: unknown, meta: Meta): Promise<{ key: string; cleared: boolean }> {
      const actorId = requireSecurityAdmin(actor, "security.lockouts.clear");
      const input = parse(clearBody, body);
      const { key } = input;
      if (key.startsWith("acct:")) {
        const userId = key.slice(5);
        const exists = await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst();
        if (exists) {
          const result = await deps.accounts.unlock(actor, userId, { ip: meta.ip, note: input.note });
          if (!result.unlocked) throw notFound("This account is not locked.");
          return { key, cleared: true };
        }
      }
      const cleared = await deps.throttle.clearKey(key);
      if (!cleared) throw notFound("No sign-in lock or counter with this key.");
      const kind = key.startsWith("ip:") ? "address" : key.startsWith("name:") ? "login name" : "account";
      await audit(
        "admin_lockout_cleared",
        actorId,
        meta,
        { type: "login_throttle", id: key },
        { kind, note: input.note },
      );
      return { key, cleared };
    },

    /** Creates a service credential (the secret is in this answer only). */
    async createCredential(actor: Actor, body: unknown, meta: Meta) {
      requireSecurityAdmin(actor);
      const actorId = requireSecurityAdmin(actor, "service-credentials.create");
      const input = parse(createSchema, body);
      const created = await deps.serviceCredentials.create(actor, input);
      await audit(
        "service_credential_created",
        actorId,
        meta,
        { type: "service_credential", id: created.id },
        {
          clientId: created.clientId,
          scopes: created.scopes,
        },
      );
      return created;
    },

    /** A new secret for an active credential: the old one and its tokens stop working at once. */
    async rotateCredential(actor: Actor, id: string, meta: Meta) {
      const actorId = requireSecurityAdmin(actor, "service-credentials.rotate");
      const rotated = await deps.serviceCredentials.rotate(actor, /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : "");
      if (!rotated) throw notFound("No such active service credential.");
      await audit(
        "service_credential_rotated",
        actorId,
        meta,
        { type: "service_credential", id: rotated.id },
        {
          clientId: rotated.clientId,
        },
      );
      return rotated;
    },

    /** Revokes a credential: its secret and every token issued from it stop working. */
    async revokeCredential(actor: Actor, id: string, meta: Meta): Promise<void> {
      requireSecurityAdmin(actor);
      const actorId = requireSecurityAdmin(actor, "service-credentials.revoke");
      const ok = await deps.serviceCredentials.revoke(actor, /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : "");
      if (!ok) throw notFound("No such active service credential.");
      await audit("service_credential_revoked", actorId, meta, { type: "service_credential", id }, {});
    },
  };
}

export type SecurityAdminService = ReturnType<typeof createSecurityAdminService>;
