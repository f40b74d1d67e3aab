/**
 * New passwords set outside the settings page (reset by e-mailed code, and the routes that are
 * off today): the password policy before, the audit row after a reset. Sign-up and the password
 * change apply the policy in their own hooks.
 */
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { enforcePasswordPolicy, PASSWORD_SETTING_PATHS } from "../password-policy.ts";
import type { SecurityAudit } from "../security-audit.ts";
import { type AuthHookContext, bodyOf, ipOf, str } from "./context.ts";
import { forPaths, type HookTable } from "./registry.ts";
import { SIGN_UP_PATH } from "./sign-up.ts";

const OWN_POLICY_PATHS = new Set([SIGN_UP_PATH, "/change-password"]);

export function createPasswordResetHooks({ db, audit }: { db: Kysely<DB>; audit: SecurityAudit }): HookTable {
  async function before(ctx: AuthHookContext) {
    await enforcePasswordPolicy(ctx.path, bodyOf(ctx.body));
    return undefined;
  }

  async function afterReset(ctx: AuthHookContext) {
    if (ctx.context.returned instanceof APIError) return;
    const email = str(bodyOf(ctx.body).email).trim().toLowerCase();
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
    await audit.record("password_reset", {
      actorId: user?.id ?? null,
      ip: ipOf(ctx.headers),
      details: { sessionsRevoked: true },
    });
  }

  const paths = [...PASSWORD_SETTING_PATHS.keys()].filter((path) => !OWN_POLICY_PATHS.has(path));
  return { before: forPaths(paths, before), after: { "/email-otp/reset-password": afterReset } };
}
