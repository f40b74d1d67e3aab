/**
 * Operations REST API (issue 14: /super-admin/infrastructure and /super-admin/database): who may
 * use it (visitor, every demo account, an API key, another site), the heartbeat rows of this
 * process and of a second process on the same database, the jobs registry, migrations, table
 * counts against real counts, the integrity check (audited) and the backup (SQLite: a real copy
 * with the users in it; PostgreSQL: pg_dump guidance without the password).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../../server/db/migrations/index.ts";
import type {
  DatabaseView,
  InfrastructureView,
  IntegrityResult,
} from "../../server/modules/operations/operations.service.ts";
import { DEMO_ACCOUNTS, signInAdminPersonas } from "../helpers/admin-personas.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const BASE = "/api/admin/operations";

describe.each(DIALECTS)("operations API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (p: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, p, body, opts);
  const asOwner = (p: string, body?: unknown) => req(p, body, { cookie: cookies.owner });
  const auditRows = (action: string) =>
    server.runtime.database.db.selectFrom("audit_log").selectAll().where("action", "=", action).execute();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const personas = await signInAdminPersonas(server.url, DEMO_ACCOUNTS, "owner");
    Object.assign(cookies, personas.cookies);
    apiKey = personas.apiKey;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const attempts = (opts: Parameters<typeof call>[3] = {}) => [
      () => req(`${BASE}/infrastructure`, undefined, opts),
      () => req(`${BASE}/database`, undefined, opts),
      () => req(`${BASE}/database/integrity-check`, {}, opts),
      () => req(`${BASE}/database/backup`, {}, opts),
    ];

    it("refuses visitors (401)", async () => {
      for (const attempt of attempts()) {
        const res = await attempt();
        expect(res.status).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("refuses every demo account but owner@ (403), admin@ and business@ included", async () => {
      for (const who of DEMO_ACCOUNTS.filter((a) => a !== "owner")) {
        for (const attempt of attempts({ cookie: cookies[who] })) {
          const res = await attempt();
          expect(res.status, who).toBe(403);
          expect((await res.json()).error.code, who).toBe("FORBIDDEN");
        }
      }
      expect(await auditRows("database_integrity_checked")).toHaveLength(0);
      expect(await auditRows("database_backup_downloaded")).toHaveLength(0);
    });

    it("refuses API keys (403) and the owner's writes from another site", async () => {
      // Sent from this site's pages, an API key reaches the handler, which refuses it; without an
      // Origin every /api/admin write is refused before that (FORBIDDEN_ORIGIN).
      for (const attempt of attempts({ headers: { "x-api-key": apiKey } })) {
        const res = await attempt();
        expect(res.status).toBe(403);
        expect((await res.json()).error.code).toBe("FORBIDDEN");
      }
      for (const attempt of attempts({ headers: { "x-api-key": apiKey }, origin: null })) {
        expect((await attempt()).status).toBe(403);
      }
      for (const p of ["integrity-check", "backup"]) {
        const foreign = await req(
          `${BASE}/database/${p}`,
          {},
          {
            cookie: cookies.owner,
            origin: "https://evil.example",
          },
        );
        expect(foreign.status).toBe(403);
        expect((await foreign.json()).error.code).toBe("FORBIDDEN_ORIGIN");
        const none = await req(`${BASE}/database/${p}`, {}, { cookie: cookies.owner, origin: null });
        expect(none.status).toBe(403);
      }
      expect(await auditRows("database_integrity_checked")).toHaveLength(0);
      expect(await auditRows("database_backup_downloaded")).toHaveLength(0);
    });

    it("refuses the screens to everyone but owner@", async () => {
      for (const screen of ["/super-admin/infrastructure", "/super-admin/database"]) {
        for (const who of ["admin", "business", "writer"]) {
          const res = await fetch(`${server.url}${screen}`, {
            headers: { cookie: cookies[who]! },
            redirect: "manual",
          });
          expect(res.status, `${who} ${screen}`).toBe(403);
        }
        const res = await fetch(`${server.url}${screen}`, { headers: { cookie: cookies.owner! } });
        expect(res.status, screen).toBe(200);
      }
    });
  });

  describe("infrastructure", () => {
    it("shows this process with sane figures and the jobs that ran", async () => {
      for (let i = 0; i < 5; i++) await fetch(`${server.url}/`); // anonymous pages: cache miss then hits
      const res = await asOwner(`${BASE}/infrastructure`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("no-store");
      const view = (await res.json()) as InfrastructureView;
      const me = view.processes.find((p) => p.current)!;
      expect(me).toBeDefined();
      expect(me.processId).toBe(view.currentProcessId);
      expect(me.status).toBe("live");
      expect(me.pid).toBe(process.pid); // the test server runs in this process
      expect(me.version).toBe(server.runtime.services.config.version);
      expect(me.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
      expect(me.heapUsedBytes).toBeGreaterThan(0);
      expect(me.heapUsedBytes).toBeLessThanOrEqual(me.heapTotalBytes);
      expect(me.lagP50Ms).toBeGreaterThanOrEqual(0);
      expect(me.lagP99Ms).toBeGreaterThanOrEqual(me.lagP50Ms);
      expect(me.lagP99Ms).toBeLessThan(5000);
      expect(me.requestsLastMinute).toBeGreaterThanOrEqual(5);
      expect(me.pageCacheHits).toBeGreaterThanOrEqual(3);
      expect(me.pageCacheMisses).toBeGreaterThanOrEqual(1);
      expect(me.pageCacheHitRate).toBeGreaterThan(0);
      expect(me.pageCacheHitRate).toBeLessThanOrEqual(1);
      expect(me.uptimeS).toBeGreaterThanOrEqual(0);

      expect(view.latency.database.ok).toBe(true);
      expect(view.latency.database.kind).toBe(dialect === "postgres" ? "postgresql" : "sqlite");
      expect(view.latency.storage.ok).toBe(true);
      for (const step of ["put", "head", "get", "delete"] as const) {
        expect(view.latency.storage.steps[step]).toBeGreaterThanOrEqual(0);
      }
      expect(await server.runtime.storage.head(`system/probe/${view.currentProcessId}.txt`)).toBeNull();

      const names = view.jobs.map((j) => j.name);
      for (const name of [
        "billing-sweep",
        "content-scheduler",
        "content-revision-poll",
        "settings-poll",
        "repository-refresh",
        "rate-limit-sync",
        "rate-limit-purge",
        "heartbeat",
      ]) {
        expect(names, name).toContain(name);
      }
      const billing = view.jobs.find((j) => j.name === "billing-sweep")!;
      expect(billing.runs).toBeGreaterThan(0);
      expect(billing.lastOutcome === "ok" || billing.lastOutcome === "running").toBe(true);
      expect(Date.parse(billing.lastStartedAt!)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(billing.nextRunAt!)).toBeGreaterThan(Date.parse(billing.lastStartedAt!));
      expect(billing.intervalMs).toBe(1000);
      expect(billing.failures).toBe(0);

      const row = await server.runtime.database.db
        .selectFrom("process_heartbeat")
        .selectAll()
        .where("processId", "=", view.currentProcessId)
        .executeTakeFirstOrThrow();
      expect(Number(row.lastSeenEpoch)).toBeGreaterThan(Date.now() - 10_000);
      expect((JSON.parse(row.jobs) as { name: string }[]).map((j) => j.name)).toContain("billing-sweep");
    });

    it("reports each in-memory cache against its bounds, on the API and on the page", async () => {
      for (const page of ["/", "/pricing", "/", "/api/content?limit=7", "/api/content?limit=7"]) {
        await fetch(`${server.url}${page}`);
      }
      // A visitor's second read comes from the visitors' API cache; a signed-in reader's from the
      // per-audience list cache.
      for (let i = 0; i < 2; i++) {
        await fetch(`${server.url}/api/content?limit=7`, { headers: { cookie: cookies.owner! } });
      }
      const view = (await (await asOwner(`${BASE}/infrastructure`)).json()) as InfrastructureView;
      const me = view.processes.find((p) => p.current)!;
      const byName = new Map(me.caches.map((c) => [c.name, c]));
      expect([...byName.keys()]).toEqual(
        expect.arrayContaining([
          "page-cache",
          "comment-html",
          "shiki-languages",
          "github-responses",
          "identity",
          "content-lists",
          "content-items",
          "search-results",
          "api-cache",
        ]),
      );
      const api = byName.get("api-cache")!;
      expect(api.hits).toBeGreaterThanOrEqual(1);
      expect(api.entries).toBeLessThanOrEqual(api.maxEntries);
      expect(api.bytes!).toBeLessThanOrEqual(api.maxBytes!);
      const lists = byName.get("content-lists")!;
      expect(lists.entries).toBeGreaterThanOrEqual(1);
      expect(lists.entries).toBeLessThanOrEqual(lists.maxEntries);
      expect(lists.hits).toBeGreaterThanOrEqual(1);
      const pages = byName.get("page-cache")!;
      expect(pages.entries).toBeGreaterThanOrEqual(1);
      expect(pages.entries).toBeLessThanOrEqual(pages.maxEntries);
      expect(pages.bytes).toBeGreaterThan(1000);
      expect(pages.bytes!).toBeLessThanOrEqual(pages.maxBytes!);
      expect(pages.hits).toBeGreaterThanOrEqual(1);
      for (const cache of me.caches) {
        expect(cache.label.length, cache.name).toBeGreaterThan(0);
        expect(cache.entries, cache.name).toBeGreaterThanOrEqual(0);
        if (cache.bytes !== null && cache.maxBytes !== null) {
          expect(cache.bytes, cache.name).toBeLessThanOrEqual(cache.maxBytes);
        }
      }

      const html = await (
        await fetch(`${server.url}/super-admin/infrastructure`, { headers: { cookie: cookies.owner! } })
      ).text();
      expect(html).toContain("In-memory caches");
      expect(html).toMatch(/data-cache="page-cache"/);
      expect(html).toMatch(/data-cache="shiki-languages"/);
    });

    it("shows a second process on the same database, marks gone rows and prunes old ones", async () => {
      const db = server.runtime.database.db;
      const second = await startTestServer(dialect, {}, { shareWith: server });
      let secondId = "";
      try {
        const view = (await (await asOwner(`${BASE}/infrastructure`)).json()) as InfrastructureView;
        const live = view.processes.filter((p) => p.status === "live");
        expect(live.length).toBeGreaterThanOrEqual(2);
        const other = live.find((p) => !p.current)!;
        secondId = other.processId;
        expect(other.jobs.map((j) => j.name)).toContain("billing-sweep");
        // Its caches come from its heartbeat row (the HTTP app's own join from its next beat).
        const comments = other.caches.find((c) => c.name === "comment-html");
        expect(comments).toMatchObject({ maxEntries: 2000, maxBytes: 4 * 1024 * 1024 });
        expect(view.jobs.find((j) => j.name === "billing-sweep")!.processes).toBeGreaterThanOrEqual(2);
      } finally {
        await second.close();
      }
      // A process that stopped cleanly removes its row.
      expect(
        await db
          .selectFrom("process_heartbeat")
          .select("processId")
          .where("processId", "=", secondId)
          .execute(),
      ).toHaveLength(0);

      // A crashed process: its row stops being refreshed, shows as gone, and is pruned later.
      const base = {
        hostname: "elsewhere",
        pid: 4242,
        version: "0.0.1",
        startedAt: new Date(Date.now() - 3_600_000).toISOString(),
        jobs: "[]",
        rssBytes: 50_000_000,
        heapUsedBytes: 20_000_000,
        heapTotalBytes: 30_000_000,
        lagP50Us: 100,
        lagP99Us: 900,
        requestsLastMinute: 0,
        pageCacheHits: 0,
        pageCacheMisses: 0,
      };
      await db
        .insertInto("process_heartbeat")
        .values([
          {
            ...base,
            processId: "crashed-recently",
            lastSeenAt: new Date(Date.now() - 120_000).toISOString(),
            lastSeenEpoch: Date.now() - 120_000,
          },
          {
            ...base,
            processId: "crashed-long-ago",
            lastSeenAt: new Date(Date.now() - 3_000_000).toISOString(),
            lastSeenEpoch: Date.now() - 3_000_000,
          },
        ])
        .execute();
      const view = (await (await asOwner(`${BASE}/infrastructure`)).json()) as InfrastructureView;
      expect(view.processes.find((p) => p.processId === "crashed-recently")?.status).toBe("gone");
      expect(view.processes.find((p) => p.processId === "crashed-long-ago")).toBeUndefined();
      expect(view.jobs.every((j) => j.processId !== "crashed-recently")).toBe(true);
      await db.deleteFrom("process_heartbeat").where("processId", "=", "crashed-recently").execute();
    }, 120_000);
  });

  describe("database", () => {
    it("lists the migrations of the code as applied, and tables with real counts", async () => {
      const res = await asOwner(`${BASE}/database`);
      expect(res.status).toBe(200);
      const view = (await res.json()) as DatabaseView;
      expect(view.engine).toBe(dialect === "postgres" ? "postgresql" : "sqlite");
      expect(view.migrations.applied.map((m) => m.name)).toEqual(Object.keys(migrations).sort());
      expect(view.migrations.pending).toEqual([]);
      for (const m of view.migrations.applied) expect(Number.isNaN(Date.parse(m.appliedAt))).toBe(false);

      const db = server.runtime.database.db;
      const real = async (table: "user" | "content" | "audit_log" | "plan") =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      for (const table of ["user", "content", "plan"] as const) {
        const shown = view.tables.find((t) => t.name === table)!;
        expect(shown, table).toBeDefined();
        expect(shown.rows, table).toBe(await real(table));
        expect(shown.rowsExact).toBe(true);
        expect(shown.bytes, table).toBeGreaterThan(0);
      }
      expect(view.tables.find((t) => t.name === "user")!.rows).toBeGreaterThanOrEqual(9);
      expect(view.totalBytes).toBeGreaterThan(0);
      expect(view.sizeMethod).toMatch(dialect === "postgres" ? /pg_total_relation_size/ : /dbstat/);
      expect(view.lastIntegrityCheck).toBeNull();
      if (dialect === "postgres") {
        expect(view.backup.kind).toBe("pg_dump");
      } else {
        expect(view.backup.kind).toBe("download");
      }
    });

    it("runs the integrity check, answers ok and audits it with the actor", async () => {
      const res = await asOwner(`${BASE}/database/integrity-check`, {});
      expect(res.status).toBe(200);
      const result = (await res.json()) as IntegrityResult;
      expect(result.ok).toBe(true);
      expect(result.timedOut).toBe(false);
      expect(result.checks.length).toBeGreaterThanOrEqual(2);
      for (const check of result.checks) expect(check.ok, check.name).toBe(true);
      expect(result.problems).toEqual([]);
      const owner = await server.runtime.database.db
        .selectFrom("user")
        .select("id")
        .where("email", "=", "owner@demo.local")
        .executeTakeFirstOrThrow();
      const rows = await auditRows("database_integrity_checked");
      expect(rows).toHaveLength(1);
      expect(rows[0]!.actorId).toBe(owner.id);
      expect(JSON.parse(rows[0]!.details!).ok).toBe(true);
      const view = (await (await asOwner(`${BASE}/database`)).json()) as DatabaseView;
      expect(view.lastIntegrityCheck).toMatchObject({ ok: true, actorEmail: "owner@demo.local" });
    });

    if (dialect === "postgres") {
      it("verifies every B-tree index with amcheck once the extension is installed", async () => {
        const before = (await (
          await asOwner(`${BASE}/database/integrity-check`, {})
        ).json()) as IntegrityResult;
        expect(before.checks.find((c) => c.name.includes("amcheck"))!.detail).toMatch(/not installed/);
        await sql`create extension if not exists amcheck`.execute(server.runtime.database.db);
        const after = (await (
          await asOwner(`${BASE}/database/integrity-check`, {})
        ).json()) as IntegrityResult;
        expect(after.ok).toBe(true);
        const amcheck = after.checks.find((c) => c.name.includes("bt_index_check"))!;
        expect(amcheck.ok).toBe(true);
        expect(Number(/^(\d+) B-tree/.exec(amcheck.detail)?.[1])).toBeGreaterThan(20);
      });
    }

    if (dialect === "sqlite") {
      it("finds a broken foreign key", async () => {
        const file = server.runtime.database.file!;
        const raw = new DatabaseSync(file);
        raw.exec("PRAGMA foreign_keys=OFF");
        const [content] = raw
          .prepare("select id, categoryId from content where categoryId is not null limit 1")
          .all() as { id: string; categoryId: string }[];
        raw.prepare("update content set categoryId = 'no-such-category' where id = ?").run(content!.id);
        try {
          const result = (await (
            await asOwner(`${BASE}/database/integrity-check`, {})
          ).json()) as IntegrityResult;
          expect(result.ok).toBe(false);
          expect(result.checks.find((c) => c.name.includes("foreign_key_check"))!.ok).toBe(false);
          expect(result.problems.join("\n")).toContain("content");
        } finally {
          raw.prepare("update content set categoryId = ? where id = ?").run(content!.categoryId, content!.id);
          raw.close();
        }
      });

      it("downloads a consistent backup holding the users, audited, and leaves no temporary file", async () => {
        const res = await asOwner(`${BASE}/database/backup`, {});
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/vnd.sqlite3");
        expect(res.headers.get("content-disposition")).toMatch(
          /^attachment; filename="lumen-hub-\d{8}-\d{6}\.db"$/,
        );
        expect(res.headers.get("cache-control")).toContain("no-store");
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");
        const dir = mkdtempSync(path.join(tmpdir(), "lumen-backup-test-"));
        try {
          const file = path.join(dir, "copy.db");
          writeFileSync(file, bytes);
          const copy = new DatabaseSync(file, { readOnly: true });
          const emails = (
            copy.prepare("select email from user order by email").all() as { email: string }[]
          ).map((r) => r.email);
          expect(emails).toContain("owner@demo.local");
          expect(emails).toContain("free@demo.local");
          expect(
            (copy.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check,
          ).toBe("ok");
          copy.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        const rows = await auditRows("database_backup_downloaded");
        expect(rows).toHaveLength(1);
        expect(JSON.parse(rows[0]!.details!).bytes).toBe(bytes.byteLength);
      });
    } else {
      it("answers the backup with pg_dump guidance, never the password", async () => {
        const res = await asOwner(`${BASE}/database/backup`, {});
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain("application/json");
        const body = (await res.json()) as { kind: string; command: string; notes: string[] };
        expect(body.kind).toBe("pg_dump");
        expect(body.command).toMatch(/^pg_dump /);
        const url = new URL(server.databaseUrl);
        expect(body.command).toContain(url.pathname.slice(1));
        if (url.password) expect(body.command).not.toContain(url.password);
        expect(await auditRows("database_backup_downloaded")).toHaveLength(0);
      });
    }
  });
});
