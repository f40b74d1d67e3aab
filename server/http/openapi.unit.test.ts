/**
 * The REST reference against the app (decision 034): every `/api/` route the Hono app serves is
 * in the OpenAPI document and every documented operation is served (both ways), the document is
 * valid OpenAPI 3.1, a documented request schema rejects what its handler rejects, and the
 * reference endpoints answer publicly.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { SDL_PATH, schemaSdl } from "../graphql/sdl.ts";
import type { Runtime } from "../runtime.ts";
import { createHttpApp } from "./app.ts";
import { registerContentApi } from "./content-api.ts";
import { API_ROUTES, buildOpenApiDocument, OPENAPI_PATH, openApiJson } from "./openapi.ts";
import { openApiPath } from "./openapi-registry.ts";

/**
 * `/api/` routes that are not part of the public REST API, each with its reason. Keep it short:
 * anything a client of this product calls belongs in the document.
 */
const NOT_DOCUMENTED = new Map<string, string>([
  ["GET /api/health", "the load balancer's health probe (docs/operations.md), not an API for clients"],
  ["POST /api/billing/webhooks/stripe", "Stripe's webhook, signed by Stripe; only the provider calls it"],
  ["GET /api/auth/{path}", "Better Auth's own endpoints (sign-in, sign-up, …): Better Auth's shape and docs"],
  [
    "POST /api/auth/{path}",
    "Better Auth's own endpoints (sign-in, sign-up, …): Better Auth's shape and docs",
  ],
]);

/** A runtime whose every property is a callable stub: registering routes reads nothing of it. */
function stubRuntime(): Runtime {
  const stub = (): unknown =>
    new Proxy(() => {}, {
      get: (_target, key) => (key === "then" ? undefined : key === Symbol.toPrimitive ? () => "" : stub()),
      apply: () => stub(),
    });
  return new Proxy({} as Runtime, { get: (_target, key) => (key === "env" ? {} : stub()) });
}

/** The app's served `/api/` operations as "METHOD /openapi/{path}". */
function servedOperations(): Set<string> {
  const app = createHttpApp({ runtime: stubRuntime(), build: {} as never, mode: "production" });
  const served = new Set<string>();
  for (const route of app.routes) {
    // ALL entries are middleware (`app.use`: body limits, Origin checks, the media upload's
    // connection close) and catch-alls that refuse (405 on /api/objects, the /api/* 404): no endpoint.
    if (route.method === "ALL" || !route.path.startsWith("/api/")) continue;
    served.add(`${route.method} ${openApiPath(route.path)}`);
  }
  return served;
}

function documentedOperations(doc = buildOpenApiDocument()): Set<string> {
  const documented = new Set<string>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`);
  }
  return documented;
}

/** Served operations the document lacks (outside the allow-list). */
const undocumented = (served: Set<string>, documented: Set<string>) =>
  [...served].filter((op) => !documented.has(op) && !NOT_DOCUMENTED.has(op));

describe("the OpenAPI document and the app's routes", () => {
  const served = servedOperations();
  const documented = documentedOperations();

  it("documents every /api/ route the app serves (outside the commented allow-list)", () => {
    expect(
      undocumented(served, documented),
      "served but not in the document: declare them next to their handlers",
    ).toEqual([]);
    expect(served.size).toBeGreaterThan(100);
  });

  it("documents no operation the app does not serve", () => {
    const phantom = [...documented].filter((op) => !served.has(op));
    expect(phantom, "in the document but not served").toEqual([]);
  });

  it("keeps the allow-list to routes that exist and are not documented", () => {
    for (const op of NOT_DOCUMENTED.keys()) {
      expect(served.has(op), `${op} is allow-listed but not served`).toBe(true);
      expect(documented.has(op), `${op} is allow-listed and documented`).toBe(false);
    }
  });

  it("fails when a route is missing from the declarations", () => {
    // The same comparison with one declaration left out names that route.
    const left = API_ROUTES[3]!;
    const partial = documentedOperations(buildOpenApiDocument(API_ROUTES.filter((r) => r !== left)));
    expect(undocumented(served, partial)).toEqual([`${left.method.toUpperCase()} ${openApiPath(left.path)}`]);
  });
});

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(openApiJson()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has unique operation ids and resolvable references", () => {
    const doc = buildOpenApiDocument();
    const ids = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId as string),
    );
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/([^"]+)"/g)) {
      const [kind, name] = ref!.split("/");
      expect(doc.components[kind!]?.[name!], `#/components/${ref}`).toBeDefined();
    }
  });

  it("describes the credentials as security schemes and uses them", () => {
    const doc = buildOpenApiDocument();
    expect(Object.keys(doc.components.securitySchemes!)).toEqual([
      "sessionCookie",
      "bearerIdToken",
      "apiKey",
      "serviceToken",
    ]);
    const list = doc.paths["/api/content"]!.get!;
    expect(list.security).toContainEqual({ apiKey: ["content:read"] });
    expect(list.security).toContainEqual({}); // visitors read too
    const bookmarks = doc.paths["/api/bookmarks"]!.get!;
    expect(bookmarks.security).toEqual([{ sessionCookie: [] }, { bearerIdToken: [] }]);
    expect(doc.paths["/api/plans"]!.get!.security).toEqual([]);
  });

  it("answers errors with the toolkit's envelope", () => {
    const doc = buildOpenApiDocument();
    const error = doc.components.schemas!.Error as { properties: { error: { required: string[] } } };
    expect(error.properties.error.required).toEqual(["code", "message"]);
    const responses = doc.paths["/api/search"]!.get!.responses as Record<string, unknown>;
    expect(responses["400"]).toEqual({ $ref: "#/components/responses/E400" });
  });
});

