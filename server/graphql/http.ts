/**
 * `/graphql` on the Hono app: POST (and GET for queries; GraphiQL outside production). Before
 * Yoga sees a request: the body limit (413), the caller's credential (`resolveActor`: a present
 * but invalid one → 401 UNAUTHENTICATED, a rate-limited API key → 429 RATE_LIMITED with
 * Retry-After, both as GraphQL errors), and whether it came from this site (the CSRF check that
 * the mutation gate applies to cookie sessions). The rate-limit middleware (`rate-limit.ts`) has
 * charged the request and left its caller here; the operation's cost is charged in Yoga.
 *
 * Multipart requests (files for `uploadMedia`) get the larger `maxUploadBytes`, and only from
 * callers who could upload at all: a signed-in content writer whose request may mutate (the
 * mutation gate's rule, CSRF included, since a form on another site can send multipart). Others
 * are refused before the body is read, so nobody else makes the server hold a large request.
 *
 * Yoga and the schema (graphql, Pothos, graphql-armor) are loaded and built on the first request
 * to /graphql, not at start: a process that never serves GraphQL never pays for them.
 */
import type { Hono } from "hono";
import { canWriteContent } from "../../core/index.ts";
import {
  type ApiCache,
  graphqlCacheable,
  graphqlCacheKey,
  storeVisitorQuery,
  visitorHeaders,
} from "../http/api-fast-path.ts";
import { RATE_CALLER, type RateCaller, rateLimitHeaders } from "../http/rate-limit.ts";
import { allowedOrigins, readLimited, requestOrigin } from "../http/toolkit.ts";
import { CONTENT_KEY_LISTS } from "../modules/content/content.service.ts";
import { UPLOAD_LIMITS } from "../modules/media/media.service.ts";
import type { Runtime } from "../runtime.ts";
import type { GraphQLServerContext, GraphQLServices } from "./context.ts";
import { API_VERSION, GRAPHQL_LIMITS } from "./limits.ts";
import type { GraphQLMode, GraphQLYoga } from "./yoga.ts";

const MULTIPART = /^multipart\/form-data\b/i;

/**
 * The root fields a visitor's stored query may ask for: published content, its categories and
 * items (each dropped with the content revision), and the API version. Comments, repositories,
 * media and accounts change without a content revision, so queries reaching them are never stored.
 */
const CONTENT_QUERY_FIELDS = new Set<string>([
  "apiVersion",
  "getContent",
  "listContents",
  ...Object.keys(CONTENT_KEY_LISTS),
  "getContentCategory",
  "listContentCategories",
  "getContentItem",
  "listContentItems",
]);
const MiB = 1024 * 1024;

const errorResponse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({ errors: [{ message, extensions: { code } }], extensions: { apiVersion: API_VERSION } }),
    {
      status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
    },
  );

/**
 * GraphiQL (development only) is one page with the IDE inlined, starting its editor workers from
 * blob: URLs: its own policy instead of the app's. Nothing is loaded from another origin.
 */
const GRAPHIQL_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; frame-ancestors 'none'";

