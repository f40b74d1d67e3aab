/**
 * Account operations behind the identity REST handlers and the auth proxy (SECURITY.md §7–8):
 *
 * - the caller's sessions: list, revoke one, revoke all (audited as `session_revoked`);
 * - an admin unlocking an account after lockouts (permission user:manage; an organisation admin
 *   only its organisations' members, core `adminAccess`; audited as `admin_unlock`);
 * - the e-mail behind a username or a verified phone number (sign-in and confirmation codes);
 * - the user a session token belongs to (rate limits), the claims of a signed-in user (ID tokens,
 *   the security level) and the audit of credential events (tokens issued, API keys and service credentials created or revoked).
 *
 * Refusals are errors of the family (`server/errors.ts`); no token ever leaves these operations.
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { adminAccess, type Claims } from "../../../core/index.ts";
import { claimsForUser, type IdentityUser } from "../../auth/identity.ts";
import type { SecurityAudit } from "../../auth/security-audit.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import { type Actor, requireUser } from "../actor.ts";
import { type AuditDetails, createAuditRepo } from "../audit/audit.repo.ts";

export interface AccountServiceDeps {
  db: Kysely<DB>;
  now: () => number;
  audit: SecurityAudit;
  /** Clears an account's lockout; true when it was locked. */
  unlockAccount(userId: string): Promise<boolean>;
  logger?: Logger;
}

/** One of the caller's sessions, as the account screen lists it (never its token). */
export interface SessionInfo {
  id: string;
  createdAt: string;
  lastActiveAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  current: boolean;
}

/** The caller's own sessions: the signed-in user and the session the request came with (if any). */
function sessionOwner(actor: Actor): { userId: string; currentSessionId: string | null } {
  return { userId: requireUser(actor), currentSessionId: actor.context.session?.sessionId ?? null };
}

const iso = (ms: number) => new Date(ms).toISOString();

const epochOf = (value: unknown, fallback: number): number => {
  if (value === null || value === undefined) return fallback;
  if (value instanceof Date) return value.getTime();
  const n = Number(value);
  if (Number.isFinite(n)) return n;
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? fallback : parsed;
};

/** The address an unknown login name signs in as: no account has it, so the answer and cost match. */
const noAccountEmail = () => `no-account-${randomBytes(16).toString("hex")}@invalid.local`;

