/**
 * Security events for the audit log (SECURITY.md §19): UTC time from the runtime clock, actor,
 * client address and small details. Never secrets, tokens, codes or password hashes: callers pass
 * ids and reasons only. A failed write is logged, never fails the request.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { DB } from "../db/schema.ts";
import { type AuditDetails, createAuditRepo } from "../modules/audit/audit.repo.ts";

export type SecurityAction =
  | "sign_up"
  | "sign_in"
  | "sign_in_failure"
  | "password_check_failure"
  | "lockout"
  | "sign_out"
  | "password_change"
  | "password_reset"
  | "session_revoked"
  | "session_expired"
  | "device_mismatch"
  | "admin_unlock"
  | "mfa_enabled"
  | "mfa_disabled"
  | "mfa_failure"
  | "backup_code_used"
  | "backup_codes_regenerated"
  | "phone_verified";

export interface SecurityEvent {
  actorId?: string | null;
  ip?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  details?: AuditDetails | null;
}

/**
 * `onRecord` sees every action as it is recorded (the process's metrics count the failures);
 * it must not throw.
 */
export function createSecurityAudit(
  db: Kysely<DB>,
  now: () => number,
  logger?: Logger,
  onRecord?: (action: SecurityAction) => void,
) {
  const repo = createAuditRepo(db);
  return {
    async record(action: SecurityAction, event: SecurityEvent = {}): Promise<void> {
      onRecord?.(action);
      try {
        await repo.append({ action, at: new Date(now()), ...event });
      } catch (error) {
        logger?.error({ err: error, action }, "audit write failed");
      }
    },
  };
}

export type SecurityAudit = ReturnType<typeof createSecurityAudit>;
