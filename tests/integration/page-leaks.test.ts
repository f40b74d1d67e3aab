import { connect } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { VERSION } from "../../server/version.ts";
import { buildContent } from "../factories/index.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

/**
 * What pages, data requests and React Router's own endpoints tell a client beyond the page:
 * cache headers for signed-in readers, the public diagnostics, internal error text on a method a
 * page does not take, lazy route discovery for screens the caller may not open, and the log
 * noise of aborted uploads.
 */
const PRO = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article")!;
const FREE = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article")!;

/** React Router's internal error wording (it names route ids) that must never reach a client. */
const INTERNAL_ERROR = /did not provide an `?action|no way to handle|Method Not Allowed",/;
/** Route ids: fine inside a rendered page's own manifest, never in an error answer. */
const ROUTE_ID = /routes\//;

describe.each(DIALECTS)("page-level leaks (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const logLines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(...String(chunk).split("\n").filter(Boolean));
        callback();
      },
    });
    server = await startTestServer(dialect, {}, { logger: pino({ level: "debug", base: undefined }, sink) });
    for (const who of ["free", "pro", "admin"] as const) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string, who?: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      ...init,
      headers: { ...(who ? { cookie: cookies[who]! } : {}), ...(init.headers as Record<string, string>) },
    });

  describe("Cache-Control for signed-in readers", () => {
    it.each([
      ["pro", `/content/${PRO.slug}`],
      ["pro", `/content/${PRO.slug}.data`],
      ["free", `/content/${FREE.slug}`],
      ["free", "/_.data"],
      ["free", "/"],
      ["pro", "/dashboard"],
      ["pro", `/api/content/${PRO.slug}`],
    ])("%s GET %s is private, no-store", async (who, path) => {
      const res = await get(path, who);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      await res.arrayBuffer();
    });

    it("visitors' pages keep their public caching (served from the page cache)", async () => {
      const path = `/content/${FREE.slug}?probe=${Date.now()}`;
      await (await get(path)).arrayBuffer();
      const res = await get(path);
      expect(res.headers.get("x-cache")).toBe("hit");
      expect(res.headers.get("cache-control") ?? "").not.toContain("private");
    });
  });

  describe("public diagnostics", () => {
    it.each(["/admin-debug", "/health-check"])(
      "%s counts published items only, is not in debug mode in production and names no Node version",
      async (page) => {
        // An unpublished item exists: the public count must not include it.
        await createContentRepo(server.runtime.database.db).create(
          buildContent({ status: "draft", slug: `draft-${dialect}-${page.slice(1)}` }).row,
        );
        const published = await server.runtime.database.db
          .selectFrom("content")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", "published")
          .executeTakeFirstOrThrow();
        const text = await (await get(page)).text();
        const count = /Published items<\/td><td[^>]*>(\d+)</.exec(text)?.[1];
        expect(Number(count)).toBe(Number(published.n));
        expect(text).not.toMatch(/<td[^>]*>Users<\/td>/);
        expect(text).toMatch(/debugMode<\/code><\/td><td[^>]*>off</);
        expect(text).not.toContain(process.version);
        expect(text).not.toMatch(/Node\.js|linux\/|"node":/);
        expect(text).toContain(VERSION);
      },
    );
  });

  describe("a method a page does not accept", () => {
    it.each([
      ["POST", "/"],
      ["POST", "/_.data"],
      ["POST", "/pricing.data"],
      ["PUT", "/pricing"],
      ["DELETE", `/content/${FREE.slug}`],
      ["PATCH", "/admin/users.data"],
      ["POST", "/no/such/page"],
    ])("%s %s → a clean 405 with Allow, no route ids", async (method, path) => {
      for (const who of [undefined, "free"]) {
        const res = await get(path, who, {
          method,
          body: "a=1",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get("allow")).toBe("GET, HEAD");
        const text = await res.text();
        expect(text).not.toMatch(INTERNAL_ERROR);
        expect(text).not.toMatch(ROUTE_ID);
      }
    });

    it("a page with an action still takes the POST, and its answers name no route ids", async () => {
      for (const path of ["/auth/signin", "/auth/signin.data", "/auth/confirm.data"]) {
        const res = await get(path, undefined, {
          method: "POST",
          body: "email=nobody%40example.test&password=x",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        });
        expect(res.status, path).not.toBe(405);
        expect(res.status, path).toBeLessThan(500);
        expect(await res.text()).not.toMatch(INTERNAL_ERROR);
      }
    });
  });

  describe("lazy route discovery (/__manifest)", () => {
    let version: string;
    beforeAll(async () => {
      const html = await (await get("/pricing")).text();
      version = /__reactRouterManifest\s*=\s*\{[\s\S]*?"version":\s*"([^"]+)"/.exec(html)![1]!;
    });
    const manifest = async (who: string | undefined, paths: string[]) => {
      const res = await get(
        `/__manifest?paths=${encodeURIComponent(paths.join(","))}&version=${version}`,
        who,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      return Object.keys((await res.json()) as Record<string, unknown>);
    };
    const PATHS = ["/", "/pricing", "/admin", "/admin/users", "/super-admin", "/dashboard"];

    it("answers visitors for public routes only", async () => {
      const ids = await manifest(undefined, PATHS);
      expect(ids).toContain("routes/pricing");
      expect(ids.filter((id) => /admin|dashboard/.test(id))).toEqual([]);
      // Refused paths resolve to the catch-all on the client, whose data request the guard answers.
      expect(ids).toContain("routes/not-found");
      const data = await get("/admin/users.data?_routes=root,routes/not-found");
      expect([202, 204, 302]).toContain(data.status);
      expect(await data.text()).not.toContain("routes/admin");
    });

    it("answers a signed-in reader for their screens, not the admin ones", async () => {
      const ids = await manifest("free", PATHS);
      expect(ids).toEqual(expect.arrayContaining(["routes/pricing", "routes/account/dashboard"]));
      expect(ids.filter((id) => id.includes("admin"))).toEqual([]);
    });

    it("still answers an administrator for the admin screens (client navigation keeps working)", async () => {
      const ids = await manifest("admin", PATHS);
      expect(ids).toEqual(
        expect.arrayContaining(["routes/pricing", "routes/admin/index", "routes/admin/users"]),
      );
    });
  });

  describe("aborted request bodies", () => {
    /** Sends half a declared body, then closes the connection. */
    const abortUpload = (method: string, path: string, headers = "Content-Type: application/json\r\n") =>
      new Promise<void>((resolve, reject) => {
        const url = new URL(server.url);
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(
            `${method} ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${headers}Content-Length: 4000\r\n\r\n{"email":"`,
            () => setTimeout(() => socket.destroy(), 50),
          );
        });
        socket.on("close", () => resolve());
        socket.on("error", reject);
      });

    it("are logged once each, at info, without a stack", async () => {
      const before = logLines.length;
      const paths = ["/api/auth/sign-in/email", "/graphql", "/api/auth/sign-up/email", "/graphql"];
      for (const path of paths) await abortUpload("POST", path);
      // A signed-in avatar upload (read inside a handler that maps its own errors), cut off by
      // the client after its first chunk.
      const controller = new AbortController();
      const upload = fetch(`${server.url}/api/profile/avatar`, {
        method: "PUT",
        headers: { cookie: cookies.free!, origin: server.url, "content-type": "image/png" },
        body: new ReadableStream({
          start(stream) {
            stream.enqueue(new Uint8Array(1024));
            setTimeout(() => controller.abort(), 100);
          },
        }),
        duplex: "half",
        signal: controller.signal,
      } as RequestInit).catch(() => null);
      expect(await upload).toBeNull();
      paths.push("/api/profile/avatar");
      // The server notices the closed socket asynchronously: wait until every abort is logged.
      await expect
        .poll(() => logLines.slice(before).filter((l) => l.includes("aborted")).length, { timeout: 5000 })
        .toBeGreaterThanOrEqual(paths.length);
      const lines = logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
      const aborted = lines.filter((l) => JSON.stringify(l).includes("aborted"));
      expect(aborted).toHaveLength(paths.length);
      for (const line of aborted) {
        expect(line.level).toBe(30);
        expect(line.msg).toBe("request aborted by the client");
        expect(JSON.stringify(line)).not.toContain("stack");
      }
      expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    });
  });
});
