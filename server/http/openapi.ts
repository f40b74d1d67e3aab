/**
 * The OpenAPI 3.1 document of the REST API (decision 034), built from the route declarations of
 * the `*-api.ts` modules (`openapi-registry.ts`): request schemas are the zod schemas the handlers
 * validate with, converted by zod's own `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's
 * dialect). Served at `GET /api/openapi.json`, rendered at `GET /api/docs`, and committed as
 * `docs/api/openapi.json` by `npm run api:generate`.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { API_KEY_SCOPES } from "../auth/api-keys.ts";
import { SERVICE_SCOPES } from "../auth/service-credentials.ts";
import { accountRoutes } from "./account-api.ts";
import { adminContentRoutes } from "./admin-content-api.ts";
import { adminRepositoriesRoutes } from "./admin-repositories-api.ts";
import { adminSubscriptionsRoutes } from "./admin-subscriptions-api.ts";
import { adminUsersRoutes } from "./admin-users-api.ts";
import { analyticsRoutes } from "./analytics-api.ts";
import { auditRoutes } from "./audit-api.ts";
import { billingRoutes } from "./billing-api.ts";
import { bookmarksRoutes } from "./bookmarks-api.ts";
import { commentsRoutes } from "./comments-api.ts";
import { contentRoutes } from "./content-api.ts";
import { contentWriteRoutes } from "./content-write-api.ts";
import { credentialsRoutes } from "./credentials-api.ts";
import { engagementRoutes } from "./engagement-api.ts";
import { freshnessRoutes } from "./freshness-api.ts";
import { learningRoutes } from "./learning-api.ts";
import { mediaRoutes } from "./media-api.ts";
import { moderationRoutes } from "./moderation-api.ts";
import { notificationsRoutes } from "./notifications-api.ts";
import { objectsRoutes } from "./objects-api.ts";
import { renderApiReference } from "./openapi-page.ts";
import {
  type ApiRoute,
  defineRoutes,
  type OpenApiDocument,
  openApiPath,
  pathParameterNames,
} from "./openapi-registry.ts";
import { operationsRoutes } from "./operations-api.ts";
import { orgRoutes } from "./org-api.ts";
import { plansRoutes } from "./plans-api.ts";
import { profileRoutes } from "./profile-api.ts";
import { repositoriesRoutes } from "./repositories-api.ts";
import { searchRoutes } from "./search-api.ts";
import { securityAdminRoutes } from "./security-admin-api.ts";
import { settingsRoutes } from "./settings-api.ts";
import { studioRoutes } from "./studio-api.ts";
import { studioListRoutes } from "./studio-list-api.ts";
import { studioRenderRoutes } from "./studio-render-api.ts";
import { webhooksRoutes } from "./webhooks-api.ts";

/** The version of the REST document (bumped with a change a client would notice). */
export const REST_API_VERSION = "1.0.0";

export const OPENAPI_PATH = "/api/openapi.json";
export const API_DOCS_PATH = "/api/docs";

/** The reference itself: the document and its page (public, cacheable: routes, never data). */
export const referenceRoutes = defineRoutes([
  {
    method: "get",
    path: OPENAPI_PATH,
    summary: "This OpenAPI 3.1 document",
    tag: "Reference",
    access: "public",
    responses: { 200: { description: "The OpenAPI 3.1 document of the REST API." } },
  },
  {
    method: "get",
    path: API_DOCS_PATH,
    summary: "The API reference page (HTML, rendered from this document)",
    tag: "Reference",
    access: "public",
    responses: { 200: { description: "The reference page.", contentType: "text/html" } },
  },
]);

