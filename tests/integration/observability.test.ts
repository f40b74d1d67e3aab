/**
 * Observability (decision 030): request ids in responses and in every log line of the request,
 * and the Prometheus endpoint — off without METRICS_TOKEN, only for its bearer, figures filed by
 * route pattern (never a raw path), with no personal data.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createAppLogger } from "../../server/logging.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const TOKEN = "metrics-token-0123456789abcdef";
const FREE = DEMO_CONTENT.filter((c) => c.tier === "Free" && !c.rolesRequired).slice(0, 2);

/** The value of one sample line (`name{labels} value`), or null when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = line.slice(line.indexOf("{") + 1, line.indexOf("}")).split(",");
    if (wanted.every((w) => inside.includes(w))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return null;
}

describe.each(DIALECTS)("observability (%s)", (dialect) => {
  let server: TestServer;
  let plain: TestServer;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer(
      dialect,
      { METRICS_TOKEN: TOKEN, TRUST_PROXY: "1" },
      { logger: createAppLogger("debug", sink) },
    );
    plain = await startTestServer(dialect, {}, { shareWith: server });
  }, 120_000);
  afterAll(async () => {
    await plain?.close();
    await server?.close();
  });

  const metrics = async (base = server.url, authorization: string | null = `Bearer ${TOKEN}`) =>
    fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

  it("answers 404 without METRICS_TOKEN, 401 without the right bearer, and the figures with it", async () => {
    const off = await metrics(plain.url);
    expect(off.status).toBe(404);
    expect(((await off.json()) as { error: { message: string } }).error.message).toMatch(/METRICS_TOKEN/);
    for (const authorization of [
      null,
      "Bearer wrong-token-0123456789",
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ]) {
      const res = await metrics(server.url, authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain("lumen_");
    }
    const ok = await metrics();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const text = await ok.text();
    expect(text).toContain("# TYPE lumen_http_request_duration_seconds histogram");
    expect(text).toContain("lumen_process_resident_memory_bytes");
  });

  it("files requests by route pattern, never by raw path, with their status", async () => {
    const before = await (await metrics()).text();
    const route = { route: "/api/content/:idOrSlug", method: "GET", status: "200" };
    const counted = sample(before, "lumen_http_requests_total", route) ?? 0;
    for (const item of FREE) expect((await fetch(`${server.url}/api/content/${item.slug}`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/content/no-such-item-here`)).status).toBe(404);
    const after = await (await metrics()).text();
    // Hits of the API cache are answered before the app and counted apart.
    const fast = sample(after, "lumen_fast_path_hits_total", { path: "api" }) ?? 0;
    expect((sample(after, "lumen_http_requests_total", route) ?? 0) + fast).toBeGreaterThanOrEqual(
      counted + FREE.length,
    );
    expect(sample(after, "lumen_http_requests_total", { ...route, status: "404" })).toBeGreaterThanOrEqual(1);
    for (const item of FREE) expect(after).not.toContain(item.slug);
    expect(after).not.toContain("no-such-item-here");
    expect(
      sample(after, "lumen_http_request_duration_seconds_count", { route: route.route }),
    ).toBeGreaterThan(0);
  });

  it("counts visitors' page hits answered before the app, the caches, the jobs and the database pool", async () => {
    const before =
      sample(await (await metrics()).text(), "lumen_fast_path_hits_total", { path: "pages" }) ?? 0;
    await fetch(`${server.url}/pricing`);
    await fetch(`${server.url}/pricing`);
    await fetch(`${server.url}/pricing`);
    const text = await (await metrics()).text();
    expect(sample(text, "lumen_fast_path_hits_total", { path: "pages" })).toBeGreaterThanOrEqual(before + 2);
    expect(sample(text, "lumen_cache_entries", { cache: "page-cache" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "lumen_cache_hits_total", { cache: "page-cache" })).toBeGreaterThanOrEqual(2);
    expect(sample(text, "lumen_job_runs_total", { job: "heartbeat", outcome: "ok" })).toBeGreaterThanOrEqual(
      1,
    );
    const pool = sample(text, "lumen_db_pool_connections", { state: "max" });
    if (dialect === "postgres") expect(pool).toBeGreaterThan(0);
    else expect(pool).toBeNull();
  });

  it("counts failed sign-ins by reason and never shows who", async () => {
    const reason = { reason: "sign_in_failure" };
    const before = sample(await (await metrics()).text(), "lumen_auth_failures_total", reason) ?? 0;
    const failed = await call(server.url, "/api/auth/sign-in/email", {
      email: "pro@demo.local",
      password: `${DEMO_PASSWORD}-wrong`,
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const text = await (await metrics()).text();
    expect(sample(text, "lumen_auth_failures_total", reason)).toBe(before + 1);
    expect(text).not.toContain("@demo.local");
    expect(text).not.toContain(DEMO_PASSWORD);
  });

  it("gives every answer a request id, keeps a trusted proxy's id, and puts it in the request's log lines", async () => {
    const own = await fetch(`${server.url}/api/content?limit=1`, { headers: { cookie: "x=1" } });
    expect(own.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    const other = await fetch(`${server.url}/api/content?limit=1`, { headers: { cookie: "x=1" } });
    expect(other.headers.get("x-request-id")).not.toBe(own.headers.get("x-request-id"));

    const traced = "proxy-trace-42.a:b";
    const res = await fetch(`${server.url}/pricing`, { method: "PUT", headers: { "x-request-id": traced } });
    expect(res.status).toBe(405);
    expect(res.headers.get("x-request-id")).toBe(traced);
    const logged = lines.filter((l) => l.reqId === traced);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((l) => typeof l.proc === "string" && (l.proc as string).length > 0)).toBe(true);

    // Ids that are not plain tokens are replaced; an untrusting server never takes one.
    for (const bad of ["has space", "x".repeat(129), "<script>"]) {
      const r = await fetch(`${server.url}/api/content?limit=1`, {
        headers: { "x-request-id": bad, cookie: "x=1" },
      });
      expect(r.headers.get("x-request-id")).not.toBe(bad);
    }
    const untrusted = await fetch(`${plain.url}/api/content?limit=1`, {
      headers: { "x-request-id": traced, cookie: "x=1" },
    });
    expect(untrusted.headers.get("x-request-id")).not.toBe(traced);
    // Lines written outside any request carry no request id.
    expect(lines.some((l) => l.reqId === undefined)).toBe(true);
  });
});
