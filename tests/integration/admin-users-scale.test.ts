/**
 * /admin/users stays fast with 100,000 users (issue 14 "Must hold"): the users are seeded in one
 * SQL statement per table (not through the API), the tables ANALYZEd, and the plans of the list
 * queries the service really runs (`createUsersAdminRepo().listSql`) are checked:
 *
 * - search: a case-insensitive prefix range on lower(email) / lower(username) / lower(name) is
 *   answered from the three indexes of migration 026 (an infix `%part%` could use none of them and
 *   would read every row on each keystroke: that is why the search is by prefix);
 * - each sort (name, e-mail, created, last sign-in, both directions) walks its index in order, so a
 *   page costs its LIMIT + OFFSET rows and no sort of the whole table;
 * - the group / organisation filters and an organisation admin's scope start from the
 *   user_group (groupName, userId) index.
 * The status, MFA and tier filters are low-selectivity flags and rules over several tables: they
 * walk the sort index and stop at the page (the total is a count over the matching rows); the
 * bench (`npm run bench`, "users search") measures them at 100,000 users.
 */
import { type CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScaleUsers } from "../../bench/seed-users.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../server/db/test-database.ts";
import { createUsersAdminRepo, type ListFilter } from "../../server/modules/users-admin/users-admin.repo.ts";

const USERS = 100_000;
const base: ListFilter = { scopeOrgs: null, sort: "name", dir: "asc", offset: 0, limit: 25, now: Date.now() };

/** The plan lines of a compiled query (SQLite: EXPLAIN QUERY PLAN details; PostgreSQL: EXPLAIN). */
async function planOf(t: TestDatabase, query: CompiledQuery): Promise<string> {
  const prefix = t.dialect === "postgres" ? "explain " : "explain query plan ";
  const result = await t.db.executeQuery<Record<string, unknown>>({
    ...query,
    sql: prefix + query.sql,
  } as CompiledQuery);
  return result.rows.map((r) => String(r.detail ?? r["QUERY PLAN"] ?? Object.values(r).join(" "))).join("\n");
}

describe.each(testDialects())("admin users list at 100,000 users (%s)", (dialect) => {
  let t: TestDatabase;
  let repo: ReturnType<typeof createUsersAdminRepo>;
  const plan = async (f: Partial<ListFilter>, part: "rows" | "count" = "rows") => {
    const q = await repo.listSql({ ...base, ...f });
    return planOf(t, q[part].compile(t.db));
  };
  /** No pass over every row of "user" (SQLite: a SCAN without an index; PostgreSQL: a Seq Scan). */
  const noFullScan = (text: string) => {
    if (dialect === "postgres") expect(text).not.toMatch(/Seq Scan on "?user"? /);
    else expect(text).not.toMatch(/SCAN u(?! USING)/);
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const started = Date.now();
    await seedScaleUsers(t.db, t.dialect, USERS);
    // Seeding stays fast: bulk SQL, not the API.
    expect(Date.now() - started).toBeLessThan(60_000);
    if (dialect === "postgres") await sql`set enable_seqscan = off`.execute(t.db);
    repo = createUsersAdminRepo(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("has the users", async () => {
    const n = await t.db
      .selectFrom("user")
      .select(t.db.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(USERS);
  });

  it("searches by prefix from the lower(email/username/name) indexes", async () => {
    const text = await plan({ q: "person1234" });
    noFullScan(text);
    for (const index of ["user_email_lower_idx", "user_username_lower_idx", "user_name_lower_idx"]) {
      expect(text).toContain(index);
    }
    noFullScan(await plan({ q: "person1234" }, "count"));
    const started = Date.now();
    const page = await repo.list({ ...base, q: "PERSON1234" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(page.items.map((i) => i.email)).toContain("person1234@scale.test");
    for (const i of page.items) expect(i.email.startsWith("person1234")).toBe(true);
  });

  it("sorts from an index in both directions, with no sort of the whole table", async () => {
    const expected: Record<string, string> = {
      name: "user_name_lower_idx",
      email: "user_email_lower_idx",
      created: "user_createdAt_idx",
      lastLogin: "user_lastLoginAt_idx",
    };
    for (const sort of ["name", "email", "created", "lastLogin"] as const) {
      for (const dir of ["asc", "desc"] as const) {
        const text = await plan({ sort, dir, offset: 2_500 });
        noFullScan(text);
        expect(text, `${sort} ${dir}`).toContain(expected[sort]);
        if (dialect === "sqlite") expect(text, `${sort} ${dir}`).not.toContain("TEMP B-TREE");
        else expect(text, `${sort} ${dir}`).not.toMatch(/\bSort\b/);
      }
    }
    const page = await repo.list({ ...base, sort: "lastLogin", dir: "desc", offset: 50_000 });
    expect(page.total).toBe(USERS);
    const stamps = page.items.map((i) => i.lastLoginAt);
    expect(stamps).toEqual([...stamps].sort().reverse());
  });

  it("starts the group, organisation and organisation-admin scope filters from user_group", async () => {
    for (const f of [
      { group: "individual-pro" },
      { organisation: "scale" },
      { scopeOrgs: ["scale"] },
    ] satisfies Partial<ListFilter>[]) {
      const text = await plan(f, "count");
      expect(text, JSON.stringify(f)).toMatch(
        /user_group_groupName_userId_idx|user_group_groupName_idx|user_group_pk/,
      );
    }
    const scoped = await repo.list({ ...base, scopeOrgs: ["scale"], limit: 100 });
    expect(scoped.total).toBe(USERS / 50);
    for (const i of scoped.items) expect(i.organisations).toEqual(["scale"]);
  });

  it("answers the flag and tier filters within bounds", async () => {
    for (const f of [
      { status: "suspended" },
      { mfa: "on" },
      { tier: "pro" },
      { status: "active", sort: "created", dir: "desc" },
    ] satisfies Partial<ListFilter>[]) {
      const started = Date.now();
      const page = await repo.list({ ...base, ...f });
      expect(Date.now() - started, JSON.stringify(f)).toBeLessThan(10_000);
      expect(page.items.length).toBeGreaterThan(0);
    }
    const pro = await repo.list({ ...base, tier: "pro", limit: 50 });
    // Every 10th is in individual-pro, but those also in org-scale (every 50th) are Enterprise.
    expect(pro.total).toBe(USERS / 10 - USERS / 50);
    for (const i of pro.items) expect(i.tier).toBe("pro");
  }, 60_000);
});
