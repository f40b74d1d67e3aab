/**
 * API credentials (docs/api/credentials.md):
 *
 * - POST   /api/account/token → {idToken, tokenType:"Bearer", expiresAt} (signed-in session; the
 *          token is bound to that sign-in and checked against it and the current rows on use)
 * - GET    /api/account/api-keys → [{id, name, prefix, scopes, createdAt, expiresAt, lastUsedAt, …}]
 * - POST   /api/account/api-keys {name, scopes, expiresInDays?} → 201 {id, key, …} (key shown once)
 * - DELETE /api/account/api-keys/{id} → 204 (own keys only; 404 otherwise)
 * - GET    /api/admin/service-credentials → [...] (admin:read, platform scope)
 * - POST   /api/admin/service-credentials {name, scopes} → 201 {id, clientId, clientSecret, …}
 *          (admin:write, platform scope)
 * - DELETE /api/admin/service-credentials/{id} → 204 (admin:write, platform scope)
 * - POST   /api/auth/service-token (client_credentials, JSON or form, or HTTP Basic)
 *          → {access_token, token_type:"Bearer", expires_in, scope}
 * - GET    /api/auth/jwks and /.well-known/jwks.json → {keys:[…]} (public keys only)
 *
 * Service credentials are platform-wide (decision 009): the service-credentials operations refuse
 * anyone but a platform administrator (app-admin, app-owner) themselves, so organisation admins
 * get 403 although they hold Admin. Only a signed-in user (session or ID token) asks; API keys and
 * service tokens are refused (403).
 *
 * Registered before the Better Auth catch-all for /api/auth/*, so the account and admin Origin
 * check is applied here too. No key, secret or token is logged or audited; only the one-time
 * creation answers hold them.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { pricingTierFromClaims } from "../../core/index.ts";
import { API_KEY_MAX_EXPIRY_DAYS, API_KEY_MAX_PER_USER, API_KEY_SCOPES } from "../auth/api-keys.ts";
import { normaliseIp } from "../auth/client-ip.ts";
import { claimsForUser } from "../auth/identity.ts";
import { SERVICE_SCOPES } from "../auth/service-credentials.ts";
import { CLIENT_IP_HEADER } from "../auth/session-guard.ts";
import { SERVICE_TOKEN_TTL_S } from "../auth/tokens.ts";
import { type AuditDetails, createAuditRepo } from "../modules/audit/audit.repo.ts";
import type { Runtime } from "../runtime.ts";
import { allowedOrigins, requestOrigin } from "./account-api.ts";
import { credentialAdminChecks } from "./credential-admin.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const BODY_LIMIT = 16 * 1024;
const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

const nameSchema = z
  .string({ message: "expected a name" })
  .trim()
  .min(1, "a name is required")
  .max(100, "at most 100 characters")
  .refine(
    (v) => ![...v].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
    "no control characters",
  );

const scopesOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .array(z.enum(values, { message: `expected one of ${values.join(", ")}` }), {
      message: "expected a list",
    })
    .min(1, "choose at least one scope")
    .max(values.length)
    .transform((list) => [...new Set(list)]);

const CreateApiKey = z
  .object({
    name: nameSchema,
    scopes: scopesOf(API_KEY_SCOPES),
    expiresInDays: z
      .number({ message: "expected a number of days" })
      .int("expected a whole number")
      .min(1, "at least 1 day")
      .max(API_KEY_MAX_EXPIRY_DAYS, `at most ${API_KEY_MAX_EXPIRY_DAYS} days`)
      .optional(),
  })
  .strict();

const CreateServiceCredential = z.object({ name: nameSchema, scopes: scopesOf(SERVICE_SCOPES) }).strict();

function apiError(
  c: Context,
  status: 400 | 401 | 403 | 404 | 409 | 413 | 415,
  code: string,
  message: string,
) {
  c.header("Cache-Control", "no-store");
  return c.json({ error: { code, message } }, status);
}

/** The body as text, at most BODY_LIMIT bytes (null when larger). */
async function readBody(c: Context): Promise<string | null> {
  if (Number(c.req.header("content-length") ?? "0") > BODY_LIMIT) return null;
  const buffer = new Uint8Array(await c.req.raw.arrayBuffer());
  if (buffer.byteLength > BODY_LIMIT) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    return "\u0000invalid";
  }
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response };

async function readJsonObject(c: Context): Promise<Parsed> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    return { ok: false, response: apiError(c, 415, "UNSUPPORTED_MEDIA_TYPE", "Send a JSON body.") };
  }
  const text = await readBody(c);
  if (text === null) {
    return { ok: false, response: apiError(c, 413, "PAYLOAD_TOO_LARGE", "The request body is too large.") };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, response: apiError(c, 400, "INVALID_JSON", "The request body is not valid JSON.") };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      response: apiError(c, 400, "INVALID_BODY", "The request body must be a JSON object."),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function badInput(c: Context, error: z.ZodError) {
  const issue = error.issues[0]!;
  const field = issue.path.join(".") || "body";
  const message =
    issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : issue.message;
  c.header("Cache-Control", "no-store");
  return c.json({ error: { code: "BAD_USER_INPUT", message: `Invalid ${field}: ${message}`, field } }, 400);
}

