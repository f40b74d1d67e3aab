/**
 * A request fuzzer against three app processes behind the proxy (decision 029): fast-check
 * generates REST and GraphQL requests (paths from the route table and from the API routes the
 * server registers, with generated ids, query strings, bodies, headers and methods; anonymous,
 * signed in as a reader, a content manager or the owner, or with garbage credentials). No answer
 * may be a 5xx and no connection may fail. FUZZ_RUNS requests (default 10,000; `npm run fuzz`:
 * 100,000), FUZZ_SEED to replay a run (printed on failure).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flattenRoutes } from "../../core/routes.ts";
import { ROOT } from "../../scripts/cluster/cluster.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { signInCookie } from "../helpers/auth.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { CLUSTER_DATABASE, type ScaleCluster, startScaleCluster } from "./scale-cluster.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 12;

/** Every `/api/…` path the server's HTTP modules name (their route patterns, wildcards dropped). */
function apiPaths(): string[] {
  const dir = path.join(ROOT, "server", "http");
  const found = new Set<string>(["/graphql", "/api/health"]);
  for (const file of readdirSync(dir)) {
    if (!file.endsWith(".ts") || file.includes(".test.")) continue;
    for (const m of readFileSync(path.join(dir, file), "utf8").matchAll(/["`](\/api\/[^"`*${}\s]*)["`]/g)) {
      found.add(m[1]!);
    }
  }
  return [...found].sort();
}

/** Paths that would end the fuzzer's own sessions (their answers are checked anonymously anyway). */
const SESSION_ENDING = /\/api\/auth\/(sign-out|revoke)|\/api\/account\/(sessions|delete)/;

const GRAPHQL_TEMPLATES = [
  "{ apiVersion }",
  "query ($slug: String!) { listContentBySlug(slug: $slug) { items { id slug title tier locked url } } }",
  "query ($id: ID!) { getContent(id: $id) { id slug title tier excerpt commentCount contentCategory { slug label } } }",
  "query ($filter: ContentFilter, $limit: Int, $nextToken: String) { listContents(filter: $filter, limit: $limit, nextToken: $nextToken) { items { slug title section tier } nextToken } }",
  "query ($contentId: String!) { listCommentByContentIdAndCreatedAt(contentId: $contentId) { items { id body createdAt author { displayName } } nextToken } }",
  "query ($section: String!, $publishedAt: DateTimeKeyCondition) { listContentBySectionAndPublishedAt(section: $section, publishedAt: $publishedAt, sortDirection: DESC, limit: 5) { items { slug tier publishedAt locked } nextToken } }",
  "{ listGitHubRepositories(limit: 5) { items { slug } } }",
  "query ($id: ID!) { contentHistory(id: $id) { action from to actorName } contentVersions(id: $id) { version title } }",
  "{ mediaLibrary(kind: image, limit: 10) { items { ref fileName alt } nextToken } }",
  "mutation ($input: CreateContentInput!) { createContent(input: $input) { id slug status version } }",
  "mutation ($id: ID!, $version: Int!, $input: UpdateContentInput!) { updateContent(id: $id, version: $version, input: $input) { id title version } }",
  "mutation ($id: ID!, $version: Int) { deleteContent(id: $id, version: $version) { id } }",
  "mutation ($c: String!, $b: String!) { createComment(input: { contentId: $c, body: $b }) { id } }",
  'mutation ($id: ID!) { transitionContent(id: $id, action: "submit", version: 1) { item { version } } }',
  "{ __schema { types { name } } }",
  "{ a: apiVersion b: apiVersion c: apiVersion }",
  "{ listContents(limit: 1000) { items { slug } } }",
  "query { listContents { items { contentCategory { slug } } } ",
  "subscription { x }",
  "",
];

