import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, ConflictError, NotFoundError } from "../../errors.ts";
import { createSubscriptionsRepo } from "../subscriptions/subscriptions.repo.ts";
import { createUsersRepo, type User } from "./users.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(testDialects())("users repository on %s", (dialect) => {
  let t: TestDatabase;
  let users: ReturnType<typeof createUsersRepo>;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    users = createUsersRepo(t.db);
    await users.ensureGroups([
      { name: "individual-free", precedence: 0 },
      { name: "individual-pro", precedence: 2, description: "Pro individuals" },
      { name: "app-admin", precedence: 5 },
      { name: "ContentManager", precedence: 10 },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("round-trips a user with the spec's fields, booleans and ISO dates", async () => {
    const email = `${unique("Grace")}@Demo.Local`;
    const handle = unique("GraceH");
    const created = await users.create({
      name: "Grace Hopper",
      email,
      username: handle,
      displayName: "Grace",
      bio: "Compilers",
      avatar: "/avatars/grace.png",
      role: "admin",
      emailVerified: true,
      createdAt: "2026-01-05T00:00:00.000Z",
    });
    expect(created).toMatchObject({
      name: "Grace Hopper",
      email: email.toLowerCase(),
      username: handle.toLowerCase(),
      displayUsername: handle,
      displayName: "Grace",
      bio: "Compilers",
      avatar: "/avatars/grace.png",
      role: "admin",
      emailVerified: true,
      isActive: true,
      accountType: "individual",
      image: null,
      createdAt: "2026-01-05T00:00:00.000Z",
      updatedAt: "2026-01-05T00:00:00.000Z",
    });
    expect(await users.getById(created.id)).toEqual(created);
    expect(await users.getByEmail(email.toUpperCase())).toEqual(created);
    expect(await users.getByUsername(handle.toUpperCase())).toEqual(created);
    expect(await users.getById("nobody")).toBeNull();
    expect(await users.getByEmail("nobody@demo.local")).toBeNull();

    const updated = await users.update(created.id, { isActive: false, bio: null, accountType: "business" });
    expect(updated).toMatchObject({
      isActive: false,
      bio: null,
      accountType: "business",
      emailVerified: true,
    });
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    await expect(users.update("nobody", { bio: "x" })).rejects.toThrow(NotFoundError);
  });

  it("refuses a duplicate email or username with ConflictError", async () => {
    const a = await users.create({ name: "A", email: `${unique("a")}@demo.local`, username: unique("a") });
    await expect(users.create({ name: "B", email: a.email.toUpperCase() })).rejects.toThrow(ConflictError);
    await expect(
      users.create({ name: "B", email: `${unique("b")}@demo.local`, username: a.username ?? "" }),
    ).rejects.toThrow(ConflictError);
  });

  it("lists newest first with a cursor, and filters", async () => {
    const tag = unique("lister");
    const made: User[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        await users.create({
          name: `${tag} ${i}`,
          email: `${tag}-${i}@demo.local`,
          role: i % 2 === 0 ? "editor" : null,
          createdAt: `2025-0${1 + (i % 3)}-01T00:00:00.000Z`,
        }),
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: User[]; nextCursor: string | null } = await users.list(
        { search: tag },
        { limit: 3, cursor },
      );
      seen.push(...page.items.map((u) => u.id));
      cursor = page.nextCursor;
    } while (cursor);
    const expected = [...made]
      .sort((a, b) =>
        a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt),
      )
      .map((u) => u.id);
    expect(seen).toEqual(expected);

    const editors = await users.list({ search: tag.toUpperCase(), role: "editor" }, { limit: 100 });
    expect(editors.items).toHaveLength(4);
    expect((await users.list({ search: "%" }, { limit: 100 })).items).toEqual([]); // LIKE wildcards escaped
    await expect(users.list({}, { cursor: "nope!" })).rejects.toThrow(BadInputError);
  });

  it("manages group memberships, ordered by precedence", async () => {
    const u = await users.create({ name: "Member", email: `${unique("m")}@demo.local` });
    expect(await users.addToGroup(u.id, "ContentManager")).toBe(true);
    expect(await users.addToGroup(u.id, "individual-pro")).toBe(true);
    expect(await users.addToGroup(u.id, "individual-pro")).toBe(false);
    expect(await users.getGroupNames(u.id)).toEqual(["individual-pro", "ContentManager"]);
    expect(await users.listGroupsOfUser(u.id)).toEqual([
      { name: "individual-pro", precedence: 2, description: "Pro individuals" },
      { name: "ContentManager", precedence: 10, description: null },
    ]);
    expect(await users.listUserIdsInGroup("ContentManager")).toContain(u.id);

    await expect(users.addToGroup(u.id, "no-such-group")).rejects.toThrow(NotFoundError);
    await expect(users.addToGroup("no-such-user", "app-admin")).rejects.toThrow(NotFoundError);
    await expect(users.addToGroup(u.id, "bad group name!")).rejects.toThrow(BadInputError);

    expect(await users.removeFromGroup(u.id, "ContentManager")).toBe(true);
    expect(await users.removeFromGroup(u.id, "ContentManager")).toBe(false);
    expect(await users.getGroupNames(u.id)).toEqual(["individual-pro"]);

    await users.setGroups(u.id, ["app-admin", "individual-free", "app-admin"]);
    expect(await users.getGroupNames(u.id)).toEqual(["individual-free", "app-admin"]);
    await expect(users.setGroups(u.id, ["individual-pro", "no-such-group"])).rejects.toThrow(NotFoundError);
    expect(await users.getGroupNames(u.id)).toEqual(["individual-free", "app-admin"]); // rolled back
    await users.setGroups(u.id, []);
    expect(await users.getGroupNames(u.id)).toEqual([]);
  });

  it("ensureGroups creates missing groups and updates existing ones", async () => {
    const name = unique("org-acme");
    await users.ensureGroups([{ name, precedence: 7, description: "Acme" }]);
    await users.ensureGroups([{ name, precedence: 8 }]);
    const group = (await users.listGroups()).find((g) => g.name === name);
    expect(group).toEqual({ name, precedence: 8, description: "Acme" });
    const precedences = (await users.listGroups()).map((g) => g.precedence);
    expect([...precedences].sort((a, b) => a - b)).toEqual(precedences);
    await expect(users.ensureGroups([{ name: "" }])).rejects.toThrow(BadInputError);
  });

  it("deleting a user cascades to memberships, subscriptions and sessions", async () => {
    const u = await users.create({ name: "Gone", email: `${unique("gone")}@demo.local` });
    await users.addToGroup(u.id, "individual-free");
    const subs = createSubscriptionsRepo(t.db);
    const sub = await subs.create({ userId: u.id, tier: "Pro" });
    const now = new Date().toISOString();
    await t.db
      .insertInto("session")
      .values({
        id: unique("s"),
        token: unique("tok"),
        userId: u.id,
        expiresAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .execute();

    expect(await users.delete(u.id)).toBe(true);
    expect(await users.delete(u.id)).toBe(false);
    expect(await users.getGroupNames(u.id)).toEqual([]);
    expect(await subs.getById(sub.id)).toBeNull();
    const sessions = await t.db.selectFrom("session").select("id").where("userId", "=", u.id).execute();
    expect(sessions).toEqual([]);
  });
});