export function registerGraphQL(
  // biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
  app: Hono<any>,
  runtime: Runtime,
  mode: GraphQLMode,
  /** The visitors' API cache (decision 025): visitors' queries are stored in it when given. */
  apiCache?: ApiCache,
): void {
  let loading: Promise<{
    yoga: GraphQLYoga;
    mutationRefusal: typeof import("./yoga.ts").mutationRefusal;
  }> | null = null;
  const graphql = () => {
    loading ??= import("./yoga.ts").then((module) => ({
      yoga: module.createGraphQLYoga({ mode, logger: runtime.logger }),
      mutationRefusal: module.mutationRefusal,
    }));
    // A failed load is retried by the next request instead of being remembered.
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
  const services: GraphQLServices = {
    content: runtime.services.contentModels,
    subscriptions: runtime.services.subscriptions,
    users: runtime.services.users,
    comments: runtime.services.comments,
    repositories: runtime.services.repositories,
  };

  app.on(["GET", "POST"], "/graphql", async (c) => {
    const multipart = c.req.method === "POST" && MULTIPART.test(c.req.header("content-type") ?? "");
    // A refused multipart request is answered before its body is read: close the connection so
    // the client does not send its next request after the unread rest.
    const unread = multipart ? { connection: "close" } : undefined;
    let body: Uint8Array | undefined;
    if (c.req.method === "POST" && !multipart) {
      const read = await readLimited(c.req.raw, GRAPHQL_LIMITS.maxBodyBytes);
      if (read === null) {
        return errorResponse(
          413,
          "PAYLOAD_TOO_LARGE",
          `The request body is larger than ${GRAPHQL_LIMITS.maxBodyBytes / 1024} KB.`,
        );
      }
      body = read;
    }
    // A visitor's small JSON query may be stored for the node-level fast path (api-fast-path.ts).
    const cacheKey =
      apiCache &&
      body &&
      c.req.method === "POST" &&
      new URL(c.req.url).search === "" &&
      visitorHeaders((name) => c.req.header(name)) &&
      graphqlCacheable(c.req.header("content-type"), body.byteLength)
        ? graphqlCacheKey(c.req.header("accept"), body)
        : null;
    const renderedAt = apiCache?.generation ?? 0;
    const resolved = await runtime.identity.resolveActor(c.req.raw.headers);
    if (!resolved.ok) {
      return errorResponse(resolved.status, resolved.code, resolved.message, {
        ...unread,
        ...(resolved.retryAfterS !== undefined ? { "retry-after": String(resolved.retryAfterS) } : {}),
      });
    }
    const origin = requestOrigin(c);
    const caller = c.get(RATE_CALLER) as RateCaller | undefined;
    const serverContext: GraphQLServerContext = {
      identity: resolved.credential,
      actor: resolved.actor,
      services,
      links: runtime,
      sameOrigin: origin !== null && allowedOrigins(c, runtime).has(origin),
      rateLimit: caller ? { charge: (units) => runtime.rateLimits.charge(caller, units) } : undefined,
    };
    const { yoga, mutationRefusal } = await graphql();
    if (multipart) {
      const refusal = mutationRefusal(serverContext);
      if (refusal) {
        const status = refusal.extensions.code === "UNAUTHENTICATED" ? 401 : 403;
        return errorResponse(status, String(refusal.extensions.code), refusal.message, unread);
      }
      if (!canWriteContent(resolved.actor.access)) {
        return errorResponse(
          403,
          "FORBIDDEN",
          "Only content creators, editors, content managers and admins may upload files.",
          unread,
        );
      }
      const read = await readLimited(c.req.raw, GRAPHQL_LIMITS.maxUploadBytes);
      if (read === null) {
        return errorResponse(
          413,
          "PAYLOAD_TOO_LARGE",
          `A multipart GraphQL request is limited to ${Math.floor(GRAPHQL_LIMITS.maxUploadBytes / MiB)} MiB; upload larger files (videos up to ${UPLOAD_LIMITS.video / MiB} MiB) with POST /api/media, which streams them.`,
          unread,
        );
      }
      body = read;
    }
    const request = new Request(c.req.url, {
      method: c.req.method,
      headers: c.req.raw.headers,
      body: body as BodyInit | undefined,
    });
    const response = await yoga.handleRequest(request, serverContext);
    const headers = new Headers(response.headers);
    headers.set("cache-control", "private, no-store");
    const verdict = serverContext.rateLimit?.verdict;
    if (verdict) {
      for (const [name, value] of Object.entries(rateLimitHeaders(verdict))) headers.set(name, value);
      if (!verdict.ok) return new Response(response.body, { status: 429, headers });
    }
    if (mode !== "production" && (headers.get("content-type") ?? "").includes("text/html")) {
      headers.set("content-security-policy", GRAPHIQL_CSP);
    }
    const charged = serverContext.rateLimit?.charged;
    if (
      apiCache &&
      cacheKey &&
      resolved.credential.kind === "visitor" &&
      verdict?.ok &&
      charged?.operation === "query" &&
      charged.rootFields.every((field) => CONTENT_QUERY_FIELDS.has(field)) &&
      !charged.write &&
      !charged.comment &&
      !headers.has("set-cookie")
    ) {
      return storeVisitorQuery(
        apiCache,
        cacheKey,
        new Response(response.body, { status: response.status, headers }),
        renderedAt,
        charged.graphqlCost ?? 0,
      );
    }
    return new Response(response.body, { status: response.status, headers });
  });
}
