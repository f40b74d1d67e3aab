/**
 * Who may manage service credentials (decision 009), for the handlers in credentials-api.ts:
 * a signed-in user (session cookie or ID token) holding the operation's permission and the
 * "platform" admin scope (core `adminAccess`). The check runs here before any body is read, and
 * the service-credentials operations run it again themselves.
 */
import type { Context } from "hono";
import { type AdminOperationName, adminAccess } from "../../core/index.ts";
import { ForbiddenError, UnauthenticatedError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";
import { actorHeaders } from "./toolkit.ts";

/**
 * The admin asking, or the refusal thrown: 401 nobody or a bad credential; 403 an API key or a
 * service token, a missing permission or a missing scope (organisation admins), with a message.
 */
export function credentialAdminChecks(deps: Pick<Runtime, "identity">) {
  return async (c: Context, operation: AdminOperationName): Promise<Actor> => {
    const result = await deps.identity.resolveActor(actorHeaders(c));
    if (!result.ok) throw new UnauthenticatedError(result.message);
    const { actor } = result;
    if (actor.kind === "api-key" || actor.kind === "service") {
      throw new ForbiddenError(
        "Service credentials are managed by a signed-in platform administrator; API keys and service tokens are refused.",
      );
    }
    const decision = adminAccess(operation, actor.access);
    if (decision.kind === "denied") {
      throw decision.reason === "auth"
        ? new UnauthenticatedError(decision.message)
        : new ForbiddenError(decision.message);
    }
    return actor;
  };
}
