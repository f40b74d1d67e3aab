/** Sessions: every new one is bound to its device by the session guard; a sign-out is audited. */
import type { SecurityAudit } from "../security-audit.ts";
import type { SessionGuard } from "../session-guard.ts";
import { type AuthHookContext, type GuardedSession, ipOf } from "./context.ts";
import type { HookTable } from "./registry.ts";

export interface SessionHookDeps {
  guard: SessionGuard;
  audit: SecurityAudit;
  guardedSession: GuardedSession;
}

export function createSessionHooks({ guard, audit, guardedSession }: SessionHookDeps) {
  async function signOut(ctx: AuthHookContext) {
    const current = await guardedSession(ctx.headers);
    if (current) {
      await audit.record("sign_out", {
        actorId: current.user.id,
        ip: ipOf(ctx.headers),
        targetType: "session",
        targetId: current.session.id,
      });
    }
    return undefined;
  }

  const table: HookTable = { before: { "/sign-out": signOut } };
  /** Binds a session Better Auth has just created to the device of the request. */
  const bind = (sessionId: string, headers: Headers | null | undefined) => guard.bind(sessionId, headers);
  return { table, bind };
}
