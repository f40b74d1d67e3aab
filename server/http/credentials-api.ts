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
import { SERVICE_SCOPES } from "../auth/service-credentials.ts";
import { SERVICE_TOKEN_TTL_S } from "../auth/tokens.ts";
import {
  AppError,
  badInputFromZod,
  ConflictError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
} from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import { credentialAdminChecks } from "./credential-admin.ts";
import { defineRoutes } from "./openapi-registry.ts";
import {
  actorHeaders,
  fail,
  handler,
  ipOf,
  parseJsonObject,
  readJsonObject,
  readLimited,
} from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const BODY_LIMIT = 16 * 1024;
const TOO_LARGE = "The request body is too large.";
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

/** A JSON body of these endpoints (415 unless JSON, 413 past 16 KB, 400 not an object). */
const readBody = (c: Context) =>
  readJsonObject(c, { limit: BODY_LIMIT, requireJsonType: true, tooLarge: TOO_LARGE });

/** A body that fails its schema: 400 naming the field ("Invalid name: …"). */
const invalidBody = (error: z.ZodError) =>
  badInputFromZod(error, { fallback: "body", message: (field, problem) => `Invalid ${field}: ${problem}` });

/** What the credential handlers use. */
export type CredentialsApiDeps = Pick<
  Runtime,
  "env" | "logger" | "identity" | "authSecurity" | "tokens" | "apiKeys" | "serviceCredentials" | "accounts"
>;

export const credentialsRoutes = defineRoutes([
  {
    method: "post",
    path: "/api/account/token",
    summary: "Issue an ID token for the signed-in session",
    description: "The token is bound to this sign-in and checked against it on every use.",
    tag: "Credentials",
    access: "session",
    mutates: true,
    responses: { 200: { description: '`{idToken, tokenType: "Bearer", expiresAt}`' } },
  },
  {
    method: "get",
    path: "/api/auth/jwks",
    summary: "The ID tokens' public keys (also at /.well-known/jwks.json)",
    tag: "Credentials",
    access: "public",
    responses: { 200: { description: "`{keys: [...]}`" } },
  },
  {
    method: "get",
    path: "/api/account/api-keys",
    summary: "The caller's API keys",
    tag: "Credentials",
    access: "person",
    responses: {
      200: { description: "`[{id, name, prefix, scopes, createdAt, expiresAt, lastUsedAt, …}]`" },
    },
  },
  {
    method: "post",
    path: "/api/account/api-keys",
    summary: "Create an API key (shown once)",
    tag: "Credentials",
    access: "person",
    mutates: true,
    body: CreateApiKey,
    responses: { 201: { description: "`{id, key, …}`: the key is in this answer only." } },
    errors: [409],
  },
  {
    method: "delete",
    path: "/api/account/api-keys/:id",
    summary: "Revoke one of the caller's API keys",
    tag: "Credentials",
    access: "person",
    mutates: true,
    responses: { 204: { description: "Revoked." } },
  },
  {
    method: "get",
    path: "/api/admin/service-credentials",
    summary: "Service credentials",
    tag: "Credentials",
    access: "person",
    who: "platform administrators (admin:read)",
  },
  {
    method: "post",
    path: "/api/admin/service-credentials",
    summary: "Create a service credential (the secret is shown once)",
    tag: "Credentials",
    access: "person",
    who: "platform administrators (admin:write)",
    mutates: true,
    body: CreateServiceCredential,
    responses: { 201: { description: "`{id, clientId, clientSecret, …}`" } },
  },
  {
    method: "delete",
    path: "/api/admin/service-credentials/:id",
    summary: "Revoke a service credential",
    tag: "Credentials",
    access: "person",
    who: "platform administrators (admin:write)",
    mutates: true,
    responses: { 204: { description: "Revoked." } },
  },
  {
    method: "post",
    path: "/api/auth/service-token",
    summary: "Exchange a service credential for a service token (client_credentials)",
    description:
      'JSON or form body `{grant_type: "client_credentials", client_id, client_secret, scope?}`, or HTTP Basic.',
    tag: "Credentials",
    access: "service-secret",
    rawBody: {
      contentType: "application/x-www-form-urlencoded",
      description:
        "`grant_type=client_credentials&client_id=…&client_secret=…&scope=…` (JSON also accepted).",
    },
    responses: { 200: { description: '`{access_token, token_type: "Bearer", expires_in, scope}`' } },
    errors: [401],
  },
]);

