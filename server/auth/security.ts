/**
 * The identity security parts shared by Better Auth's hooks, the session checks and the
 * account/admin REST handlers, all on one database and one clock.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { DB } from "../db/schema.ts";
import type { Mailer, SmsSender } from "../mail/mailer.ts";
import type { AuthSecurity } from "./auth.ts";
import type { SessionCache } from "./identity-cache.ts";
import { createSecurityAudit, type SecurityAction } from "./security-audit.ts";
import { createSessionGuard, type SessionRow } from "./session-guard.ts";
import { createLoginThrottle } from "./throttle.ts";

export interface AuthSecurityOptions {
  db: Kysely<DB>;
  mailer: Mailer;
  /** SMS codes (phone verification, second factor); without it SMS codes are refused. */
  sms?: SmsSender;
  secret: string;
  secureCookies: boolean;
  /** epoch ms; tests inject a controllable clock */
  now?: () => number;
  logger?: Logger;
  /** Session rows reused for a couple of seconds by the session guard (decision 023). */
  cache?: SessionCache<SessionRow>;
  /** Sees every security event as it is recorded (metrics); must not throw. */
  onSecurityEvent?: (action: SecurityAction) => void;
}

export function createAuthSecurity(options: AuthSecurityOptions): AuthSecurity {
  const now = options.now ?? Date.now;
  const audit = createSecurityAudit(options.db, now, options.logger, options.onSecurityEvent);
  return {
    db: options.db,
    mailer: options.mailer,
    sms: options.sms ?? null,
    now,
    audit,
    logger: options.logger,
    throttle: createLoginThrottle(options.db, now),
    guard: createSessionGuard({
      db: options.db,
      secret: options.secret,
      secureCookies: options.secureCookies,
      now,
      audit,
      cache: options.cache,
    }),
  };
}
