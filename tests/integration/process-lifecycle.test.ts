/**
 * Several app processes on one database (decision 027), each a real process of the server bundle
 * (`build/bundle/server.js`, made by `npm run build`) sharing one data folder and database:
 *
 * - three started at the same moment on an empty database all start (one migrates and seeds
 *   under the start-up lock, the others wait and skip), the demo data exists once, and a session
 *   made on one process is good on another (one generated AUTH_SECRET);
 * - `/health/live` and `/health/ready` answer before the app (no rate limit, `no-store`);
 * - PostgreSQL: every connection terminated by the server, then connections refused: the
 *   processes stay up, readiness says 503 while the database cannot be reached, and requests
 *   succeed again once it can;
 * - SIGTERM drains: a request in flight finishes with 200 and `Connection: close`, new
 *   connections are refused, readiness answers 503, idle keep-alive connections are closed,
 *   exit 0; past SHUTDOWN_TIMEOUT_MS the open connections are destroyed and the exit code is 1;
 *   a second signal exits at once with 1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_ORGANIZATION } from "../../server/db/seed/accounts.ts";
import { createTestPostgresDatabase, DIALECTS, signIn } from "../helpers/test-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUNDLE = path.join(ROOT, "build", "bundle", "server.js");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Proc {
  child: ChildProcess;
  port: number;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

function startProcess(
  dataDir: string,
  databaseUrl: string,
  port: number,
  extra: Record<string, string> = {},
) {
  let output = "";
  const child = spawn(process.execPath, [BUNDLE], {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "info",
      SEED_DEMO: "1",
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => output, exited } satisfies Proc;
}

async function untilReady(proc: Proc, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (proc.child.exitCode !== null) {
      throw new Error(`process on ${proc.port} exited (${proc.child.exitCode}):\n${proc.output()}`);
    }
    const ready = await fetch(`${proc.base}/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await sleep(100);
  }
  throw new Error(`process on ${proc.port} did not become ready:\n${proc.output()}`);
}

/** Polls `probe` until it returns true (or throws after `timeoutMs`). */
async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await probe().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** A raw connection: what was written, what came back, when it closed. */
async function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => {
    received += String(chunk);
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, received: () => received, closed };
}

/** A POST whose body is sent in two parts: the first now, the rest when `finish` is called. */
function slowPost(port: number, target: string, body: string) {
  const request = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: target,
    agent: false,
    headers: {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      origin: `http://127.0.0.1:${port}`,
    },
  });
  const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      request.on("response", (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += String(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on("error", reject);
      });
      request.on("error", reject);
    },
  );
  response.catch(() => {});
  request.write(body.slice(0, 5));
  return { response, finish: () => request.end(body.slice(5)) };
}

