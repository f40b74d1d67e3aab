/**
 * Service actors of the data-rule personas, for the services' integration tests: built through
 * the same path as requests (claims → user context → identity actor → service actor).
 */
import { buildUserContext, type Claims, visitorContext } from "../../core/index.ts";
import { SERVICE_READ_ALL_ROLES } from "../../server/auth/identity.ts";
import { type ServiceActor, serviceActor } from "../../server/modules/actor.ts";

export interface UserPersona {
  userId: string;
  groups?: string[];
  /** The custom:tier claim (free, basic, pro, enterprise). */
  tier?: string;
  /** The custom:tenantId claim (organisation id). */
  tenantId?: string;
}

export function userActor(persona: UserPersona, kind: "session" | "bearer" = "session"): ServiceActor {
  const claims: Claims = {
    sub: persona.userId,
    email: `${persona.userId}@demo.local`,
    "cognito:groups": persona.groups ?? [],
  };
  if (persona.tier) claims["custom:tier"] = persona.tier;
  if (persona.tenantId) claims["custom:tenantId"] = persona.tenantId;
  return serviceActor({ kind, context: buildUserContext(claims), scopes: null });
}

export function visitor(): ServiceActor {
  return serviceActor({ kind: "visitor", context: visitorContext(), scopes: null });
}

export function apiKeyActor(scopes: string[] = ["content:read", "repositories:read"]): ServiceActor {
  return serviceActor({
    kind: "api-key",
    context: visitorContext(),
    scopes,
    keyId: "key-1",
    ownerId: "owner-1",
  });
}

/** A service credential; with content:read:all its context reads like a content manager (identity.ts). */
export function serviceCredentialActor(
  scopes: string[] = ["content:read", "content:read:all", "repositories:read"],
): ServiceActor {
  const readAll = scopes.includes("content:read:all");
  const context = readAll
    ? {
        ...buildUserContext({ sub: "svc:client-1", "custom:tier": "enterprise", "cognito:groups": [] }),
        authStatus: "authenticated" as const,
        roles: [...SERVICE_READ_ALL_ROLES],
        permissions: [],
      }
    : visitorContext();
  return serviceActor({ kind: "service", context, scopes, clientId: "client-1" });
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
