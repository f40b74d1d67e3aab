/**
 * The cluster's round-robin proxy (scripts/cluster/proxy.ts, decision 029) against small upstream
 * servers: what it forwards, when it retries a request on the next upstream and when it must not,
 * and how a down upstream comes back.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/cluster/cluster.ts";
import { HEALTH_PATHS, type RunningProxy, startProxy } from "../../scripts/cluster/proxy.ts";
import { sleep } from "./scale-cluster.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

interface Upstream {
  port: number;
  url: string;
  seen: string[];
  close(): Promise<void>;
}

const open: Array<{ close(): Promise<void> }> = [];

/** A small upstream server on `port` (0: any free port). */
async function upstream(port: number, name: string, handler?: Handler): Promise<Upstream> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push(`${req.method} ${req.url}`);
      const body = Buffer.concat(chunks);
      // The older health route only: the proxy falls back to it after a 404 on the first one.
      if (req.url === HEALTH_PATHS[0]) {
        res.statusCode = 404;
        return res.end();
      }
      if (req.url === HEALTH_PATHS.at(-1)) return res.end("ok");
      if (handler) return handler(req, res, body);
      res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/"]);
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          name,
          method: req.method,
          url: req.url,
          host: req.headers.host,
          forwardedFor: req.headers["x-forwarded-for"],
          proto: req.headers["x-forwarded-proto"],
          bytes: body.length,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const bound = (server.address() as { port: number }).port;
  const handle = {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  open.push(handle);
  return handle;
}

/** Each test has its own proxy on a free port: a kept-alive connection to an earlier one is not reused. */
async function proxyFor(urls: string[]): Promise<RunningProxy> {
  const proxy = await startProxy({ upstreams: urls, port: 0, probeIntervalMs: 100 });
  open.push(proxy);
  return proxy;
}

describe("the cluster proxy", () => {
  afterEach(async () => {
    for (const h of open.splice(0).reverse()) await h.close();
  });

  it("forwards method, path, headers and bodies round robin, adding X-Forwarded-For and -Proto", async () => {
    const ups = await Promise.all([1, 2, 3].map((i) => upstream(0, `u${i}`)));
    const proxy = await proxyFor(ups.map((u) => u.url));
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${proxy.url}/api/x?i=${i}`, { headers: { "x-forwarded-for": "203.0.113.9" } });
      const body = (await res.json()) as Record<string, unknown>;
      names.push(String(body.name));
      expect(body).toMatchObject({
        method: "GET",
        url: `/api/x?i=${i}`,
        host: `127.0.0.1:${proxy.port}`,
        forwardedFor: "203.0.113.9, 127.0.0.1",
        proto: "http",
      });
      expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    }
    expect(names).toEqual(["u1", "u2", "u3", "u1", "u2", "u3"]);
    const big = "x".repeat(1_000_000);
    const posted = (await (await fetch(`${proxy.url}/upload`, { method: "POST", body: big })).json()) as {
      bytes: number;
    };
    expect(posted.bytes).toBe(1_000_000);
  });

  it("skips a refused upstream for any method, marks it down and takes it back once its health route answers", async () => {
    const live = await upstream(0, "live");
    // A port nothing listens on yet: its upstream comes up later in the test.
    const laterPort = await freePort();
    const proxy = await proxyFor([live.url, `http://127.0.0.1:${laterPort}`]);
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${proxy.url}/w`, {
        method: i % 2 ? "POST" : "GET",
        body: i % 2 ? "data" : undefined,
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { name: string }).name).toBe("live");
    }
    expect(proxy.upstreams().map((u) => u.up)).toEqual([true, false]);
    const back = await upstream(laterPort, "back");
    const deadline = Date.now() + 5000;
    while (!proxy.upstreams()[1]!.up && Date.now() < deadline) await sleep(50);
    expect(proxy.upstreams()[1]!.up).toBe(true);
    // Probed on the first health route, then (404) on the next one.
    expect(back.seen.filter((s) => s.startsWith("GET /health") || s.startsWith("GET /api/health"))).toEqual(
      HEALTH_PATHS.map((p) => `GET ${p}`),
    );
    const names = new Set<string>();
    for (let i = 0; i < 4; i++)
      names.add(((await (await fetch(`${proxy.url}/r`)).json()) as { name: string }).name);
    expect([...names].sort()).toEqual(["back", "live"]);
  });

  it("a POST whose upstream dies mid-request is answered 502, not sent again; a GET is retried", async () => {
    const dying = await upstream(0, "dying", (_req, res) => {
      res.socket?.destroy();
    });
    const other = await upstream(0, "other");
    const proxy = await proxyFor([dying.url, other.url]);
    const post = await fetch(`${proxy.url}/comments`, { method: "POST", body: "one comment" });
    expect(post.status).toBe(502);
    expect(await post.text()).toMatch(/may not have completed/);
    expect(dying.seen).toEqual(["POST /comments"]);
    expect(other.seen).toEqual([]);

    // The next request goes to `other` (round robin); the one after to `dying` again once it is
    // back (its health route answers), and is retried on `other`.
    await fetch(`${proxy.url}/first`).then((r) => r.arrayBuffer());
    const deadline = Date.now() + 5000;
    while (!proxy.upstreams()[0]!.up && Date.now() < deadline) await sleep(50);
    const get = await fetch(`${proxy.url}/page`);
    expect(get.status).toBe(200);
    expect(((await get.json()) as { name: string }).name).toBe("other");
    expect(dying.seen).toContain("GET /page");
  });

  it("answers 503 when no upstream is available", async () => {
    const proxy = await proxyFor([`http://127.0.0.1:${await freePort()}`]);
    const first = await fetch(`${proxy.url}/`);
    expect(first.status).toBe(502);
    await first.arrayBuffer();
    const res = await fetch(`${proxy.url}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/No app process is available/);
  });
});