describe.each(DIALECTS)("process lifecycle (%s)", (dialect) => {
  let dataDir = "";
  let databaseUrl = "";
  let dropDatabase: (() => Promise<void>) | undefined;
  const procs: Proc[] = [];
  let a: Proc;
  let b: Proc;
  let c: Proc;

  beforeAll(async () => {
    expect(existsSync(BUNDLE), "npm run build makes build/bundle/server.js").toBe(true);
    dataDir = mkdtempSync(path.join(tmpdir(), "lumen-lifecycle-"));
    if (dialect === "postgres") {
      const database = await createTestPostgresDatabase();
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
  });

  afterAll(async () => {
    for (const proc of procs) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill("SIGKILL");
        await proc.exited;
      }
    }
    await dropDatabase?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("three processes started together on an empty database all start, and seed it once", async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    // a: a shutdown budget longer than the test's; b: a tiny read limit (the probes must not
    // count) and a short shutdown budget.
    const extras: Record<string, string>[] = [
      { SHUTDOWN_TIMEOUT_MS: "60000" },
      { RATE_LIMIT_READS_PER_ADDRESS: "2", SHUTDOWN_TIMEOUT_MS: "1500" },
      {},
    ];
    for (const [i, port] of ports.entries()) procs.push(startProcess(dataDir, databaseUrl, port, extras[i]));
    [a, b, c] = procs as [Proc, Proc, Proc];
    await Promise.all(procs.map((proc) => untilReady(proc)));

    // One process held the start-up lock while the others waited for it.
    const waited = procs.filter((proc) => proc.output().includes("waiting for another process"));
    expect(waited.length).toBeGreaterThanOrEqual(1);

    const emails = DEMO_ACCOUNTS.map((account) => account.email);
    let users: Array<{ email: string; n: number }>;
    let orgs: number;
    if (dialect === "postgres") {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        users = (
          await client.query<{ email: string; n: number }>(
            `select email, count(*)::int as n from "user" where email = any($1) group by email`,
            [emails],
          )
        ).rows;
        orgs = (
          await client.query<{ n: number }>("select count(*)::int as n from organization where slug = $1", [
            DEMO_ORGANIZATION.slug,
          ])
        ).rows[0]!.n;
      } finally {
        await client.end();
      }
    } else {
      const db = new DatabaseSync(path.join(dataDir, "app.db"), { readOnly: true });
      try {
        users = db
          .prepare(
            `select email, count(*) as n from "user" where email in (${emails.map(() => "?").join(",")}) group by email`,
          )
          .all(...emails) as Array<{ email: string; n: number }>;
        orgs = (
          db.prepare("select count(*) as n from organization where slug = ?").get(DEMO_ORGANIZATION.slug) as {
            n: number;
          }
        ).n;
      } finally {
        db.close();
      }
    }
    expect(users.map((row) => row.email).sort()).toEqual([...emails].sort());
    expect(users.every((row) => Number(row.n) === 1)).toBe(true);
    expect(orgs).toBe(1);

    // One generated secret in the shared data folder: a session made on a is good on c.
    const free = DEMO_ACCOUNTS.find((account) => account.key === "free")!;
    const cookie = await signIn(a.base, free.email, "Demo-Passw0rd!");
    const session = await fetch(`${c.base}/api/auth/get-session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user?: { email?: string } } | null)?.user?.email).toBe(free.email);
  }, 90_000);

  it("answers liveness and readiness before the app: no-store, never rate limited", async () => {
    const live = await fetch(`${a.base}/health/live`);
    expect(live.status).toBe(200);
    expect(live.headers.get("cache-control")).toBe("no-store");
    expect(await live.json()).toEqual({ status: "live" });

    const ready = await fetch(`${a.base}/health/ready?probe=1`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toMatchObject({ status: "ready" });

    const head = await fetch(`${a.base}/health/ready`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const post = await fetch(`${a.base}/health/ready`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");

    // The older health endpoints keep working.
    const health = await fetch(`${a.base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    expect((await fetch(`${a.base}/health-check`)).status).toBe(200);

    // b allows 2 reads a minute per address: its API refuses, its probes do not.
    const reads = [];
    for (let i = 0; i < 4; i++) reads.push((await fetch(`${b.base}/api/content?limit=1`)).status);
    expect(reads).toContain(429);
    for (let i = 0; i < 6; i++) {
      expect((await fetch(`${b.base}/health/ready`)).status).toBe(200);
      expect((await fetch(`${b.base}/health/live`)).status).toBe(200);
    }
  });

  it.runIf(dialect === "postgres")(
    "recovers when the database drops every connection, and is not ready while it refuses them",
    async () => {
      const name = new URL(databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const terminateAll = () =>
        admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [name]);
      try {
        // Pooled connections exist on every process (their jobs poll each second).
        for (const proc of procs)
          expect((await fetch(`${proc.base}/api/content?limit=1`)).status).not.toBe(500);
        const terminated = await terminateAll();
        expect(terminated.rowCount).toBeGreaterThan(0);
        for (const proc of [a, c]) {
          await eventually(`${proc.port} answers /api/content again`, async () => {
            return (await fetch(`${proc.base}/api/content?limit=1`)).status === 200;
          });
        }

        // Refused connections: readiness fails with the database as the reason; liveness does not.
        await admin.query(`alter database ${name} allow_connections false`);
        await terminateAll();
        await eventually("a is not ready", async () => {
          // A connection that was being opened as connections were refused can outlive the first
          // termination (the processes' jobs open them every second): end those too.
          await terminateAll();
          const res = await fetch(`${a.base}/health/ready`);
          return res.status === 503 && ((await res.json()) as { reason?: string }).reason === "database";
        });
        expect((await fetch(`${a.base}/health/live`)).status).toBe(200);

        await admin.query(`alter database ${name} allow_connections true`);
        await eventually(
          "a is ready again",
          async () => (await fetch(`${a.base}/health/ready`)).status === 200,
        );
        await eventually(
          "a answers /api/content again",
          async () => (await fetch(`${a.base}/api/content?limit=1`)).status === 200,
        );
        for (const proc of procs) expect(proc.child.exitCode).toBeNull();
      } finally {
        await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
        await admin.end();
      }
    },
    40_000,
  );

  it("drains on SIGTERM: the requests in flight get their 200, new connections are refused, exit 0", async () => {
    const query = JSON.stringify({ query: "{ __typename }" });
    const slow = Array.from({ length: 10 }, () => slowPost(c.port, "/graphql", query));
    // A readiness probe whose request line has arrived but not the end of its headers.
    const probe = await rawConnection(c.port);
    probe.socket.write("GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // An idle keep-alive connection.
    const idle = await rawConnection(c.port);
    idle.socket.write("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await eventually("the keep-alive answer", async () => idle.received().includes("200 OK"));
    await sleep(200); // the slow requests' headers reach the server

    c.child.kill("SIGTERM");
    await eventually("new connections refused", () => refused(c.port), 5000);
    await idle.closed; // closed by the server after its one-second grace, before its keep-alive timeout

    probe.socket.write("\r\n");
    await probe.closed;
    expect(probe.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(probe.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(probe.received()).toContain('"reason":"draining"');

    for (const request of slow) request.finish();
    for (const res of await Promise.all(slow.map((request) => request.response))) {
      expect(res.status).toBe(200);
      expect(res.headers.connection).toBe("close");
      expect(JSON.parse(res.body)).toMatchObject({ data: { __typename: "Query" } });
    }

    expect(await c.exited).toBe(0);
    expect(c.output()).toContain("stopped");
  });

  it("past SHUTDOWN_TIMEOUT_MS destroys the connections left and exits 1", async () => {
    const stuck = slowPost(b.port, "/api/auth/sign-in/email", JSON.stringify({ email: "x@demo.local" }));
    await sleep(200);
    b.child.kill("SIGTERM");
    await eventually("new connections refused", () => refused(b.port), 5000);
    expect(await b.exited).toBe(1);
    await expect(stuck.response).rejects.toThrow();
    expect(b.output()).toContain("SHUTDOWN_TIMEOUT_MS");
  });

  it("exits at once with 1 on a second signal while draining", async () => {
    const stuck = slowPost(a.port, "/api/auth/sign-in/email", JSON.stringify({ email: "x@demo.local" }));
    await sleep(200);
    a.child.kill("SIGTERM");
    await eventually("new connections refused", () => refused(a.port), 5000);
    expect(a.child.exitCode).toBeNull(); // still draining: a 60 s budget
    a.child.kill("SIGINT");
    expect(await a.exited).toBe(1);
    expect(a.output()).toContain("second signal");
    await expect(stuck.response).rejects.toThrow();
  });
});
