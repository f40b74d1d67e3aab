import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPostgresDatabase } from "../../tests/helpers/test-server.ts";
import { acquireStartUpLock } from "./start-up-lock.ts";
import { testDialects } from "./test-database.ts";

describe.each(testDialects())("start-up lock (%s)", (dialect) => {
  let url = "";
  let file: string | null = null;
  let cleanUp: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (dialect === "postgres") {
      const database = await createTestPostgresDatabase();
      url = database.url;
      cleanUp = database.drop;
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), "lumen-lock-"));
      file = path.join(dir, "app.db");
      url = file;
      cleanUp = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(() => cleanUp());

  it("lets one holder at a time through, the next as soon as it is released", async () => {
    const order: string[] = [];
    const first = await acquireStartUpLock(url, file);
    order.push("first acquired");
    const second = acquireStartUpLock(url, file).then((lock) => {
      order.push("second acquired");
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual(["first acquired"]);
    order.push("first released");
    await first.release();
    const lock = await second;
    expect(order).toEqual(["first acquired", "first released", "second acquired"]);
    await lock.release();
    await lock.release(); // twice is harmless

    // Free again: taken at once.
    const third = await acquireStartUpLock(url, file);
    await third.release();
  });

  it.runIf(dialect === "sqlite")("needs no lock for an in-memory database", async () => {
    const a = await acquireStartUpLock(":memory:", null);
    const b = await acquireStartUpLock(":memory:", null);
    await a.release();
    await b.release();
  });
});
