/**
 * API rate limits (issue 10 point 7, decision 014), re-trying the attacks as reported: 700
 * parallel requests, 1,041 comments in a burst and 15 aliased 100-item lists, against the
 * production defaults on both dialects; then two server processes on one database share the
 * counts. The clock is frozen (TestClock) so a burst never straddles two windows; each test
 * starts in a fresh window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { TestClock } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const MINUTE = 60_000;
const FREE_ITEM = DEMO_CONTENT.find((c) => c.tier === "Free" && !c.rolesRequired?.length)!;

/** Runs `count` requests with at most `parallel` in flight; the answers' status codes. */
async function burst(count: number, parallel: number, send: (i: number) => Promise<Response>) {
  const statuses: number[] = [];
  const answers: Response[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        const res = await send(i);
        statuses[i] = res.status;
        if (res.status === 429 && answers.length < 3) answers.push(res);
        else await res.body?.cancel();
      }
    }),
  );
  return { statuses, refusedSample: answers };
}

async function expectRateLimitedAnswer(res: Response, graphql = false) {
  expect(res.status).toBe(429);
  const retry = Number(res.headers.get("retry-after"));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
  expect(res.headers.get("ratelimit-remaining")).toBe("0");
  const body = (await res.json()) as {
    error?: { code: string; message: string };
    errors?: { extensions: { code: string } }[];
  };
  if (graphql) {
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "RATE_LIMITED", retryAfter: retry });
  } else expect(body.error?.code).toBe("RATE_LIMITED");
}

const gql = (s: TestServer, query: string, variables: Record<string, unknown>, cookie?: string) =>
  fetch(`${s.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: s.url,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });

/** Fifteen aliases of a 100-item list: the query (cost ≈ 1,515 objects). */
const aliasedLists = (n: number) =>
  `query { ${Array.from({ length: n }, (_, i) => `l${i}: listContents(limit: 100) { items { slug } }`).join(" ")} }`;

describe.each(DIALECTS)("API rate limits with the production defaults (%s)", (dialect) => {
  let s: TestServer & { url: string };
  const clock = new TestClock();

  beforeAll(async () => {
    s = (await startTestServer(dialect, {}, { now: clock.now })) as TestServer & { url: string };
    s.url = `http://127.0.0.1:${s.port}`;
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it("700 parallel GETs from one signed-in user: at most 300 served, the rest 429 with Retry-After, none 5xx", async () => {
    clock.advance(MINUTE);
    const cookie = await signIn(s.url, "pro@demo.local", DEMO_PASSWORD);
    const { statuses, refusedSample } = await burst(700, 700, () =>
      fetch(`${s.url}/api/account/me`, { headers: { cookie } }),
    );
    expect(statuses.filter((x) => x >= 500)).toEqual([]);
    const served = statuses.filter((x) => x === 200).length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(300);
    expect(statuses.filter((x) => x === 429).length).toBe(700 - served);
    await expectRateLimitedAnswer(refusedSample[0]!);
  });

  it("700 parallel GETs from one address as a visitor (a new X-Forwarded-For each, not trusted): at most 600 served", async () => {
    clock.advance(MINUTE);
    const { statuses, refusedSample } = await burst(700, 700, (i) =>
      fetch(`${s.url}/api/content?limit=1`, { headers: { "x-forwarded-for": `198.51.100.${i % 250}` } }),
    );
    expect(statuses.filter((x) => x >= 500)).toEqual([]);
    const served = statuses.filter((x) => x === 200).length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(600);
    expect(statuses.filter((x) => x === 429).length).toBe(700 - served);
    await expectRateLimitedAnswer(refusedSample[0]!);
  });

  it("1,041 comments in a burst from a signed-in reader: at most 10 created, the rest RATE_LIMITED", async () => {
    clock.advance(MINUTE);
    const cookie = await signIn(s.url, "free@demo.local", DEMO_PASSWORD);
    const db = s.runtime.database.db;
    const content = await db
      .selectFrom("content")
      .select("id")
      .where("slug", "=", FREE_ITEM.slug)
      .executeTakeFirstOrThrow();
    const author = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "free@demo.local")
      .executeTakeFirstOrThrow();
    const countComments = async () =>
      Number(
        (
          await db
            .selectFrom("comment")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("authorId", "=", author.id)
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const before = await countComments();
    const mutation = `mutation ($c: String!, $b: String!) { createComment(input: { contentId: $c, body: $b }) { id } }`;
    const { statuses, refusedSample } = await burst(1041, 50, (i) =>
      gql(s, mutation, { c: content.id, b: `Comment number ${i}` }, cookie),
    );
    expect(statuses.filter((x) => x >= 500)).toEqual([]);
    const created = (await countComments()) - before;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(10);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(1041 - 10);
    await expectRateLimitedAnswer(refusedSample[0]!, true);
  });

  it("15 aliased 100-item lists are refused by their cost; 9 of them, repeated, exhaust the minute's budget", async () => {
    clock.advance(MINUTE);
    const cookie = await signIn(s.url, "pro@demo.local", DEMO_PASSWORD);
    const res = await gql(s, aliasedLists(15), {}, cookie);
    const body = (await res.json()) as {
      data?: unknown;
      errors: { message: string; extensions: { code: string } }[];
    };
    expect(body.data ?? null).toBeNull();
    expect(body.errors[0]!.extensions.code).toBe("BAD_USER_INPUT");
    expect(body.errors[0]!.message).toMatch(/about 1515 objects; one request may ask for at most 1000/);

    // 9 × 101 = 909 per request against 3,000 a minute per user: the fourth is refused.
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) answers.push(await gql(s, aliasedLists(9), {}, cookie));
    for (const ok of answers.slice(0, 3)) {
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { errors?: unknown }).errors).toBeUndefined();
    }
    await expectRateLimitedAnswer(answers[3]!, true);
  });
});

