import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { VERSION } from "../../server/version.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe.each(DIALECTS)("HTTP basics (%s)", (dialect) => {
  let server: TestServer;
  let ownerCookie: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ownerCookie = await signIn(server.url, "owner@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("GET /api/health answers the contract shape with both components healthy", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["db", "status", "storage", "uptimeS", "version"]);
    expect(body.status).toBe("ok");
    expect(body.db.ok).toBe(true);
    expect(body.db.kind).toBe(dialect === "postgres" ? "postgresql" : "sqlite");
    expect(body.storage.ok).toBe(true);
    expect(typeof body.db.latencyMs).toBe("number");
  });

  it.each(["/admin-debug", "/health-check", "/api/health"])(
    "%s shows no secrets, tokens or personal data, even to a signed-in owner",
    async (page) => {
      const secret = readFileSync(path.join(server.dataDir, "secrets", "auth-secret"), "utf8").trim();
      const sessionToken = decodeURIComponent(ownerCookie.split("=")[1]!.split(".")[0]!);
      const rows = await server.runtime.database.db.selectFrom("account").select("password").execute();
      const hashes = rows.map((r) => r.password).filter((p): p is string => !!p);
      for (const cookie of [undefined, ownerCookie]) {
        const res = await fetch(`${server.url}${page}`, { headers: cookie ? { cookie } : {} });
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).not.toContain(secret);
        expect(text).not.toContain(sessionToken);
        for (const hash of hashes) expect(text).not.toContain(hash);
        // The signed-in owner's page carries the owner's own context; nobody else's data may appear.
        for (const account of DEMO_ACCOUNTS) {
          if (cookie && account.email === "owner@demo.local") continue;
          expect(text).not.toContain(account.email);
        }
        expect(text).not.toContain(DEMO_PASSWORD);
        expect(text).not.toContain(server.dataDir);
        if (process.env.TEST_DATABASE_URL) expect(text).not.toContain(process.env.TEST_DATABASE_URL);
        expect(text).not.toMatch(/BEGIN (RSA |EC )?PRIVATE KEY/);
      }
    },
  );

  it("/admin-debug shows the app version, uptime, health with latency, route count and feature flags", async () => {
    const text = await (await fetch(`${server.url}/admin-debug`)).text();
    expect(text).toContain(VERSION);
    // No runtime fingerprint on the public page (tests/integration/page-leaks.test.ts).
    expect(text).not.toContain(process.version);
    expect(text).toMatch(/uptime/i);
    expect(text).toMatch(/latency/i);
    expect(text).toMatch(/routes?/i);
    expect(text).toMatch(/feature flags/i);
  });

  it("sets security headers on pages and APIs", async () => {
    for (const p of ["/", "/api/health"]) {
      const res = await fetch(`${server.url}${p}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("every inline script on a page is allowed by its CSP: the nonce when rendered, hashes when cached", async () => {
    const path = `/pricing?probe=${Date.now()}`;
    const first = await fetch(`${server.url}${path}`);
    expect(first.headers.get("x-cache")).toBe("miss");
    const nonce = /'nonce-([^']+)'/.exec(first.headers.get("content-security-policy") ?? "")![1];
    const html = await first.text();
    const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s[1]).toContain(`nonce="${nonce}"`);

    const second = await fetch(`${server.url}${path}`);
    expect(second.headers.get("x-cache")).toBe("hit");
    const csp = second.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("nonce-");
    expect(csp).toContain("object-src 'none'");
    const cached = await second.text();
    expect(cached).toBe(html);
    const { createHash } = await import("node:crypto");
    for (const s of cached.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      const hash = createHash("sha256")
        .update(s[1] ?? "", "utf8")
        .digest("base64");
      expect(csp).toContain(`'sha256-${hash}'`);
    }
  });

  it("never serves a signed-in reader from the visitors' page cache", async () => {
    await fetch(`${server.url}/dashboard/reports`);
    await fetch(`${server.url}/`);
    const res = await fetch(`${server.url}/`, { headers: { cookie: ownerCookie } });
    expect(res.headers.get("x-cache")).toBeNull();
    expect(await res.text()).toContain("Olive Owner");
    const anon = await fetch(`${server.url}/`);
    expect(await anon.text()).not.toContain("Olive Owner");
  });

  it.each([
    "/?q=%E0%A4%A",
    "/content/%E0%A4%A",
    "/%",
    "/?a=%%%",
    "/api/content?limit=%ZZ",
    "/search?x[y]=1&x[y]=2",
  ])("answers the malformed request %s with a 4xx or a normal page, never a 500", async (p) => {
    const res = await fetch(`${server.url}${p}`, { redirect: "manual" });
    expect(res.status).toBeLessThan(500);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["tier=platinum", "tier"],
    ["featured=maybe", "featured"],
    ["bogus=1", "bogus"],
  ])("GET /api/content?%s → 400 naming %s", async (qs, field) => {
    const res = await fetch(`${server.url}/api/content?${qs}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("BAD_USER_INPUT");
    expect(body.error.message).toContain(field);
    expect(Object.keys(body.error.field)).toEqual([field]);
  });

  it("refuses oversized headers with 431, and the server keeps serving", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(server.url);
      const req = httpRequest(
        { host: u.hostname, port: u.port, path: "/", headers: { "x-big": "a".repeat(64 * 1024) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(431);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("serves the client build's top-level files and assets; other paths go to the app", async () => {
    const favicon = await fetch(`${server.url}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("cache-control")).toBe("public, max-age=3600");
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = /\/assets\/[^"']+\.js/.exec(html)![0];
    const script = await fetch(`${server.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get("cache-control")).toContain("immutable");
    expect((await fetch(`${server.url}/not-a-file.ico`)).status).toBe(404);
  });

  it("unknown API paths answer JSON 404", async () => {
    const res = await fetch(`${server.url}/api/nope`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("NOT_FOUND");
  });
});

describe("start-up configuration", () => {
  it.each([
    ["PORT", "eighty", "PORT"],
    ["DATABASE_URL", "mysql://db/app", "DATABASE_URL"],
    ["SEED_DEMO", "maybe", "SEED_DEMO"],
  ])("exits with one clear line when %s is invalid", (name, value, named) => {
    const r = spawnSync(process.execPath, ["server/main.ts"], {
      cwd: ROOT,
      env: { ...process.env, [name]: value, DATA_DIR: "/tmp/lumen-never-created" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(named);
    expect(lines[0]).toMatch(/expected/);
  });
});