export function createAccountService(deps: AccountServiceDeps) {
  const { db, audit } = deps;
  const auditRepo = createAuditRepo(db);

  return {
    /** The caller's sessions (own rows only), most recently active first. */
    async listSessions(actor: Actor): Promise<SessionInfo[]> {
      const owner = sessionOwner(actor);
      const rows = await db
        .selectFrom("session")
        .select(["id", "createdAt", "issuedAt", "lastActiveAt", "ipAddress", "userAgent"])
        .where("userId", "=", owner.userId)
        .execute();
      return rows
        .map((r) => {
          const createdAt = epochOf(r.issuedAt, epochOf(r.createdAt, 0));
          return {
            id: r.id,
            createdAt: iso(createdAt),
            lastActiveAt: iso(epochOf(r.lastActiveAt, createdAt)),
            ipAddress: r.ipAddress,
            userAgent: r.userAgent,
            current: r.id === owner.currentSessionId,
          };
        })
        .sort((a, b) => b.lastActiveAt.localeCompare(a.lastActiveAt));
    },

    /** Revokes one of the caller's own sessions; NOT_FOUND for any other id. */
    async revokeSession(actor: Actor, sessionId: string, meta: { ip: string | null }): Promise<void> {
      const owner = sessionOwner(actor);
      const deleted = await db
        .deleteFrom("session")
        .where("id", "=", sessionId)
        .where("userId", "=", owner.userId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) {
        throw new AppError("NOT_FOUND", "No such session on your account.");
      }
      await audit.record("session_revoked", {
        actorId: owner.userId,
        ip: meta.ip,
        targetType: "session",
        targetId: sessionId,
        details: { scope: sessionId === owner.currentSessionId ? "current" : "one" },
      });
    },

    /** Revokes every session of the caller, the current one included. */
    async revokeAllSessions(actor: Actor, meta: { ip: string | null }): Promise<void> {
      const owner = sessionOwner(actor);
      const deleted = await db.deleteFrom("session").where("userId", "=", owner.userId).executeTakeFirst();
      await audit.record("session_revoked", {
        actorId: owner.userId,
        ip: meta.ip,
        targetType: "user",
        targetId: owner.userId,
        details: { scope: "all", count: Number(deleted.numDeletedRows) },
      });
    },

    /**
     * Clears the lockout of `userId` (admin operation `users.unlock`). 401 for nobody, 403 without
     * the permission; an organisation admin reaches only members of its organisations, and anyone
     * else (like an unknown id) is NOT_FOUND "No such user.".
     */
    async unlock(
      actor: Actor,
      userId: string,
      meta: { ip: string | null; note?: string },
    ): Promise<{ userId: string; unlocked: boolean }> {
      if (actor.kind !== "user" || !actor.userId) throw new UnauthenticatedError("Sign in first.");
      const decision = adminAccess("users.unlock", actor.access);
      if (decision.kind === "denied") {
        throw decision.reason === "auth"
          ? new UnauthenticatedError(decision.message)
          : new ForbiddenError(decision.message);
      }
      const noSuchUser = () => new AppError("NOT_FOUND", "No such user.");
      const user = await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst();
      if (!user) throw noSuchUser();
      // Organisation admins hold Admin (spec §6) but manage only their own organisation's members.
      const scope = decision.orgs;
      if (scope !== null) {
        const member = scope.length
          ? await db
              .selectFrom("user_group")
              .select("userId")
              .where("userId", "=", userId)
              .where(
                "groupName",
                "in",
                scope.map((slug) => `org-${slug}`),
              )
              .executeTakeFirst()
          : undefined;
        if (!member) throw noSuchUser();
      }
      const unlocked = await deps.unlockAccount(userId);
      await audit.record("admin_unlock", {
        actorId: actor.userId,
        ip: meta.ip,
        targetType: "user",
        targetId: userId,
        details: { wasLocked: unlocked, ...(meta.note ? { note: meta.note } : {}) },
      });
      return { userId, unlocked };
    },

    /**
     * The e-mail of the account with this username; for an unknown one, an address no account has
     * (so the code endpoints answer and cost the same).
     */
    async emailForUsername(username: string): Promise<string> {
      const owner = await db
        .selectFrom("user")
        .select("email")
        .where("username", "=", username.trim().toLowerCase())
        .executeTakeFirst();
      return owner?.email ?? noAccountEmail();
    },

    /** The e-mail of the account with this verified phone number (spaces and punctuation ignored); see above. */
    async emailForVerifiedPhone(phoneNumber: string): Promise<string> {
      const owner = await db
        .selectFrom("user")
        .select("email")
        .where("phoneNumber", "=", phoneNumber.replace(/[ ()-]/g, ""))
        .where("phoneNumberVerified", "=", true)
        .executeTakeFirst();
      return owner?.email ?? noAccountEmail();
    },

    /** The user a session token belongs to (no session rules applied: rate limits only count). */
    async sessionUserId(token: string): Promise<string | null> {
      const row = await db
        .selectFrom("session")
        .select("userId")
        .where("token", "=", token)
        .executeTakeFirst();
      return row?.userId ?? null;
    },

    /** The current claims of a signed-in user (groups, tier, roles), as identity builds them. */
    claims(user: IdentityUser): Promise<Claims> {
      return claimsForUser(db, user, new Date(deps.now()));
    },

    /**
     * Audits a credential event (token issued, API key or service credential created or revoked).
     * Never a key, secret or token: ids and scopes only. A failed write is logged, never fails.
     */
    async recordCredentialEvent(
      action: string,
      event: {
        actorId: string | null;
        ip: string | null;
        targetType: string;
        targetId: string;
        details?: AuditDetails;
      },
    ): Promise<void> {
      try {
        await auditRepo.append({ action, at: new Date(deps.now()), ...event });
      } catch (error) {
        deps.logger?.error({ err: error, action }, "audit write failed");
      }
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
