import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, DataIntegrityError } from "../../errors.ts";
import { type AuditEntry, createAuditRepo } from "./audit.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(testDialects())("audit repository on %s", (dialect) => {
  let t: TestDatabase;
  let audit: ReturnType<typeof createAuditRepo>;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    audit = createAuditRepo(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("appends entries and lists them newest first, by actor, with a cursor", async () => {
    const actorId = unique("actor");
    const first = await audit.append({
      action: "auth.sign_in",
      actorId,
      ip: "127.0.0.1",
      targetType: "user",
      targetId: actorId,
      details: { method: "password", mfa: false },
      at: "2026-01-01T00:00:00.000Z",
    });
    expect(first).toMatchObject({
      action: "auth.sign_in",
      actorId,
      details: { method: "password", mfa: false },
    });
    const made: AuditEntry[] = [first];
    for (let i = 0; i < 5; i++) {
      made.push(
        await audit.append({ action: "role.change", actorId, at: `2026-01-0${2 + (i % 2)}T00:00:00.000Z` }),
      );
    }
    const anonymous = await audit.append({ action: "auth.lockout" });
    expect(anonymous).toMatchObject({ actorId: null, details: null, ip: null });

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: AuditEntry[]; nextCursor: string | null } = await audit.listRecent(
        { actorId },
        { limit: 4, cursor },
      );
      ids.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    const expected = [...made]
      .sort((a, b) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at)))
      .map((e) => e.id);
    expect(ids).toEqual(expected);

    const recent = await audit.listRecent({}, { limit: 1 });
    expect(recent.items[0]?.id).toBe(anonymous.id);
    expect((await audit.listRecent({ actorId, action: "auth.sign_in" })).items.map((e) => e.id)).toEqual([
      first.id,
    ]);
  });

  it("validates the action and details", async () => {
    await expect(audit.append({ action: "" })).rejects.toThrow(BadInputError);
    await expect(
      audit.append({ action: "x", details: ["not", "an", "object"] as unknown as Record<string, never> }),
    ).rejects.toThrow(BadInputError);
    const e = await audit.append({ action: unique("corrupt") });
    await t.db.updateTable("audit_log").set({ details: "[1]" }).where("id", "=", e.id).execute();
    await expect(audit.listRecent({ action: e.action })).rejects.toThrow(DataIntegrityError);
    await expect(audit.listRecent({}, { cursor: "x" })).rejects.toThrow(BadInputError);
  });
});