/** Every declared REST route, in the order of the reference (most used first). */
export const API_ROUTES: readonly ApiRoute[] = [
  ...contentRoutes,
  ...searchRoutes,
  ...contentWriteRoutes,
  ...commentsRoutes,
  ...bookmarksRoutes,
  ...engagementRoutes,
  ...freshnessRoutes,
  ...learningRoutes,
  ...notificationsRoutes,
  ...profileRoutes,
  ...accountRoutes,
  ...credentialsRoutes,
  ...orgRoutes,
  ...billingRoutes,
  ...plansRoutes,
  ...mediaRoutes,
  ...objectsRoutes,
  ...repositoriesRoutes,
  ...studioRoutes,
  ...studioListRoutes,
  ...studioRenderRoutes,
  ...moderationRoutes,
  ...adminUsersRoutes,
  ...adminContentRoutes,
  ...adminRepositoriesRoutes,
  ...adminSubscriptionsRoutes,
  ...analyticsRoutes,
  ...auditRoutes,
  ...settingsRoutes,
  ...securityAdminRoutes,
  ...webhooksRoutes,
  ...operationsRoutes,
  ...referenceRoutes,
];

// --- Schemas -------------------------------------------------------------------------------------

/** The REST error envelope (`server/http/toolkit.ts`). */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Stable code: BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, …" }),
      message: z.string().meta({ description: "What is wrong, in a sentence a person can read." }),
      field: z
        .record(z.string(), z.string())
        .optional()
        .meta({ description: "For bad input: each field at fault and its problem." }),
      retryAfterS: z.number().int().optional().meta({ description: "For rate limits: seconds to wait." }),
    }),
  })
  .meta({ description: "Every REST error answer (with Cache-Control: no-store)." });

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as an OpenAPI 3.1 schema object: requests document what is accepted (`input`),
 * answers what is sent (`output`); parts JSON Schema cannot express (transforms' results, dates)
 * are left open. Shared definitions go to `components.schemas`.
 */
function toSchema(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return json;
  delete json.$defs;
  const rename = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    let target = name;
    for (let n = 2; components[target] && JSON.stringify(components[target]) !== JSON.stringify(def); n++) {
      target = `${name}${n}`;
    }
    rename.set(name, target);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== "object") return value;
    const out: JsonSchema = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
          ? `#/components/schemas/${rename.get(inner.slice("#/$defs/".length))}`
          : rewrite(inner);
    }
    return out;
  };
  for (const [name, def] of Object.entries(defs)) components[rename.get(name)!] = rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

// --- Security ------------------------------------------------------------------------------------

const securitySchemes = {
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: "lumen.session_token",
    description:
      "The session cookie set by signing in (`/api/auth/*`). Named `__Host-lumen.session_token` when the site runs on https. State changes made with it must come from this site (Origin or Referer), else 403 FORBIDDEN_ORIGIN.",
  },
  bearerIdToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A short-lived ID token of a signed-in person (`POST /api/account/token`, or a configured OpenID Connect provider's), sent as `Authorization: Bearer <token>`. Acts as that person.",
  },
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: `A personal API key (\`POST /api/account/api-keys\`): read only, limited to its scopes (${API_KEY_SCOPES.join(", ")}).`,
  },
  serviceToken: {
    type: "http",
    scheme: "bearer",
    description: `A service token (\`POST /api/auth/service-token\` with a service credential's id and secret), sent as \`Authorization: Bearer <token>\`: read only, limited to its scopes (${SERVICE_SCOPES.join(", ")}).`,
  },
} as const;

function securityOf(route: ApiRoute): Record<string, string[]>[] {
  switch (route.access) {
    case "public":
    case "signed-link":
    case "service-secret":
      return [];
    case "session":
      return [{ sessionCookie: [] }];
    case "person":
      return [{ sessionCookie: [] }, { bearerIdToken: [] }];
    case "reader": {
      const scopes = [...(route.scopes ?? ["content:read"])];
      return [{}, { sessionCookie: [] }, { bearerIdToken: [] }, { apiKey: scopes }, { serviceToken: scopes }];
    }
  }
}

const ACCESS_TEXT: Record<ApiRoute["access"], string> = {
  public: "Public: no credential needed.",
  reader:
    "Visitors, signed-in people (session or bearer ID token), API keys and service tokens with the scope; the answer shows what the caller may read.",
  person:
    "A signed-in person (session or bearer ID token). Visitors get 401; API keys and service tokens 403.",
  session: "A signed-in session (the session cookie) only.",
  "signed-link": "The signature in the query string is the credential (a link handed out by the API).",
  "service-secret": "A service credential's client id and secret, in the body.",
};

