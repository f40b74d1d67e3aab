/**
 * The scheduling job against a real database shared by two connections (two app processes): each
 * due item is published exactly once with one auto_publish event, items not yet due and items no
 * longer scheduled are left alone, and the content revision moves so every process drops its cache.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../db/database.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { createContentRepo } from "./content.repo.ts";
import { readContentRevision } from "./content-revision.ts";
import { publishDueContent, releaseIfDue } from "./content-scheduler.ts";

describe.each(testDialects())("scheduling job on %s", (dialect) => {
  let t: TestDatabase;
  let other: Database;

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { file: true });
    other =
      dialect === "postgres"
        ? createDatabase(process.env.TEST_DATABASE_URL!, { searchPath: t.schema!, maxConnections: 5 })
        : createDatabase(t.path!);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const scheduled = (publishedAt: string, workflowStatus = "scheduled") =>
    createContentRepo(t.db).create({
      title: "Scheduled",
      slug: `scheduled-${randomUUID().slice(0, 8)}`,
      status: "review",
      workflowStatus,
      publishedAt,
    });

  it("publishes each due item once, however many processes try", async () => {
    const now = Date.parse("2026-06-01T12:00:00Z");
    const due = await Promise.all([0, 1, 2, 3].map((i) => scheduled(new Date(now - 1000 * i).toISOString())));
    const exactlyNow = await scheduled(new Date(now).toISOString());
    const later = await scheduled(new Date(now + 1).toISOString());
    const approved = await scheduled(new Date(now - 5000).toISOString(), "approved");
    const revisionBefore = await readContentRevision(t.db);

    // Both processes saw every due item: each tries to release each one. PostgreSQL runs them
    // at the same time; node:sqlite is synchronous, so two connections in one process would only
    // wait on each other's lock: there they take turns, which still tests the guard.
    const tries = [...due, exactlyNow, later, approved].flatMap((item) =>
      [t.db, other.db].map((db) => () => releaseIfDue({ db }, item, now)),
    );
    const results =
      dialect === "postgres"
        ? await Promise.all(tries.map((run) => run()))
        : await tries.reduce<Promise<boolean[]>>(
            async (acc, run) => [...(await acc), await run()],
            Promise.resolve([]),
          );
    const runs = [
      [...due, exactlyNow, later, approved].flatMap((item, i) =>
        results
          .slice(i * 2, i * 2 + 2)
          .filter(Boolean)
          .map(() => item.id),
      ),
    ];
    const publishedIds = runs.flat().sort();
    expect(publishedIds).toEqual([...due, exactlyNow].map((i) => i.id).sort());

    const rows = await t.db
      .selectFrom("content")
      .select(["id", "status", "workflowStatus", "version"])
      .where(
        "id",
        "in",
        [...due, exactlyNow, later, approved].map((i) => i.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const item of [...due, exactlyNow]) {
      expect(byId.get(item.id)).toMatchObject({
        status: "published",
        workflowStatus: "published",
        version: 2,
      });
    }
    expect(byId.get(later.id)).toMatchObject({ status: "review", workflowStatus: "scheduled", version: 1 });
    expect(byId.get(approved.id)).toMatchObject({ status: "review", workflowStatus: "approved", version: 1 });

    const events = await t.db
      .selectFrom("content_workflow_event")
      .select(["contentId", "action", "fromState", "toState", "actorId"])
      .where(
        "contentId",
        "in",
        [...due, exactlyNow, later, approved].map((i) => i.id),
      )
      .execute();
    expect(events).toHaveLength(5);
    for (const e of events) {
      expect(e).toMatchObject({
        action: "auto_publish",
        fromState: "scheduled",
        toState: "published",
        actorId: null,
      });
    }
    expect(new Set(events.map((e) => e.contentId)).size).toBe(5);
    expect(await readContentRevision(t.db)).toBeGreaterThan(revisionBefore);

    // A pass of the job finds what is due and nothing it already released.
    const another = await scheduled(new Date(now - 10).toISOString());
    expect(await publishDueContent({ db: other.db, now: () => now })).toEqual([another.id]);
    expect(await publishDueContent({ db: t.db, now: () => now })).toEqual([]);
  });
});
