/**
 * PostgreSQL revision notifications (migration 042, decision 032): a committed content or settings
 * revision bump reaches a listener on another connection, a rolled-back one does not, and a
 * listener whose connection is cut reconnects and says so (notifications sent meanwhile are lost,
 * so the runtime then re-reads every revision).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPostgresDatabase } from "../../tests/helpers/test-server.ts";
import { bumpContentRevision } from "../modules/content/content-revision.ts";
import { createDatabase, type Database } from "./database.ts";
import { migrateToLatest } from "./migrate.ts";
import { listenForRevisions, type RevisionListener } from "./revision-listener.ts";
import { testDialects } from "./test-database.ts";

const postgres = testDialects().includes("postgres");

describe.skipIf(!postgres)("revision notifications (postgres)", () => {
  let url = "";
  let drop: () => Promise<void> = async () => {};
  let database: Database;
  let listener: RevisionListener;
  const heard: string[] = [];
  let reconnects = 0;

  const waitFor = async (what: () => boolean, label: string) => {
    for (let i = 0; i < 200; i++) {
      if (what()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting for ${label}`);
  };

  beforeAll(async () => {
    const created = await createTestPostgresDatabase();
    url = created.url;
    drop = created.drop;
    database = createDatabase(url);
    await migrateToLatest(database.db);
    listener = listenForRevisions(url, {
      onNotify: (table) => heard.push(table),
      onReconnect: () => {
        reconnects += 1;
      },
      applicationName: "revision-listener-test",
    });
    await listener.ready;
  });
  afterAll(async () => {
    await listener?.stop();
    await database?.close();
    await drop();
  });

  it("hears committed content and settings bumps, by table, and nothing of a rolled-back one", async () => {
    expect(listener.listening()).toBe(true);
    await bumpContentRevision(database.db);
    await waitFor(() => heard.includes("content_revision"), "the content notification");
    await database.db
      .updateTable("system_setting_revision")
      .set((eb) => ({ revision: eb("revision", "+", 1) }))
      .where("id", "=", 1)
      .execute();
    await waitFor(() => heard.includes("system_setting_revision"), "the settings notification");

    heard.length = 0;
    await database.db
      .transaction()
      .execute(async (trx) => {
        await bumpContentRevision(trx);
        throw new Error("roll back");
      })
      .catch(() => {});
    await bumpContentRevision(database.db);
    await waitFor(() => heard.length > 0, "the committed bump");
    // Only the committed bump was delivered (PostgreSQL drops a rolled-back transaction's NOTIFY).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(["content_revision"]);
  });

  it("reconnects after its connection is cut, says so, and hears later bumps", async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'revision-listener-test'",
      );
    } finally {
      await admin.end();
    }
    await waitFor(() => reconnects === 1 && listener.listening(), "the reconnection");
    heard.length = 0;
    await bumpContentRevision(database.db);
    await waitFor(() => heard.includes("content_revision"), "a notification after reconnecting");
  });

  it("stops for good: no reconnection after stop", async () => {
    await listener.stop();
    expect(listener.listening()).toBe(false);
    heard.length = 0;
    await bumpContentRevision(database.db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([]);
  });
});