export function registerCredentialsApi(app: AnyHono, deps: CredentialsApiDeps): void {
  const { guard } = deps.authSecurity;

  const audit = (
    c: Context,
    action: string,
    event: Omit<Parameters<typeof deps.accounts.recordCredentialEvent>[1], "ip">,
  ) => deps.accounts.recordCredentialEvent(action, { ...event, ip: ipOf(c) });

  /** The signed-in user of a session cookie (session rules applied); 401 otherwise. */
  async function sessionUser(c: Context) {
    const result = await guard.check(actorHeaders(c));
    if (!result.ok) {
      if (result.clearCookie) c.header("Set-Cookie", result.clearCookie, { append: true });
      throw new UnauthenticatedError("Sign in first.");
    }
    return { user: result.user, session: result.session };
  }

  const credentialAdmin = credentialAdminChecks(deps);

  // --- ID tokens -------------------------------------------------------------------------------

  app.post(
    "/api/account/token",
    handler(
      deps,
      async (c) => {
        const session = await sessionUser(c);
        const { user } = session;
        const claims = await deps.accounts.claims(user);
        const tier = pricingTierFromClaims(claims);
        claims["custom:tier"] = (tier === "Visitor" ? "free" : tier).toLowerCase();
        // Bound to this sign-in: it ends with it (sign-out, password change…), across rotations.
        const issued = await deps.tokens.issueIdToken(claims, session.session.familyId);
        await audit(c, "token_issued", {
          actorId: user.id,
          targetType: "user",
          targetId: user.id,
          details: { kind: "id", expiresAt: new Date(issued.expiresAt).toISOString() },
        });
        return c.json({
          idToken: issued.token,
          tokenType: "Bearer",
          expiresAt: new Date(issued.expiresAt).toISOString(),
        });
      },
      { mutates: true },
    ),
  );

  const jwks = async (c: Context) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json(await deps.tokens.jwks());
  };
  app.get("/api/auth/jwks", jwks);
  app.get("/.well-known/jwks.json", jwks);

  // --- API keys --------------------------------------------------------------------------------

  app.get(
    "/api/account/api-keys",
    handler(deps, async (c) => {
      const session = await sessionUser(c);
      return c.json(await deps.apiKeys.list(session.user.id));
    }),
  );

  app.post(
    "/api/account/api-keys",
    handler(
      deps,
      async (c) => {
        const session = await sessionUser(c);
        const parsed = CreateApiKey.safeParse(await readBody(c));
        if (!parsed.success) throw invalidBody(parsed.error);
        if ((await deps.apiKeys.countActive(session.user.id)) >= API_KEY_MAX_PER_USER) {
          throw new ConflictError(`You can have at most ${API_KEY_MAX_PER_USER} API keys. Revoke one first.`);
        }
        const created = await deps.apiKeys.create(session.user.id, parsed.data);
        await audit(c, "api_key_created", {
          actorId: session.user.id,
          targetType: "api_key",
          targetId: created.id,
          details: { prefix: created.prefix, scopes: created.scopes, expiresAt: created.expiresAt },
        });
        return c.json(created, 201);
      },
      { mutates: true },
    ),
  );

  app.delete(
    "/api/account/api-keys/:id",
    handler(
      deps,
      async (c) => {
        const session = await sessionUser(c);
        const id = c.req.param("id") ?? "";
        if (!ID_PATTERN.test(id) || !(await deps.apiKeys.revoke(session.user.id, id))) {
          return fail(c, 404, "NOT_FOUND", "No such API key on your account.");
        }
        await audit(c, "api_key_revoked", { actorId: session.user.id, targetType: "api_key", targetId: id });
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );

  // --- Service credentials ---------------------------------------------------------------------

  app.get(
    "/api/admin/service-credentials",
    handler(deps, async (c) => {
      const admin = await credentialAdmin(c, "service-credentials.list");
      return c.json(await deps.serviceCredentials.list(admin));
    }),
  );

  app.post(
    "/api/admin/service-credentials",
    handler(
      deps,
      async (c) => {
        const admin = await credentialAdmin(c, "service-credentials.create");
        const parsed = CreateServiceCredential.safeParse(await readBody(c));
        if (!parsed.success) throw invalidBody(parsed.error);
        const created = await deps.serviceCredentials.create(admin, parsed.data);
        await audit(c, "service_credential_created", {
          actorId: admin.userId,
          targetType: "service_credential",
          targetId: created.id,
          details: { clientId: created.clientId, scopes: created.scopes },
        });
        return c.json(created, 201);
      },
      { mutates: true },
    ),
  );

  app.delete(
    "/api/admin/service-credentials/:id",
    handler(
      deps,
      async (c) => {
        const admin = await credentialAdmin(c, "service-credentials.revoke");
        const id = c.req.param("id") ?? "";
        // The scope is checked before the id is looked at: a refused caller learns nothing about ids.
        const revoked = await deps.serviceCredentials.revoke(admin, ID_PATTERN.test(id) ? id : "");
        if (!revoked) return fail(c, 404, "NOT_FOUND", "No such active service credential.");
        await audit(c, "service_credential_revoked", {
          actorId: admin.userId,
          targetType: "service_credential",
          targetId: id,
        });
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );

  // Client credentials exchange: server to server, so no Origin is needed (nor any cookie used).
  app.post(
    "/api/auth/service-token",
    handler(deps, async (c) => {
      const type = (c.req.header("content-type") ?? "").toLowerCase();
      const bytes = await readLimited(c.req.raw, BODY_LIMIT);
      if (bytes === null) return fail(c, 413, "PAYLOAD_TOO_LARGE", TOO_LARGE);
      let fields: Record<string, unknown>;
      if (type.includes("application/json")) {
        try {
          fields = parseJsonObject(bytes);
        } catch {
          throw new AppError("INVALID_BODY", "The request body must be a JSON object.");
        }
      } else if (type.includes("application/x-www-form-urlencoded")) {
        let text: string;
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          text = "\u0000invalid";
        }
        fields = Object.fromEntries(new URLSearchParams(text));
      } else {
        throw new UnsupportedMediaTypeError("Send JSON or a form (application/x-www-form-urlencoded).");
      }
      const invalidClient = () => new UnauthenticatedError("The client id or secret is not valid.");
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
            throw invalidClient();
          }
        }
      }
      if (fields.grant_type !== "client_credentials") {
        return fail(c, 400, "UNSUPPORTED_GRANT_TYPE", "grant_type must be client_credentials.");
      }
      const credential = await deps.serviceCredentials.authenticate(clientId, clientSecret).catch(() => null);
      if (!credential) throw invalidClient();
      const issued = await deps.tokens.issueServiceToken(credential.clientId, credential.scopes);
      await audit(c, "token_issued", {
        actorId: null,
        targetType: "service_credential",
        targetId: credential.clientId,
        details: { kind: "service", scopes: credential.scopes },
      });
      return c.json({
        access_token: issued.token,
        token_type: "Bearer",
        expires_in: SERVICE_TOKEN_TTL_S,
        scope: credential.scopes.join(" "),
      });
    }),
  );
}