describe.skipIf(!CLUSTER_DATABASE)("a fuzzer of REST and GraphQL requests through the proxy", () => {
  let cluster: ScaleCluster;
  const credentials: Record<string, string> = {};
  const ids: string[] = [];
  const slugs: string[] = [];

  beforeAll(async () => {
    cluster = await startScaleCluster(RAISED_RATE_LIMITS);
    const first = cluster.processes[0]!.url;
    for (const who of ["pro", "manager", "owner"]) {
      credentials[who] = await signInCookie(first, `${who}@demo.local`, DEMO_PASSWORD);
    }
    const list = (await (await fetch(`${cluster.url}/api/content?limit=20`)).json()) as {
      items: { id: string; slug: string }[];
    };
    for (const item of list.items) {
      ids.push(item.id);
      slugs.push(item.slug);
    }
    const comment = await cluster.db.query("select id from comment limit 3");
    for (const row of comment.rows as { id: string }[]) ids.push(row.id);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it(`${RUNS.toLocaleString("en")} generated requests: no 5xx answer, no failed connection`, async () => {
    const pages = flattenRoutes().map((r) => r.path);
    const apis = apiPaths();
    expect(apis.length).toBeGreaterThan(50);

    const oddText = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 20 }),
      fc.constantFrom(
        "",
        " ",
        "null",
        "undefined",
        "NaN",
        "-1",
        "0",
        "1e309",
        "../../etc/passwd",
        "%00",
        "%",
        "💥",
        "<script>",
      ),
      fc.constant("x".repeat(5000)),
    );
    const segment = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ids, ...slugs) },
      { weight: 3, arbitrary: oddText.map((s) => encodeURIComponent(s)) },
      { weight: 1, arbitrary: fc.constantFrom("%", "%E0%A4%A", "..", ".", "%2e%2e", "a%2Fb", "%00") },
      { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 ** 40 }).map(String) },
    );
    const fill = (pattern: string, values: string[]) => {
      let k = 0;
      return pattern
        .replace(/:[A-Za-z]+\??/g, () => values[k++ % values.length] ?? "x")
        .replace(/\*$/, values[0] ?? "x");
    };
    const pathArb = fc
      .oneof(
        {
          weight: 5,
          arbitrary: fc.tuple(fc.constantFrom(...apis), fc.array(segment, { minLength: 1, maxLength: 3 })),
        },
        {
          weight: 3,
          arbitrary: fc.tuple(fc.constantFrom(...pages), fc.array(segment, { minLength: 1, maxLength: 3 })),
        },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constant("/"), fc.array(segment, { minLength: 1, maxLength: 4 })),
        },
      )
      .map(([pattern, values]) =>
        pattern === "/"
          ? `/${values.join("/")}`
          : fill(pattern, values) + (values.length > 2 ? `/${values[2]}` : ""),
      );
    const queryArb = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            "limit",
            "cursor",
            "sort",
            "q",
            "tier",
            "section",
            "category",
            "page",
            "type",
            "status",
            "debug",
            "from",
            "to",
            "nextToken",
            "query",
            "variables",
            "period",
            "filter",
            "kind",
            "_data",
            "index",
          ),
          fc.oneof(
            oddText,
            fc.integer({ min: -5, max: 10_000 }).map(String),
            fc.constantFrom("true", "[]", "{}"),
          ),
        ),
        { maxLength: 4 },
      )
      .map((pairs) =>
        pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}` : "",
      );
    const jsonBody = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(
        fc.constantFrom(
          "title",
          "slug",
          "body",
          "tier",
          "version",
          "action",
          "at",
          "email",
          "password",
          "name",
          "scopes",
          "contentId",
          "parentCommentId",
          "alt",
          "settings",
          "from",
          "role",
          "plan",
          "reason",
        ),
        fc.oneof(oddText, fc.integer(), fc.boolean(), fc.constant(null), fc.array(oddText, { maxLength: 3 })),
      ),
    );
    const graphqlBody = fc
      .record({
        query: fc.oneof(fc.constantFrom(...GRAPHQL_TEMPLATES), oddText),
        variables: fc.option(
          fc.dictionary(
            fc.constantFrom(
              "slug",
              "id",
              "contentId",
              "section",
              "limit",
              "nextToken",
              "filter",
              "input",
              "version",
              "c",
              "b",
            ),
            fc.oneof(
              fc.constantFrom(...ids, ...slugs),
              oddText,
              fc.integer({ min: -10, max: 5000 }),
              fc.jsonValue({ maxDepth: 2 }),
            ),
          ),
          { nil: undefined },
        ),
        operationName: fc.option(oddText, { nil: undefined }),
      })
      .map((b) => JSON.stringify(b));
    const bodyArb = fc.oneof(
      { weight: 4, arbitrary: jsonBody.map((b) => ({ type: "application/json", text: JSON.stringify(b) })) },
      { weight: 1, arbitrary: oddText.map((t) => ({ type: "application/json", text: t })) },
      { weight: 1, arbitrary: oddText.map((t) => ({ type: "text/plain", text: t })) },
      {
        weight: 1,
        arbitrary: oddText.map((t) => ({ type: "application/x-www-form-urlencoded", text: `a=${t}` })),
      },
      { weight: 1, arbitrary: oddText.map((t) => ({ type: "multipart/form-data; boundary=x", text: t })) },
    );
    const headerArb = fc.record(
      {
        accept: fc.constantFrom("*/*", "application/json", "text/html", "text/event-stream", "garbage/x"),
        "accept-encoding": fc.constantFrom("gzip", "br", "identity", "gzip;q=0, br;q=0", "zstd"),
        "if-none-match": fc.constantFrom('"x"', "*", 'W/"1"'),
        range: fc.constantFrom("bytes=0-10", "bytes=9999999-", "bytes=x"),
        "x-api-key": fc.constantFrom("lh_000000000000_garbage", "x", ""),
        authorization: fc.constantFrom("Bearer garbage", "Bearer a.b.c", "Basic eDp5", "Bearer "),
        "accept-language": fc.constantFrom("en", "de-DE,de;q=0.9", "*", "x".repeat(300)),
      },
      { requiredKeys: [] },
    );
    const who = fc.constantFrom("visitor", "visitor", "pro", "manager", "owner", "garbage-cookie");
    const origin = fc.constantFrom("same", "none", "https://evil.example");
    const requestArb = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
          path: pathArb,
          query: queryArb,
          body: fc.option(bodyArb, { nil: undefined }),
          headers: headerArb,
          who,
          origin,
          graphql: fc.constant(false),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          method: fc.constantFrom("POST", "GET"),
          path: fc.constant("/graphql"),
          query: fc.constant(""),
          body: graphqlBody.map((text) => ({ type: "application/json", text })),
          headers: headerArb,
          who,
          origin,
          graphql: fc.constant(true),
        }),
      },
    );

    const requests = fc.sample(requestArb, { numRuns: RUNS, seed: SEED });
    const problems: string[] = [];
    let index = 0;
    let done = 0;
    const worker = async () => {
      while (index < requests.length) {
        const r = requests[index++]!;
        let url = `${cluster.url}${r.path}${r.query}`;
        let body: string | undefined = r.body?.text;
        if (r.graphql && r.method === "GET" && body) {
          const parsed = JSON.parse(body) as { query?: string };
          url = `${cluster.url}/graphql?query=${encodeURIComponent(String(parsed.query ?? ""))}`;
          body = undefined;
        }
        const headers: Record<string, string> = { ...r.headers };
        const signedIn = r.who !== "visitor" && r.who !== "garbage-cookie";
        if (signedIn && !SESSION_ENDING.test(r.path)) headers.cookie = credentials[r.who]!;
        if (r.who === "garbage-cookie") headers.cookie = "lumen.session_token=garbage.signature; other=1";
        if (r.origin === "same") headers.origin = cluster.url;
        else if (r.origin !== "none") headers.origin = r.origin;
        const sendsBody = body !== undefined && r.method !== "GET" && r.method !== "HEAD";
        if (sendsBody) headers["content-type"] = r.body!.type;
        const short = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…(${text.length})` : text);
        const label = `${r.method} ${short(r.path + r.query)} as ${r.who}${sendsBody ? ` body ${short(body!)}` : ""}`;
        try {
          const res = await fetch(url, {
            method: r.method,
            headers,
            body: sendsBody ? body : undefined,
            redirect: "manual",
            signal: AbortSignal.timeout(30_000),
          });
          const text = await res.text();
          if (res.status >= 500) {
            const sent = JSON.stringify({ ...headers, cookie: headers.cookie ? r.who : undefined });
            problems.push(`${res.status} ${label} headers ${short(sent)} → ${text.slice(0, 200)}`);
          }
        } catch (error) {
          problems.push(`failed ${label}: ${(error as Error).message}`);
        }
        done++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(done).toBe(RUNS);
    expect(problems.slice(0, 20), `FUZZ_SEED=${SEED}: ${problems.length} problems`).toEqual([]);
  }, 1_800_000);
});
