/**
 * Work shared across app processes (issue 17, decision 028), with two runtimes on one database
 * standing in for two processes:
 * - job leases: of processes trying at once exactly one runs a tick; a finished tick keeps its
 *   period; a dead holder's lease is taken over; the runtime's periodic jobs run through them;
 * - local repositories: a process without the folder (its own REPOSITORIES_DIR) shows the files
 *   from the shared tables and never records a failure over the other process's good sync;
 * - category labels and author names renamed on one process show on the other within seconds;
 * - GitHub ETags kept in the database are sent by another client (another process).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitorActor } from "../../server/modules/actor.ts";
import { createContentCategoryRepo } from "../../server/modules/content/content-category.repo.ts";
import { readContentRevision } from "../../server/modules/content/content-revision.ts";
import { createJobLeases } from "../../server/modules/operations/job-lease.ts";
import { createGitHubResponseStore } from "../../server/modules/repositories/github-response-store.ts";
import { createRepositoriesRepo } from "../../server/modules/repositories/repositories.repo.ts";
import { createRepositorySync } from "../../server/modules/repositories/repository-sync.ts";
import { createGitHubClient } from "../../server/modules/repositories/sources/github-client.ts";
import { createRepositorySources } from "../../server/modules/repositories/sources/index.ts";
import { userActor } from "../factories/actors.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

/** Polls `read` until `done` holds (at most `ms`); answers the last value read. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

describe.each(DIALECTS)("work shared across processes (%s)", (dialect) => {
  let a: TestServer;
  let b: TestServer;
  let emptyRepositories: string;
  let sharedOutbox: string;

  beforeAll(async () => {
    a = await startTestServer(dialect);
    // The second process has no local repository folders (its own, empty REPOSITORIES_DIR).
    emptyRepositories = mkdtempSync(path.join(tmpdir(), "lumen-no-repos-"));
    sharedOutbox = mkdtempSync(path.join(tmpdir(), "lumen-outbox-"));
    b = await startTestServer(
      dialect,
      { REPOSITORIES_DIR: emptyRepositories, OUTBOX_DIR: sharedOutbox },
      { shareWith: a },
    );
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (emptyRepositories) rmSync(emptyRepositories, { recursive: true, force: true });
    if (sharedOutbox) rmSync(sharedOutbox, { recursive: true, force: true });
  });

  describe("job leases", () => {
    it("of processes trying one tick at the same moment, exactly one runs it", async () => {
      const holders = ["proc-a", "proc-b", "proc-c"].map((holder) =>
        createJobLeases({ db: holder === "proc-b" ? b.runtime.database.db : a.runtime.database.db, holder }),
      );
      let runs = 0;
      const outcomes = await Promise.all(
        holders.map((leases) =>
          leases.runExclusive("test-burst", 10_000, async () => {
            runs += 1;
            await new Promise((resolve) => setTimeout(resolve, 50));
            return leases.holder;
          }),
        ),
      );
      expect(runs).toBe(1);
      const ran = outcomes.filter((o) => o.ran);
      expect(ran).toHaveLength(1);
      const row = (await holders[0]!.list()).find((r) => r.name === "test-burst")!;
      expect(row).toMatchObject({ holder: null, lastOutcome: "ok", runs: 1 });
      expect(row.lastHolder).toBe(ran[0]!.ran ? ran[0]!.value : null);
    });

    it("a finished tick keeps its period from the others; a free lease runs again", async () => {
      const one = createJobLeases({ db: a.runtime.database.db, holder: "proc-1" });
      const two = createJobLeases({ db: b.runtime.database.db, holder: "proc-2" });
      const pass = async () => "ran";
      expect((await one.runExclusive("test-spacing", 10_000, pass, { spacingMs: 60_000 })).ran).toBe(true);
      expect(await two.runExclusive("test-spacing", 10_000, pass, { spacingMs: 60_000 })).toEqual({
        ran: false,
        holder: null,
      });
      // Without spacing the lease is free as soon as the pass ends.
      expect((await one.runExclusive("test-free", 10_000, pass)).ran).toBe(true);
      expect((await two.runExclusive("test-free", 10_000, pass)).ran).toBe(true);
      // A pass that asks for it frees the lease at once (work only another process can do).
      expect(
        (
          await one.runExclusive("test-handover", 10_000, async (lease) => lease.freeAtEnd(), {
            spacingMs: 60_000,
          })
        ).ran,
      ).toBe(true);
      expect((await two.runExclusive("test-handover", 10_000, pass, { spacingMs: 60_000 })).ran).toBe(true);
    });

    it("a held lease is not taken; a dead holder's expired lease is, and a failure is recorded", async () => {
      const db = a.runtime.database.db;
      await db
        .insertInto("job_lease")
        .values({ name: "test-dead", holder: "gone-process", leaseUntil: Date.now() + 60_000 })
        .execute();
      const leases = createJobLeases({ db: b.runtime.database.db, holder: "proc-b" });
      const failing = async () => {
        throw new Error("pass failed");
      };
      expect(await leases.runExclusive("test-dead", 10_000, failing)).toEqual({
        ran: false,
        holder: "gone-process",
      });
      await db
        .updateTable("job_lease")
        .set({ leaseUntil: Date.now() - 1 })
        .where("name", "=", "test-dead")
        .execute();
      await expect(leases.runExclusive("test-dead", 10_000, failing)).rejects.toThrow("pass failed");
      const row = (await leases.list()).find((r) => r.name === "test-dead")!;
      expect(row).toMatchObject({
        holder: null,
        lastHolder: "proc-b",
        lastOutcome: "error",
        lastError: "pass failed",
      });
    });

    it("a long pass keeps its lease renewed", async () => {
      const one = createJobLeases({ db: a.runtime.database.db, holder: "proc-long" });
      const two = createJobLeases({ db: b.runtime.database.db, holder: "proc-other" });
      let second: Awaited<ReturnType<typeof two.runExclusive>> | null = null;
      await one.runExclusive("test-long", 300, async () => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        second = await two.runExclusive("test-long", 300, async () => "stolen");
      });
      expect(second).toEqual({ ran: false, holder: "proc-long" });
    });

    it("the runtimes' periodic jobs run through leases, each tick on one of the processes", async () => {
      const db = a.runtime.database.db;
      const rows = await eventually(
        () =>
          db
            .selectFrom("job_lease")
            .selectAll()
            .where("name", "in", ["content-scheduler", "billing-sweep"])
            .execute(),
        (found) => found.length === 2 && found.every((r) => Number(r.runs) >= 2),
      );
      expect(rows.map((r) => r.name).sort()).toEqual(["billing-sweep", "content-scheduler"]);
      const processes = await db.selectFrom("process_heartbeat").select("processId").execute();
      const ids = processes.map((p) => p.processId);
      for (const row of rows) {
        expect(ids).toContain(row.lastHolder);
        expect(row.lastOutcome).not.toBe("error");
      }
      // Starts are at least 0.9 s apart whichever process ticks: about one run per second, where
      // two processes each running every tick would make six in three seconds.
      const start = Number(rows.find((r) => r.name === "content-scheduler")!.runs);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const end = await db
        .selectFrom("job_lease")
        .select("runs")
        .where("name", "=", "content-scheduler")
        .executeTakeFirstOrThrow();
      expect(Number(end.runs) - start).toBeLessThanOrEqual(5);
      // Both processes tick every second, so one of them has left ticks to the other (skipped).
      type Job = { name: string; exclusive?: boolean; skipped?: number };
      const jobsOf = async () =>
        (await db.selectFrom("process_heartbeat").select("jobs").execute()).flatMap(
          (r) => JSON.parse(r.jobs) as Job[],
        );
      const shared = await eventually(
        jobsOf,
        (jobs) => jobs.some((j) => j.name === "content-scheduler" && (j.skipped ?? 0) > 0),
        12_000,
      );
      const scheduler = shared.filter((j) => j.name === "content-scheduler");
      expect(scheduler.every((j) => j.exclusive)).toBe(true);
      expect(scheduler.some((j) => (j.skipped ?? 0) > 0)).toBe(true);
    });
  });

  describe("local repositories", () => {
    it("a process without the folder shows the synced files and leaves the good sync alone", async () => {
      const db = a.runtime.database.db;
      const repository = await db
        .selectFrom("github_repository")
        .selectAll()
        .where("sourceType", "=", "local")
        .orderBy("slug")
        .executeTakeFirstOrThrow();
      const file = await db
        .selectFrom("repository_file")
        .select(["path", "content"])
        .where("repositoryId", "=", repository.id)
        .where("type", "=", "file")
        .where("isReadme", "=", false)
        .where("content", "is not", null)
        .orderBy("path")
        .executeTakeFirstOrThrow();
      const actor = userActor({ userId: "shared-work-reader", groups: ["individual-pro"], tier: "pro" });
      const view = await b.runtime.services.repositories.readRepositoryFile(actor, repository.slug, {
        path: file.path,
      });
      expect(view).toMatchObject({ path: file.path, stale: false });
      expect(JSON.stringify(view)).toContain(JSON.stringify(file.content).slice(1, 40));

      const row = await createRepositoriesRepo(db).getRepository(repository.id);
      const before = await db
        .selectFrom("github_repository")
        .select(["lastSyncAt", "lastSyncError", "cacheExpiry"])
        .where("id", "=", repository.id)
        .executeTakeFirstOrThrow();
      expect(before.lastSyncError).toBeNull();
      // Each process's sync, as its runtime makes it (its own folder of local repositories).
      const syncOn = (server: TestServer, localRoot: string) =>
        createRepositorySync({
          db: server.runtime.database.db,
          sources: createRepositorySources({ localRoot }),
        });
      const outcome = await syncOn(b, emptyRepositories).syncRepository(row!);
      expect(outcome).toMatchObject({ ok: false, notOnThisProcess: true });
      const after = await db
        .selectFrom("github_repository")
        .select(["lastSyncAt", "lastSyncError", "cacheExpiry"])
        .where("id", "=", repository.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      // The process that has the folder syncs it.
      expect(await syncOn(a, path.join(a.dataDir, "repositories")).syncRepository(row!)).toMatchObject({
        ok: true,
      });
    });
  });

  describe("names shown on items", () => {
    it("a category renamed on one process shows on the other within seconds", async () => {
      const db = a.runtime.database.db;
      const item = await db
        .selectFrom("content")
        .select(["slug", "categorySlug"])
        .where("status", "=", "published")
        .where("tier", "=", "Free")
        .where("categorySlug", "is not", null)
        .orderBy("slug")
        .executeTakeFirstOrThrow();
      const visitor = visitorActor();
      expect((await b.runtime.services.content.getItem(visitor, item.slug))?.categoryLabel).toBeTruthy();
      const category = await db
        .selectFrom("content_category")
        .select("id")
        .where("slug", "=", item.categorySlug!)
        .executeTakeFirstOrThrow();
      await createContentCategoryRepo(db).update(category.id, { label: "Renamed On A" });
      const seen = await eventually(
        () => b.runtime.services.content.getItem(visitor, item.slug),
        (summary) => summary?.categoryLabel === "Renamed On A",
      );
      expect(seen?.categoryLabel).toBe("Renamed On A");
    });

    it("the AI news feed of the other process carries a renamed category within seconds", async () => {
      const db = a.runtime.database.db;
      const item = await db
        .selectFrom("content")
        .select("categorySlug")
        .where("status", "=", "published")
        .where("section", "=", "ai-news")
        .where("tier", "=", "Free")
        .where("categorySlug", "is not", null)
        .orderBy("publishedAt", "desc")
        .executeTakeFirstOrThrow();
      const feed = () => fetch(`${b.url}/ai-news/rss.xml`).then((res) => res.text());
      expect(await feed()).toContain("<category>");
      const category = await db
        .selectFrom("content_category")
        .select("id")
        .where("slug", "=", item.categorySlug!)
        .executeTakeFirstOrThrow();
      await createContentCategoryRepo(db).update(category.id, { label: "Feed Label On A" });
      expect(await eventually(feed, (xml) => xml.includes("Feed Label On A"))).toContain("Feed Label On A");
    });

    it("an author renamed (by any writer) moves the content revision, and the other process shows it", async () => {
      const db = a.runtime.database.db;
      const item = await db
        .selectFrom("content")
        .select(["slug", "authorId"])
        .where("status", "=", "published")
        .where("tier", "=", "Free")
        .where("authorId", "is not", null)
        .orderBy("slug")
        .executeTakeFirstOrThrow();
      const visitor = visitorActor();
      expect((await b.runtime.services.content.getItem(visitor, item.slug))?.authorName).toBeTruthy();
      const revision = await readContentRevision(db);
      // Another column of the user changes nothing shown on items.
      await db.updateTable("user").set({ updatedAt: new Date() }).where("id", "=", item.authorId!).execute();
      expect(await readContentRevision(db)).toBe(revision);
      await db
        .updateTable("user")
        .set({ displayName: "Renamed Author", name: "Renamed Author" })
        .where("id", "=", item.authorId!)
        .execute();
      expect(await readContentRevision(db)).toBeGreaterThan(revision);
      const seen = await eventually(
        () => b.runtime.services.content.getItem(visitor, item.slug),
        (summary) => summary?.authorName === "Renamed Author",
      );
      expect(seen?.authorName).toBe("Renamed Author");
    });
  });

  it("mail without SMTP_URL goes to OUTBOX_DIR when it is set", async () => {
    await b.runtime.mailer.send({ to: "someone@example.test", subject: "Outbox check", text: "Hello" });
    const files = readdirSync(sharedOutbox).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(sharedOutbox, files[0]!), "utf8")).toContain("Outbox check");
  });

  describe("GitHub ETags", () => {
    it("an answer kept by one process is revalidated by another with If-None-Match", async () => {
      const sent: Array<string | null> = [];
      const fakeFetch = (async (_url: URL, init?: RequestInit) => {
        const headers = (init?.headers ?? {}) as Record<string, string>;
        sent.push(headers["if-none-match"] ?? null);
        if (headers["if-none-match"] === '"v1"') return new Response(null, { status: 304 });
        return new Response(JSON.stringify({ full_name: "octo/demo", stars: 3 }), {
          status: 200,
          headers: { etag: '"v1"', "content-type": "application/json" },
        });
      }) as typeof fetch;
      const first = createGitHubClient({
        fetch: fakeFetch,
        store: createGitHubResponseStore(a.runtime.database.db),
      });
      const second = createGitHubClient({
        fetch: fakeFetch,
        store: createGitHubResponseStore(b.runtime.database.db),
      });
      expect(await first.get("/repos/octo/demo")).toMatchObject({ notModified: false });
      const again = await second.get("/repos/octo/demo");
      expect(again).toEqual({ data: { full_name: "octo/demo", stars: 3 }, notModified: true, next: null });
      expect(sent).toEqual([null, '"v1"']);
    });

    it("the kept answers are bounded", async () => {
      const db = a.runtime.database.db;
      let at = Date.now() + 60_000; // newer than any other row, one ms apart
      const store = createGitHubResponseStore(db, { maxRows: 3, now: () => at++ });
      for (let i = 0; i < 6; i++) {
        await store.write(`https://api.github.test/bounded/${i}`, { etag: `"${i}"`, text: "{}", next: null });
      }
      await store.prune();
      const left = await db
        .selectFrom("github_response")
        .select("key")
        .where("key", "like", "https://api.github.test/bounded/%")
        .execute();
      expect(left.length).toBeLessThanOrEqual(3);
      expect(await store.read("https://api.github.test/bounded/5")).toEqual({
        etag: '"5"',
        text: "{}",
        next: null,
      });
    });
  });
});