/** Two servers (two limiter states, as two processes) on one database: one shared count. */
/** Two servers on one database share the counts: in the database, or in Redis (decision 033). */
function sharedBetweenTwoServers(dialect: (typeof DIALECTS)[number], store: "database" | "redis") {
  let a: TestServer & { url: string };
  let b: TestServer & { url: string };
  const clock = new TestClock();
  const limits = {
    RATE_LIMIT_READS_PER_USER: "40",
    RATE_LIMIT_WRITES_PER_USER: "10",
    AUTH_SECRET: "r".repeat(40),
    ...(store === "redis" ? { REDIS_URL: process.env.TEST_REDIS_URL! } : {}),
  };

  beforeAll(async () => {
    a = (await startTestServer(dialect, limits, { now: clock.now })) as TestServer & { url: string };
    a.url = `http://127.0.0.1:${a.port}`;
    const shared = dialect === "postgres" ? a.runtime.env.DATABASE_URL! : `${a.dataDir}/app.db`;
    b = (await startTestServer(
      dialect,
      { ...limits, DATABASE_URL: shared, SEED_DEMO: "0" },
      { now: clock.now },
    )) as TestServer & {
      url: string;
    };
    b.url = `http://127.0.0.1:${b.port}`;
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("reads split over both servers are limited by the shared count (40 a minute, not 40 each)", async () => {
    clock.advance(MINUTE);
    const cookie = await signIn(a.url, "pro@demo.local", DEMO_PASSWORD);
    let served = 0;
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${(i % 2 ? b : a).url}/api/account/me`, { headers: { cookie } });
      expect(res.status === 200 || res.status === 429).toBe(true);
      if (res.status === 200) served++;
      await res.body?.cancel();
    }
    // Decision 014: each process holds at most 10 % of the limit unsent → at most 40 + 3 × 4.
    expect(served).toBeGreaterThanOrEqual(40);
    expect(served).toBeLessThanOrEqual(52);
  });

  it("writes split over both servers are counted exactly: 10 a minute in all", async () => {
    clock.advance(MINUTE);
    const cookie = await signIn(a.url, "basic@demo.local", DEMO_PASSWORD);
    let served = 0;
    for (let i = 0; i < 30; i++) {
      const server = i % 2 ? b : a;
      const res = await fetch(`${server.url}/api/account/activity`, {
        method: "POST",
        headers: { cookie, origin: server.url },
      });
      expect(res.status).toBeLessThan(500);
      if (res.status !== 429) served++;
      await res.body?.cancel();
    }
    expect(served).toBe(10);
    // The counts went where they were configured to go.
    const rows = await a.runtime.database.db.selectFrom("api_rate_limit").select("key").execute();
    if (store === "redis") expect(rows).toEqual([]);
    else expect(rows.length).toBeGreaterThan(0);
  });
}

describe.each(DIALECTS)("API rate limits shared by two servers on one database (%s)", (dialect) =>
  sharedBetweenTwoServers(dialect, "database"),
);

describe.skipIf(!process.env.TEST_REDIS_URL)("API rate limits shared by two servers through Redis", () =>
  sharedBetweenTwoServers("sqlite", "redis"),
);