// --- Errors --------------------------------------------------------------------------------------

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input: the message and `field` name the parameter or field and what is wrong.",
  401: "No valid credential (sign in, or send a valid token or key).",
  403: "The caller may not do this (role, scope, ownership, or a cookie request from another site).",
  404: "No such item, or not visible to the caller.",
  405: "Method not allowed on this path.",
  409: "Conflict with the current state (a stale version, a taken name, a state that does not allow it).",
  410: "Gone.",
  416: "The requested byte range lies outside the object.",
  413: "The request body is too large.",
  415: "Unsupported media type.",
  429: "Rate limited: wait `retryAfterS` seconds (also in Retry-After).",
  500: "An unexpected error (logged; no details are given).",
  503: "A provider or dependency is unavailable.",
};

function errorStatuses(route: ApiRoute): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  const params = pathParameterNames(route.path).length > 0;
  if (route.query || route.body || route.rawBody || route.params || params) statuses.add(400);
  if (route.body) statuses.add(413);
  if (route.access !== "public") statuses.add(route.access === "signed-link" ? 403 : 401);
  if (route.who || route.mutates || route.access === "person" || route.scopes) statuses.add(403);
  if (route.access === "reader") statuses.add(403);
  if (params) statuses.add(404);
  statuses.add(429);
  statuses.add(500);
  statuses.delete(200);
  return [...statuses].sort((a, b) => a - b);
}

// --- The document --------------------------------------------------------------------------------

const TAG_TEXT: Record<string, string> = {
  Content: "Published content: lists, items and their bodies.",
  Search: "Full-text search over what the caller may read.",
  "Content writing": "Creating and editing content, the workflow and versions (content writers).",
  Comments: "Comments, replies, likes and reports.",
  Reading: "Bookmarks, the dashboard and reading time (personal data).",
  Engagement: "Views, likes, shares and course progress.",
  Learning: "Completion rules, certificates and reading reports.",
  Notifications: "Notification preferences and followed sections.",
  Account: "The signed-in person's account, profile, sessions and data.",
  Credentials: "ID tokens, API keys and service credentials.",
  Organisations: "Organisations, members and invitations.",
  Billing: "Subscriptions, checkout and invoices.",
  Plans: "The plans and what they unlock.",
  Media: "Uploads and the media library.",
  Objects: "Stored objects behind signed links.",
  Repositories: "The repository browser.",
  Studio: "The writers' studio.",
  Moderation: "Moderation queues and restrictions.",
  "Admin: users": "User administration (platform admins; organisation admins for their members).",
  "Admin: content": "Featured items, categories and collections (platform admins).",
  "Admin: repositories": "Synchronised repositories (platform admins).",
  "Admin: subscriptions": "Subscriptions (platform admins).",
  "Admin: analytics": "Analytics and the overview (platform admins).",
  "Admin: audit": "The audit log (platform admins).",
  "Admin: settings": "System settings (platform admins read, the owner changes).",
  "Admin: security": "Sessions, lockouts and credentials (the platform owner).",
  "Admin: operations": "Processes, jobs and the database (the platform owner).",
  Reference: "This document and its page.",
};

