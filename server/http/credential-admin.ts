/**
 * Who may manage service credentials (decision 009), for the handlers in credentials-api.ts:
 * a signed-in user (session cookie or ID token) holding the operation's permission and the
 * "platform" admin scope (core `adminAccess`). The check runs here before any body is read, and
 * the service-credentials operations run it again themselves.
 */
import type { Context } from "hono";
import { type AdminOperationName, adminAccess } from "../../core/index.ts";
import type { Actor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";

function apiError(c: Context, status: 401 | 403, code: string, message: string) {
  c.header("Cache-Control", "no-store");
  return c.json({ error: { code, message } }, status);
}

export function credentialAdminChecks(runtime: Runtime, headersOf: (c: Context) => Headers) {
  /**
   * The admin asking, or the refusal: 401 nobody or a bad credential; 403 an API key or a
   * service token, a missing permission or a missing scope (organisation admins), with a message.
   */
  async function credentialAdmin(
    c: Context,
    operation: AdminOperationName,
  ): Promise<{ ok: true; actor: Actor } | { ok: false; response: Response }> {
    const result = await runtime.identity.resolveActor(headersOf(c));
    if (!result.ok) return { ok: false, response: apiError(c, 401, "UNAUTHENTICATED", result.message) };
    const { actor } = result;
    if (actor.kind === "api-key" || actor.kind === "service") {
      return {
        ok: false,
        response: apiError(
          c,
          403,
          "FORBIDDEN",
          "Service credentials are managed by a signed-in platform administrator; API keys and service tokens are refused.",
        ),
      };
    }
    const decision = adminAccess(operation, actor.access);
    if (decision.kind === "denied") {
      return {
        ok: false,
        response:
          decision.reason === "auth"
            ? apiError(c, 401, "UNAUTHENTICATED", decision.message)
            : apiError(c, 403, "FORBIDDEN", decision.message),
      };
    }
    return { ok: true, actor };
  }

  /** A service-credential operation's own refusal → 401/403 with its message; others rethrown. */
  function refused(c: Context, error: unknown) {
    const code = (error as { code?: unknown })?.code;
    if (code === "UNAUTHENTICATED") return apiError(c, 401, "UNAUTHENTICATED", (error as Error).message);
    if (code === "FORBIDDEN") return apiError(c, 403, "FORBIDDEN", (error as Error).message);
    throw error;
  }

  return { credentialAdmin, refused };
}
