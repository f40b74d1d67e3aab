/**
 * Recording webhook events on a real database: content writes are told apart (a draft is silent,
 * going live is content.published — also through the scheduler —, an edit of a live item is
 * content.updated once per version, archiving is content.archived), only enabled endpoints that
 * want an event get a delivery, and a failing insert inside the writer's transaction does not
 * fail the write (the savepoint).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { inTransaction } from "../../db/transaction.ts";
import { createContentRepo } from "../content/content.repo.ts";
import { publishDueContent } from "../content/content-scheduler.ts";
import { webhookContentHooks } from "./webhook-runtime.ts";
import { createWebhookSender } from "./webhook-sender.ts";

describe.each(testDialects())("webhook events on %s", (dialect) => {
  let t: TestDatabase;
  const hooks = webhookContentHooks({});

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { file: true });
    const at = new Date().toISOString();
    const endpoint = (id: string, events: string[], enabled: boolean) => ({
      id,
      url: "https://example.com/hook",
      events: JSON.stringify(events),
      secret: "whsec_test",
      enabled,
      createdAt: at,
      updatedAt: at,
    });
    await t.db
      .insertInto("webhook_endpoint")
      .values([
        endpoint("all", ["content.published", "content.updated", "content.archived"], true),
        endpoint("published-only", ["content.published"], true),
        endpoint("off", ["content.published", "content.updated", "content.archived"], false),
      ])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const deliveries = async (contentId: string) => {
    const rows = await t.db
      .selectFrom("webhook_delivery")
      .select(["endpointId", "eventType", "payload"])
      .execute();
    return rows
      .filter((r) => (JSON.parse(r.payload) as { data: { id?: string } }).data.id === contentId)
      .map((r) => `${r.endpointId}:${r.eventType}`)
      .sort();
  };

  it("tells a publish, an update and an archive apart, for the endpoints that want them", async () => {
    const repo = createContentRepo(t.db, hooks);
    const item = await repo.create({
      title: "Draft",
      slug: `d-${randomUUID().slice(0, 8)}`,
      status: "draft",
    });
    expect(await deliveries(item.id)).toEqual([]);
    const edited = await repo.update(item.id, item.version, { title: "Still a draft" });
    expect(await deliveries(item.id)).toEqual([]);
    // Published inside a transaction, as the studio's transitions do.
    const live = await inTransaction(t.db, (trx) =>
      createContentRepo(trx, hooks).update(item.id, edited.version, { status: "published" }),
    );
    expect(await deliveries(item.id)).toEqual(["all:content.published", "published-only:content.published"]);
    await repo.update(item.id, live.version, { title: "Live, edited" });
    expect(await deliveries(item.id)).toEqual([
      "all:content.published",
      "all:content.updated",
      "published-only:content.published",
    ]);
    // A second hook call for the same version (a body write) is not another event.
    await hooks.afterWrite?.({ kind: "upsert", id: item.id }, t.db);
    expect((await deliveries(item.id)).filter((d) => d === "all:content.updated")).toHaveLength(1);
    const current = (await repo.getById(item.id))!;
    await repo.update(item.id, current.version, { status: "archived" });
    expect(await deliveries(item.id)).toContain("all:content.archived");
    const payload = await t.db
      .selectFrom("webhook_delivery")
      .select("payload")
      .where("eventType", "=", "content.archived")
      .executeTakeFirstOrThrow();
    const body = JSON.parse(payload.payload) as { id: string; type: string; createdAt: string; data: object };
    expect(Object.keys(body).sort()).toEqual(["createdAt", "data", "id", "type"]);
    expect(Object.keys(body.data)).not.toContain("body");
    expect(Object.keys(body.data)).not.toContain("bodyS3Key");
  });

  it("records the scheduler's auto-publish as content.published", async () => {
    const when = "2026-06-01T12:00:00.000Z";
    const item = await createContentRepo(t.db, hooks).create({
      title: "Scheduled",
      slug: `s-${randomUUID().slice(0, 8)}`,
      status: "review",
      workflowStatus: "scheduled",
      publishedAt: when,
    });
    expect(await publishDueContent({ db: t.db, hooks, now: () => Date.parse(when) + 1000 })).toEqual([
      item.id,
    ]);
    expect(await deliveries(item.id)).toEqual(["all:content.published", "published-only:content.published"]);
  });

  it("the sweep prunes deliveries older than 30 days and keeps the rest", async () => {
    const now = Date.parse("2026-06-01T12:00:00Z");
    const row = (id: string, ageDays: number) => ({
      id,
      endpointId: "all",
      eventId: id,
      eventType: "content.published",
      payload: "{}",
      status: "succeeded",
      createdAt: new Date(now - ageDays * 86_400_000).toISOString(),
      createdEpoch: now - ageDays * 86_400_000,
    });
    await t.db
      .insertInto("webhook_delivery")
      .values([row("old-one", 31), row("recent-one", 29)])
      .execute();
    const sender = createWebhookSender({ db: t.db, now: () => now });
    expect((await sender.sweep({ maintenance: true })).pruned).toBeGreaterThanOrEqual(1);
    const left = await t.db
      .selectFrom("webhook_delivery")
      .select("id")
      .where("id", "in", ["old-one", "recent-one"])
      .execute();
    expect(left.map((r) => r.id)).toEqual(["recent-one"]);
    await sender.stop();
  });

  it("a failing delivery insert does not fail the writer's transaction", async () => {
    const repo = createContentRepo(t.db, hooks);
    const item = await repo.create({
      title: "Fragile",
      slug: `f-${randomUUID().slice(0, 8)}`,
      status: "draft",
    });
    await t.db.schema.dropTable("webhook_delivery").execute();
    const published = await inTransaction(t.db, async (trx) => {
      const updated = await createContentRepo(trx, hooks).update(item.id, item.version, {
        status: "published",
      });
      // The transaction is still usable after the failed insert (PostgreSQL aborts it otherwise).
      await trx.updateTable("content").set({ excerpt: "after" }).where("id", "=", item.id).execute();
      return updated;
    });
    expect(published.status).toBe("published");
    const row = await t.db
      .selectFrom("content")
      .select(["status", "excerpt"])
      .where("id", "=", item.id)
      .executeTakeFirst();
    expect(row).toEqual({ status: "published", excerpt: "after" });
  });
});