/** The operation id of a route: method and path in camel case (`getApiContentIdOrSlug`). */
function operationId(route: ApiRoute): string {
  const words = openApiPath(route.path)
    .replace(/^\/api\//, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return route.method + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}

function operationOf(route: ApiRoute, components: Record<string, JsonSchema>): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = [];
  for (const name of pathParameterNames(route.path)) {
    const schema = route.params?.[name];
    parameters.push({
      name,
      in: "path",
      required: true,
      schema: schema ? toSchema(schema, "input", components) : { type: "string" },
    });
  }
  if (route.query) {
    const json = toSchema(route.query, "input", components);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        ...(typeof description === "string" ? { description } : {}),
        schema: rest,
      });
    }
  }
  const responses: Record<string, unknown> = {};
  const success = route.responses ?? { 200: { description: "OK" } };
  for (const [status, answer] of Object.entries(success)) {
    const contentType = answer.contentType ?? "application/json";
    responses[status] =
      status === "204"
        ? { description: answer.description }
        : {
            description: answer.description,
            content: {
              [contentType]: answer.schema
                ? { schema: toSchema(answer.schema, "output", components) }
                : contentType === "application/json"
                  ? { schema: { type: "object" } }
                  : {},
            },
          };
  }
  for (const status of errorStatuses(route))
    responses[status] = { $ref: `#/components/responses/E${status}` };
  const access = [ACCESS_TEXT[route.access], route.who ? `Also: ${route.who}.` : ""]
    .filter(Boolean)
    .join(" ");
  const operation: Record<string, unknown> = {
    operationId: operationId(route),
    summary: route.summary,
    description: [route.description, `**Access.** ${access}`].filter(Boolean).join("\n\n"),
    tags: [route.tag],
    security: securityOf(route),
    ...(parameters.length ? { parameters } : {}),
    responses,
    "x-access": route.access,
    ...(route.who ? { "x-who": route.who } : {}),
  };
  if (route.body) {
    operation.requestBody = {
      required: true,
      content: { "application/json": { schema: toSchema(route.body, "input", components) } },
    };
  } else if (route.rawBody) {
    operation.requestBody = {
      required: true,
      description: route.rawBody.description,
      content: { [route.rawBody.contentType]: {} },
    };
  }
  return operation;
}

/** Builds the OpenAPI 3.1 document from the route declarations. */
export function buildOpenApiDocument(routes: readonly ApiRoute[] = API_ROUTES): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  schemas.Error = toSchema(errorEnvelopeSchema, "output", schemas);
  const paths: OpenApiDocument["paths"] = {};
  const seen = new Set<string>();
  for (const route of routes) {
    const path = openApiPath(route.path);
    const key = `${route.method} ${path}`;
    if (seen.has(key)) throw new Error(`The route ${key} is declared twice`);
    seen.add(key);
    paths[path] ??= {};
    paths[path][route.method] = operationOf(route, schemas);
  }
  const usedTags = [...new Set(routes.map((r) => r.tag))];
  const errorResponses: Record<string, unknown> = {};
  for (const [status, description] of Object.entries(ERROR_TEXT)) {
    errorResponses[`E${status}`] = {
      description,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Lumen Hub REST API",
      version: REST_API_VERSION,
      description:
        'The REST API of Lumen Hub. Every error answers the envelope `{ "error": { "code", "message", "field"?, "retryAfterS"? } }`. Requests are rate limited per caller (429 with Retry-After). The data API (GraphQL) is described by its SDL, `docs/api/schema.graphql` in the repository (also at `/graphql/schema.graphql`, in production for signed-in callers and API keys); sign-in (`/api/auth/*`) is Better Auth\'s API.',
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    servers: [{ url: "/", description: "This server" }],
    tags: usedTags.map((name) => ({ name, ...(TAG_TEXT[name] ? { description: TAG_TEXT[name] } : {}) })),
    paths,
    components: { schemas, responses: errorResponses, securitySchemes },
  };
}

let built: OpenApiDocument | null = null;
/** The document of this process's routes (built once). */
export function apiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument();
  return built;
}

let cached: string | null = null;

/** The document as JSON text (built once per process), as served and as committed. */
export function openApiJson(): string {
  cached ??= `${JSON.stringify(apiDocument(), null, 2)}\n`;
  return cached;
}

// --- Serving -------------------------------------------------------------------------------------

/**
 * `GET /api/openapi.json` and `GET /api/docs`: public (they describe routes, never data) and
 * cacheable for five minutes (the JSON also gets the compression middleware's ETag).
 */
export function registerApiReference(
  // biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
  app: Hono<any>,
  options: { sdlServed: boolean },
): void {
  app.get(OPENAPI_PATH, (c) =>
    c.body(openApiJson(), 200, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    }),
  );
  app.get(API_DOCS_PATH, (c) =>
    c.html(
      renderApiReference(apiDocument(), { nonce: c.get("nonce") ?? "", sdlServed: options.sdlServed }),
      200,
      { "Cache-Control": "public, max-age=300" },
    ),
  );
}
