/**
 * The REST route registry (decision 034): each `*-api.ts` module declares its routes here, next to
 * the handlers that serve them — method, Hono path, summary, tag, who may call it, and the zod
 * schemas its handler validates with (the same constants, never copies). `server/http/openapi.ts`
 * turns the declarations into the OpenAPI 3.1 document (`GET /api/openapi.json`), and
 * `openapi.unit.test.ts` fails when the Hono app's routes and the declarations disagree.
 *
 * This module only holds types and the declaration helper: it imports nothing of the server, so
 * every API module can use it without import cycles.
 */
import type { z } from "zod";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call a route (the credentials it accepts; the handler enforces it):
 *
 * - `public`: anyone, no credential read (a visitor's answer).
 * - `reader`: visitors too; a session, a bearer ID token, an API key or a service token (API keys
 *   and service tokens need `scopes`, by default `content:read`) decides what the answer shows.
 * - `person`: a signed-in person: a session or a bearer ID token. Visitors 401; API keys and
 *   service tokens 403.
 * - `session`: a session cookie only (account security, sign-in tokens).
 * - `signed-link`: the signature in the query string is the credential (links the API hands out).
 * - `service-secret`: a service credential's client id and secret in the body (token exchange).
 */
export type Access = "public" | "reader" | "person" | "session" | "signed-link" | "service-secret";

export interface RouteResponse {
  description: string;
  /** The answer's shape, when the module has a schema for it. */
  schema?: z.ZodType;
  /** The media type (default application/json). */
  contentType?: string;
}

export interface ApiRoute {
  method: HttpMethod;
  /** The Hono path, exactly as registered (`/api/content/:idOrSlug`, `/api/objects/*`). */
  path: string;
  summary: string;
  /** Longer text (Markdown). */
  description?: string;
  tag: string;
  access: Access;
  /** The role or ownership also required ("platform admins", "the comment's author"). */
  who?: string;
  /** Scopes an API key or service token needs (access `reader`; default `content:read`). */
  scopes?: readonly string[];
  /** A state change: cookie-authenticated calls must come from this site (403 FORBIDDEN_ORIGIN). */
  mutates?: boolean;
  /** The query string's schema (an object schema; each key becomes a parameter). */
  query?: z.ZodType;
  /** Path parameter schemas by name; parameters not named here are documented as strings. */
  params?: Record<string, z.ZodType>;
  /** The JSON request body's schema. */
  body?: z.ZodType;
  /** A body that is not JSON (an upload): media type → description. */
  rawBody?: { contentType: string; description: string };
  /** Successful answers by status (default: 200, "OK", JSON). */
  responses?: Record<number, RouteResponse>;
  /** Error statuses beyond the ones derived from `access`, the schemas and `mutates`. */
  errors?: readonly number[];
}

/** Declares a module's routes (typed; returned as given). */
export function defineRoutes(routes: readonly ApiRoute[]): readonly ApiRoute[] {
  return routes;
}

/** A Hono path as an OpenAPI path: `:name` (and `:name{regex}`) → `{name}`, `*` → `{path}`. */
export function openApiPath(honoPath: string): string {
  return honoPath
    .replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}")
    .replace(/\/\*$/, "/{path}")
    .replace(/\*$/, "{path}");
}

/** The names of a Hono path's parameters, in order (`*` → `path`). */
export function pathParameterNames(honoPath: string): string[] {
  return [...openApiPath(honoPath).matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
}

/**
 * Declarations that share a tag, access and role: `(method, path, summary, answer?, extra?)`.
 * Anything but GET is a state change (`mutates`) unless `extra` says otherwise.
 */
export function routeGroup(defaults: Pick<ApiRoute, "tag" | "access"> & Partial<ApiRoute>) {
  return (
    method: HttpMethod,
    path: string,
    summary: string,
    answer?: string,
    extra: Partial<ApiRoute> = {},
  ): ApiRoute => ({
    ...defaults,
    method,
    path,
    summary,
    ...(method === "get" ? {} : { mutates: true }),
    ...(answer ? { responses: { 200: { description: answer } } } : {}),
    ...extra,
  });
}

/** The OpenAPI 3.1 document's outline (`openapi.ts` builds it). */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: Record<string, unknown>;
  jsonSchemaDialect: string;
  servers: { url: string; description: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, unknown>>;
}
