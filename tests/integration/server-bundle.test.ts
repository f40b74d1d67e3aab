/**
 * The server bundle `npm start` and `npm run serve` run (`build/bundle/server.js`, made by
 * `npm run build`; decision 024), started as its own process the way an operator starts it:
 * on an empty database it migrates and seeds the demo data (the seed reads its files beside its
 * source module), then answers /api/health, a content page rendered by the bundled React Router
 * build, and the first GraphQL request, whose schema is built on demand. Each database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPostgresDatabase, DIALECTS } from "../helpers/test-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUNDLE = path.join(ROOT, "build", "bundle", "server.js");

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(DIALECTS)("server bundle (%s)", (dialect) => {
  let child: ChildProcess;
  let base = "";
  let dataDir = "";
  let output = "";
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    expect(existsSync(BUNDLE), "npm run build makes build/bundle/server.js").toBe(true);
    dataDir = mkdtempSync(path.join(tmpdir(), "lumen-bundle-"));
    const database = dialect === "postgres" ? await createTestPostgresDatabase() : null;
    drop = database?.drop;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [BUNDLE], {
      // Started from elsewhere: the bundle finds its client files and the seed's files itself.
      cwd: tmpdir(),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? "",
        LOG_LEVEL: "warn",
        SEED_DEMO: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    child.stderr?.on("data", (chunk) => {
      output += String(chunk);
    });
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`the bundle exited (${child.exitCode}): ${output}`);
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the bundle did not become healthy: ${output}`);
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers /api/health on its database", async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    const health = await res.json();
    expect(health).toMatchObject({
      status: "ok",
      db: { ok: true, kind: dialect === "postgres" ? "postgresql" : "sqlite" },
    });
    expect(output).toContain("Demo accounts");
  });

  it.runIf(process.platform === "linux")(
    "runs with its V8 heap flags and allocator setting, in the process it was started as",
    () => {
      // The start file re-executes itself (same process id) with what `npm run serve` passes.
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
      expect(argv).toEqual(
        expect.arrayContaining(["--max-semi-space-size=16", "--heap-growing-percent=100"]),
      );
      const env = readFileSync(`/proc/${child.pid}/environ`, "utf8").split("\0");
      expect(env).toContain("MALLOC_ARENA_MAX=2");
    },
  );

  it("renders a seeded content page with its client assets", async () => {
    const list = (await (await fetch(`${base}/api/content?limit=20`)).json()) as {
      items: Array<{ slug: string; tier: string; title: string }>;
    };
    const free = list.items.find((item) => item.tier === "Free");
    expect(free).toBeDefined();
    const res = await fetch(`${base}/content/${free!.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(free!.title.replaceAll("&", "&amp;"));
    const asset = /\/assets\/[^"']+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    expect((await fetch(`${base}${asset}`)).status).toBe(200);
  });

  it("builds the GraphQL schema on the first request and answers it", async () => {
    const res = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { __typename: "Query" } });
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
