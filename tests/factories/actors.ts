/**
 * Actors of the data-rule personas, for the services' tests: built through the same path as
 * requests (claims → user context → credential → actor).
 */
import { buildUserContext, type Claims, type UserContext, visitorContext } from "../../core/index.ts";
import { SERVICE_READ_ALL_ROLES } from "../../server/auth/identity.ts";
import { type Actor, actorForCredential } from "../../server/modules/actor.ts";

/** The actor of a session with this user context (a visitor's when it is a visitor context). */
export function actorOf(context: UserContext): Actor {
  return actorForCredential({
    kind: context.authStatus === "visitor" || !context.userId ? "visitor" : "session",
    context,
    scopes: null,
  });
}

export interface UserPersona {
  userId: string;
  groups?: string[];
  /** The custom:tier claim (free, basic, pro, enterprise). */
  tier?: string;
  /** The custom:tenantId claim (organisation id). */
  tenantId?: string;
}

export function userActor(persona: UserPersona, kind: "session" | "bearer" = "session"): Actor {
  const claims: Claims = {
    sub: persona.userId,
    email: `${persona.userId}@demo.local`,
    "cognito:groups": persona.groups ?? [],
  };
  if (persona.tier) claims["custom:tier"] = persona.tier;
  if (persona.tenantId) claims["custom:tenantId"] = persona.tenantId;
  return actorForCredential({ kind, context: buildUserContext(claims), scopes: null });
}

export function visitor(): Actor {
  return actorForCredential({ kind: "visitor", context: visitorContext(), scopes: null });
}

export function apiKeyActor(scopes: string[] = ["content:read", "repositories:read"]): Actor {
  return actorForCredential({
    kind: "api-key",
    context: visitorContext(),
    scopes,
  });
}

/** A service credential; with content:read:all its context reads like a content manager (identity.ts). */
export function serviceCredentialActor(
  scopes: string[] = ["content:read", "content:read:all", "repositories:read"],
): Actor {
  const readAll = scopes.includes("content:read:all");
  const context = readAll
    ? {
        ...buildUserContext({ sub: "svc:client-1", "custom:tier": "enterprise", "cognito:groups": [] }),
        authStatus: "authenticated" as const,
        roles: [...SERVICE_READ_ALL_ROLES],
        permissions: [],
      }
    : visitorContext();
  return actorForCredential({ kind: "service", context, scopes });
}

/** What a service operation answered, for access tables: "ok" or the typed error's code. */
export type Outcome = "ok" | "NOT_FOUND" | "FORBIDDEN" | "UNAUTHENTICATED";

export async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return "ok";
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "NOT_FOUND" || code === "FORBIDDEN" || code === "UNAUTHENTICATED") return code;
    throw error;
  }
}