describe("a documented request schema is the one the handler validates with", () => {
  const doc = buildOpenApiDocument();
  const parameters = doc.paths["/api/content"]!.get!.parameters as {
    name: string;
    schema: Record<string, unknown>;
  }[];
  const ajv = new Ajv2020({ strict: false });
  /** Whether the document accepts a query string (each value, and no parameter it does not list). */
  const documentAccepts = (query: Record<string, string>) =>
    Object.entries(query).every(([name, value]) => {
      const parameter = parameters.find((p) => p.name === name);
      if (!parameter) return false;
      const schema = parameter.schema;
      const typed = schema.type === "integer" || schema.type === "number" ? Number(value) : value;
      return ajv.validate(schema, typed);
    });

  /** The content API alone, with a caller lookup that answers 401 (reached only past validation). */
  function contentApp() {
    const app = new Hono<{ Variables: { nonce: string; clientIp: string } }>();
    const runtime = {
      identity: {
        resolveActor: async () => ({ ok: false, status: 401, code: "UNAUTHENTICATED", message: "no" }),
      },
      logger: { error() {}, warn() {}, info() {} },
      bodyLinks: {},
      services: { content: {} },
    } as unknown as Parameters<typeof registerContentApi>[1];
    registerContentApi(app, runtime);
    return app;
  }
  const app = contentApp();
  const statusOf = async (query: Record<string, string>) =>
    (await app.request(`/api/content?${new URLSearchParams(query)}`)).status;

  it.each([
    [{ limit: "0" }],
    [{ limit: "101" }],
    [{ limit: "2.5" }],
    [{ featured: "maybe" }],
    [{ section: "x".repeat(101) }],
    [{ unknown: "1" }],
  ])("rejects %j in the document and in the handler (400)", async (query) => {
    expect(documentAccepts(query)).toBe(false);
    expect(await statusOf(query)).toBe(400);
  });

  it.each([[{ limit: "1" }], [{ limit: "100", featured: "true", section: "ai-news" }]])(
    "accepts %j in the document and in the handler",
    async (query) => {
      expect(documentAccepts(query)).toBe(true);
      expect(await statusOf(query)).toBe(401); // past validation: the stub's caller lookup answers
    },
  );
});

describe("the reference endpoints", () => {
  const app = createHttpApp({ runtime: stubRuntime(), build: {} as never, mode: "production" });

  it("serves the document publicly, cacheable, as committed", async () => {
    const response = await app.request(OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await response.text()).toBe(openApiJson());
  });

  it("renders the reference page without outside scripts, under the app's CSP", async () => {
    const response = await app.request("/api/docs");
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-");
    const html = await response.text();
    expect(html).toContain('GET</span> <code class="path">/api/content</code>');
    expect(html).not.toMatch(/<script[^>]+src=/);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    for (const [, attrs] of html.matchAll(/<script([^>]*)>/g)) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(html).toContain("docs/api/schema.graphql"); // production: no SDL endpoint to link
  });

  /** The stub runtime whose caller lookup answers `kind` (a visitor, or a signed-in user). */
  const withCaller = (kind: "visitor" | "user") => {
    const base = stubRuntime();
    const identity = { resolveActor: async () => ({ ok: true, actor: { kind }, credential: {} }) };
    return new Proxy(base, {
      get: (target, key) => (key === "identity" ? identity : Reflect.get(target, key)),
    });
  };

  it("serves the SDL in production only to callers with a credential (introspection stays off for anonymous ones)", async () => {
    const anonymous = createHttpApp({
      runtime: withCaller("visitor"),
      build: {} as never,
      mode: "production",
    });
    const refused = await anonymous.request(SDL_PATH);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "docs/api/schema.graphql",
    );
    const signedIn = createHttpApp({ runtime: withCaller("user"), build: {} as never, mode: "production" });
    const served = await signedIn.request(SDL_PATH);
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toBe("private, max-age=300");
    expect(await served.text()).toBe(await schemaSdl());
  });
});

describe("the GraphQL SDL outside production (introspection on)", () => {
  const app = createHttpApp({ runtime: stubRuntime(), build: {} as never, mode: "test" });

  it("serves the printed schema as text, publicly", async () => {
    const response = await app.request(SDL_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(await schemaSdl());
  });

  it("links it from the reference page", async () => {
    const html = await (await app.request("/api/docs")).text();
    expect(html).toContain(`<a href="${SDL_PATH}">`);
  });
});
