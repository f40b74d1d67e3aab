/**
 * `/graphql` on the Hono app: POST (and GET for queries; GraphiQL outside production). Before
 * Yoga sees a request: the body limit (413), the caller's credential (`resolveActor`: a present
 * but invalid one → 401 UNAUTHENTICATED, a rate-limited API key → 429 RATE_LIMITED with
 * Retry-After, both as GraphQL errors), and whether it came from this site (the CSRF check that
 * the mutation gate applies to cookie sessions). The rate-limit middleware (`rate-limit.ts`) has
 * charged the request and left its caller here; the operation's cost is charged in Yoga.
 */
import type { Hono } from "hono";
import { RATE_CALLER, type RateCaller, rateLimitHeaders } from "../http/rate-limit.ts";
import { allowedOrigins, readLimited, requestOrigin } from "../http/toolkit.ts";
import type { Runtime } from "../runtime.ts";
import type { GraphQLServerContext, GraphQLServices } from "./context.ts";
import { API_VERSION, GRAPHQL_LIMITS } from "./limits.ts";
import { createGraphQLYoga, type GraphQLMode } from "./yoga.ts";

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

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
export function registerGraphQL(app: Hono<any>, runtime: Runtime, mode: GraphQLMode): void {
  const yoga = createGraphQLYoga({ mode, logger: runtime.logger });
  const services: GraphQLServices = {
    content: runtime.services.contentModels,
    subscriptions: runtime.services.subscriptions,
    users: runtime.services.users,
    comments: runtime.services.comments,
    repositories: runtime.services.repositories,
  };

  app.on(["GET", "POST"], "/graphql", async (c) => {
    let body: Uint8Array | undefined;
    if (c.req.method === "POST") {
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
    const resolved = await runtime.identity.resolveActor(c.req.raw.headers);
    if (!resolved.ok) {
      return errorResponse(
        resolved.status,
        resolved.code,
        resolved.message,
        resolved.retryAfterS !== undefined ? { "retry-after": String(resolved.retryAfterS) } : {},
      );
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
    return new Response(response.body, { status: response.status, headers });
  });
}
