import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccessContext, canAccessContent } from "../../../core/index.ts";
import { PERSONA_NAMES, PERSONAS } from "../../../core/test-personas.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { createContentRepo } from "./content.repo.ts";
import { readableBy } from "./readable-sql.ts";

/** Stored tiers: the four plans, other spellings parseTier reads, empty, and unreadable values. */
const STORED_TIERS = [
  "Free",
  "Basic",
  "Pro",
  "Enterprise",
  "pro",
  "BASIC",
  "business",
  " Pro ",
  "",
  "Gold",
  "visitor",
];
/** Stored role requirements, including JSON that needs escaping and a role that is a prefix of another. */
const STORED_ROLES: string[][] = [
  [],
  ["ContentManager"],
  ["AdminUser", "SuperUser"],
  ["Admin"],
  ["Editor"],
  ['Say "hi"'],
  ["Content"],
];

/** The demo personas, plus readers whose roles test the JSON matching. */
const READERS: Array<[string, AccessContext]> = [
  ...PERSONA_NAMES.map((n) => [n, PERSONAS[n]] as [string, AccessContext]),
  ["pro editor", { ...PERSONAS.pro, roles: ["Editor"] }],
  ["quoted role", { ...PERSONAS.basic, roles: ['Say "hi"'] }],
  ["prefix role", { ...PERSONAS.enterprise, roles: ["Content"] }],
  ["suffix only", { ...PERSONAS.enterprise, roles: ["Manager"] }],
];

describe.each(testDialects())("readableBy agrees with core's canAccessContent on %s", (dialect) => {
  let t: TestDatabase;
  const items: Array<{ id: string; tier: string; rolesRequired: string[] }> = [];

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const repo = createContentRepo(t.db);
    for (const tier of STORED_TIERS) {
      for (const rolesRequired of STORED_ROLES) {
        const created = await repo.create({
          title: "Item",
          slug: `item-${randomUUID().slice(0, 8)}`,
          tier,
          rolesRequired,
        });
        items.push({ id: created.id, tier, rolesRequired });
      }
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it("stores every tier value as written (so unreadable values are really exercised)", async () => {
    const rows = await t.db.selectFrom("content").select(["id", "tier"]).execute();
    const stored = new Map(rows.map((r) => [r.id, r.tier]));
    for (const item of items) expect(stored.get(item.id)).toBe(item.tier);
  });

  it.each(READERS)("%s reads exactly the items core lets it read", async (_name, reader) => {
    const rows = await t.db
      .selectFrom("content as c")
      .select("c.id")
      .where(readableBy({ tier: reader.tier, roles: reader.roles }, dialect, "c"))
      .execute();
    const got = new Set(rows.map((r) => r.id));
    const disagreements = items
      .filter(
        (item) =>
          got.has(item.id) !==
          canAccessContent({ tier: item.tier, rolesRequired: item.rolesRequired }, reader),
      )
      .map((item) => `${JSON.stringify(item.tier)} ${JSON.stringify(item.rolesRequired)}`);
    expect(disagreements).toEqual([]);
  });
});