export function registerCredentialsApi(app: AnyHono, runtime: Runtime): void {
  const { guard, now } = runtime.authSecurity;
  const auditRepo = createAuditRepo(runtime.database.db);

  const ipOf = (c: Context) => normaliseIp(c.get("clientIp") as string | undefined);
  const headersOf = (c: Context) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, ipOf(c));
    return headers;
  };

  async function audit(
    c: Context,
    action: string,
    event: { actorId: string | null; targetType: string; targetId: string; details?: AuditDetails },
  ) {
    try {
      await auditRepo.append({ action, at: new Date(now()), ip: ipOf(c), ...event });
    } catch (error) {
      runtime.logger.error({ err: error, action }, "audit write failed");
    }
  }

  /** State changes only from this app's pages (CSRF). */
  const originOk = (c: Context) => {
    const origin = requestOrigin(c);
    return !!origin && allowedOrigins(c, runtime).has(origin);
  };
  const badOrigin = (c: Context) =>
    apiError(c, 403, "FORBIDDEN_ORIGIN", "This request did not come from this site, so it was refused.");

  /** The signed-in user of a session cookie (session rules applied), or a 401 response. */
  async function sessionUser(c: Context) {
    const result = await guard.check(headersOf(c));
    if (!result.ok) {
      if (result.clearCookie) c.header("Set-Cookie", result.clearCookie, { append: true });
      return { ok: false as const, response: apiError(c, 401, "UNAUTHENTICATED", "Sign in first.") };
    }
    return { ok: true as const, user: result.user, session: result.session };
  }

  const { credentialAdmin, refused } = credentialAdminChecks(runtime, headersOf);

  // --- ID tokens -------------------------------------------------------------------------------

  app.post("/api/account/token", async (c) => {
    if (!originOk(c)) return badOrigin(c);
    const session = await sessionUser(c);
    if (!session.ok) return session.response;
    const { user } = session;
    const claims = await claimsForUser(runtime.database.db, user, new Date(now()));
    const tier = pricingTierFromClaims(claims);
    claims["custom:tier"] = (tier === "Visitor" ? "free" : tier).toLowerCase();
    // Bound to this sign-in: it ends with it (sign-out, password change…), across rotations.
    const issued = await runtime.tokens.issueIdToken(claims, session.session.familyId);
    await audit(c, "token_issued", {
      actorId: user.id,
      targetType: "user",
      targetId: user.id,
      details: { kind: "id", expiresAt: new Date(issued.expiresAt).toISOString() },
    });
    c.header("Cache-Control", "no-store");
    return c.json({
      idToken: issued.token,
      tokenType: "Bearer",
      expiresAt: new Date(issued.expiresAt).toISOString(),
    });
  });

  const jwks = async (c: Context) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json(await runtime.tokens.jwks());
  };
  app.get("/api/auth/jwks", jwks);
  app.get("/.well-known/jwks.json", jwks);

  // --- API keys --------------------------------------------------------------------------------

  app.get("/api/account/api-keys", async (c) => {
    const session = await sessionUser(c);
    if (!session.ok) return session.response;
    c.header("Cache-Control", "no-store");
    return c.json(await runtime.apiKeys.list(session.user.id));
  });

  app.post("/api/account/api-keys", async (c) => {
    if (!originOk(c)) return badOrigin(c);
    const session = await sessionUser(c);
    if (!session.ok) return session.response;
    const body = await readJsonObject(c);
    if (!body.ok) return body.response;
    const parsed = CreateApiKey.safeParse(body.value);
    if (!parsed.success) return badInput(c, parsed.error);
    if ((await runtime.apiKeys.countActive(session.user.id)) >= API_KEY_MAX_PER_USER) {
      return apiError(
        c,
        409,
        "CONFLICT",
        `You can have at most ${API_KEY_MAX_PER_USER} API keys. Revoke one first.`,
      );
    }
    const created = await runtime.apiKeys.create(session.user.id, parsed.data);
    await audit(c, "api_key_created", {
      actorId: session.user.id,
      targetType: "api_key",
      targetId: created.id,
      details: { prefix: created.prefix, scopes: created.scopes, expiresAt: created.expiresAt },
    });
    c.header("Cache-Control", "no-store");
    return c.json(created, 201);
  });

  app.delete("/api/account/api-keys/:id", async (c) => {
    if (!originOk(c)) return badOrigin(c);
    const session = await sessionUser(c);
    if (!session.ok) return session.response;
    const id = c.req.param("id");
    if (!ID_PATTERN.test(id) || !(await runtime.apiKeys.revoke(session.user.id, id))) {
      return apiError(c, 404, "NOT_FOUND", "No such API key on your account.");
    }
    await audit(c, "api_key_revoked", { actorId: session.user.id, targetType: "api_key", targetId: id });
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });

  // --- Service credentials ---------------------------------------------------------------------

  app.get("/api/admin/service-credentials", async (c) => {
    const admin = await credentialAdmin(c, "service-credentials.list");
    if (!admin.ok) return admin.response;
    try {
      const list = await runtime.serviceCredentials.list(admin.actor);
      c.header("Cache-Control", "no-store");
      return c.json(list);
    } catch (error) {
      return refused(c, error);
    }
  });

  app.post("/api/admin/service-credentials", async (c) => {
    if (!originOk(c)) return badOrigin(c);
    const admin = await credentialAdmin(c, "service-credentials.create");
    if (!admin.ok) return admin.response;
    const body = await readJsonObject(c);
    if (!body.ok) return body.response;
    const parsed = CreateServiceCredential.safeParse(body.value);
    if (!parsed.success) return badInput(c, parsed.error);
    let created: Awaited<ReturnType<typeof runtime.serviceCredentials.create>>;
    try {
      created = await runtime.serviceCredentials.create(admin.actor, parsed.data);
    } catch (error) {
      return refused(c, error);
    }
    await audit(c, "service_credential_created", {
      actorId: admin.actor.userId,
      targetType: "service_credential",
      targetId: created.id,
      details: { clientId: created.clientId, scopes: created.scopes },
    });
    c.header("Cache-Control", "no-store");
    return c.json(created, 201);
  });

  app.delete("/api/admin/service-credentials/:id", async (c) => {
    if (!originOk(c)) return badOrigin(c);
    const admin = await credentialAdmin(c, "service-credentials.revoke");
    if (!admin.ok) return admin.response;
    const id = c.req.param("id");
    let revoked: boolean;
    try {
      // The scope is checked before the id is looked at: a refused caller learns nothing about ids.
      revoked = await runtime.serviceCredentials.revoke(admin.actor, ID_PATTERN.test(id) ? id : "");
    } catch (error) {
      return refused(c, error);
    }
    if (!revoked) return apiError(c, 404, "NOT_FOUND", "No such active service credential.");
    await audit(c, "service_credential_revoked", {
      actorId: admin.actor.userId,
      targetType: "service_credential",
      targetId: id,
    });
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });

  // Client credentials exchange: server to server, so no Origin is needed (nor any cookie used).
  app.post("/api/auth/service-token", async (c) => {
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    const text = await readBody(c);
    if (text === null) return apiError(c, 413, "PAYLOAD_TOO_LARGE", "The request body is too large.");
    let fields: Record<string, unknown>;
    if (type.includes("application/json")) {
      try {
        const value = JSON.parse(text) as unknown;
        if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
        fields = value as Record<string, unknown>;
      } catch {
        return apiError(c, 400, "INVALID_BODY", "The request body must be a JSON object.");
      }
    } else if (type.includes("application/x-www-form-urlencoded")) {
      fields = Object.fromEntries(new URLSearchParams(text));
    } else {
      return apiError(
        c,
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "Send JSON or a form (application/x-www-form-urlencoded).",
      );
    }
    let clientId = fields.client_id;
    let clientSecret = fields.client_secret;
    const basic = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(c.req.header("authorization") ?? "");
    if (basic) {
      const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0) {
        try {
          clientId = decodeURIComponent(decoded.slice(0, colon));
          clientSecret = decodeURIComponent(decoded.slice(colon + 1));
        } catch {
          return apiError(c, 401, "UNAUTHENTICATED", "The client id or secret is not valid.");
        }
      }
    }
    if (fields.grant_type !== "client_credentials") {
      return apiError(c, 400, "UNSUPPORTED_GRANT_TYPE", "grant_type must be client_credentials.");
    }
    const credential = await runtime.serviceCredentials
      .authenticate(clientId, clientSecret)
      .catch(() => null);
    if (!credential) return apiError(c, 401, "UNAUTHENTICATED", "The client id or secret is not valid.");
    const issued = await runtime.tokens.issueServiceToken(credential.clientId, credential.scopes);
    await audit(c, "token_issued", {
      actorId: null,
      targetType: "service_credential",
      targetId: credential.clientId,
      details: { kind: "service", scopes: credential.scopes },
    });
    c.header("Cache-Control", "no-store");
    return c.json({
      access_token: issued.token,
      token_type: "Bearer",
      expires_in: SERVICE_TOKEN_TTL_S,
      scope: credential.scopes.join(" "),
    });
  });
}
