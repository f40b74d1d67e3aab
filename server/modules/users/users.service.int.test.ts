import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiKeyActor,
  type Outcome,
  outcome,
  serviceCredentialActor,
  userActor,
  visitor,
} from "../../../tests/factories/actors.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createUsersRepo, type User } from "./users.repo.ts";
import { createUsersService, type UsersService } from "./users.service.ts";

const tag = randomUUID().slice(0, 8);
const ids = {
  free: `free-${tag}`,
  pro: `pro-${tag}`,
  orgAdmin: `org-admin-${tag}`,
  manager: `manager-${tag}`,
  admin: `admin-${tag}`,
  inactive: `inactive-${tag}`,
};

const actors: Record<string, () => Actor> = {
  visitor: () => visitor(),
  free: () => userActor({ userId: ids.free, groups: ["individual-free"], tier: "free" }),
  pro: () => userActor({ userId: ids.pro, groups: ["individual-pro"], tier: "pro" }, "bearer"),
  orgAdmin: () => userActor({ userId: ids.orgAdmin, groups: [`org-acme${tag}`, `org-acme${tag}-admin`] }),
  manager: () => userActor({ userId: ids.manager, groups: ["ContentManager"] }),
  admin: () => userActor({ userId: ids.admin, groups: ["app-admin"] }),
  apiKey: () => apiKeyActor(),
  service: () => serviceCredentialActor(),
};

describe.each(testDialects())("users service on %s", (dialect) => {
  let t: TestDatabase;
  let service: UsersService;
  const users: Record<string, User> = {};

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    service = createUsersService({ db: t.db });
    const repo = createUsersRepo(t.db);
    for (const [key, id] of Object.entries(ids)) {
      users[key] = await repo.create({
        id,
        name: `Name ${key}`,
        email: `${id}@demo.local`,
        username: `u${key}${tag}`,
        displayName: `Display ${key}`,
        isActive: key !== "inactive",
      });
    }
    // pro is a member of the organisation orgAdmin administers; free is not.
    await repo.ensureGroups([{ name: `org-acme${tag}` }, { name: `org-acme${tag}-admin` }]);
    await repo.addAll(ids.pro, [`org-acme${tag}`]);
    await repo.addAll(ids.orgAdmin, [`org-acme${tag}`, `org-acme${tag}-admin`]);
  });
  afterAll(async () => {
    await t?.close();
  });

  // [reads others (public fields), reads e-mail of others, sees inactive users]
  const readers: Record<string, Outcome | { email: boolean }> = {
    visitor: "UNAUTHENTICATED",
    free: { email: false },
    pro: { email: false },
    orgAdmin: { email: false },
    manager: { email: false },
    admin: { email: true },
    apiKey: "FORBIDDEN",
    service: { email: false },
  };

  it.each(Object.entries(readers))(
    "reads as %s: never another user's e-mail unless platform admin (or their organisation's admin)",
    async (who, rule) => {
      const actor = actors[who]!();
      if (typeof rule === "string") {
        expect(await outcome(() => service.get(actor, users.free!.id))).toBe(rule);
        expect(await outcome(() => service.list(actor))).toBe(rule);
        return;
      }
      // (pro is a member of orgAdmin's organisation: see the next test)
      const other = await service.get(
        actor,
        [ids.pro, ids.orgAdmin].includes(actor.userId!) ? ids.free : ids.pro,
      );
      expect(other.displayName).toMatch(/^Display/);
      expect("email" in other).toBe(rule.email);
      expect(JSON.stringify(other).includes("@demo.local")).toBe(rule.email);
      expect(await outcome(() => service.get(actor, ids.inactive))).toBe(rule.email ? "ok" : "NOT_FOUND");
      const listed = (await service.list(actor, { limit: 100 })).items;
      expect(listed.map((u) => u.id)).toContain(ids.free);
      expect(listed.some((u) => u.id === ids.inactive)).toBe(rule.email);
      for (const u of listed) {
        const mine = u.id === actor.userId || (who === "orgAdmin" && u.id === ids.pro);
        expect("email" in u, `${who} sees ${u.id}`).toBe(rule.email || mine);
      }
      if (actor.userId) {
        const me = await service.get(actor, actor.userId);
        expect(me).toMatchObject({ email: `${actor.userId}@demo.local` });
      }
      // private fields cannot be probed with a filter
      const probe = () => service.list(actor, { filter: { email: { beginsWith: "a" } } });
      if (rule.email) expect(await outcome(probe)).toBe("ok");
      else await expect(probe()).rejects.toThrow(/filter\.email/);
    },
  );

  const updaters: Record<string, [Outcome, Outcome]> = {
    // [own row, someone else's row]
    visitor: ["UNAUTHENTICATED", "UNAUTHENTICATED"],
    free: ["ok", "FORBIDDEN"],
    pro: ["ok", "FORBIDDEN"],
    orgAdmin: ["ok", "FORBIDDEN"],
    manager: ["ok", "FORBIDDEN"],
    admin: ["ok", "ok"],
    apiKey: ["FORBIDDEN", "FORBIDDEN"],
    service: ["FORBIDDEN", "FORBIDDEN"],
  };

  it.each(Object.entries(updaters))("updates as %s", async (who, [own, others]) => {
    const actor = actors[who]!();
    if (actor.userId) {
      expect(await outcome(() => service.update(actor, actor.userId!, { bio: `bio of ${who}` }))).toBe(own);
    }
    const target = actor.userId === ids.free ? ids.pro : ids.free;
    const before = await createUsersRepo(t.db).getById(target);
    expect(await outcome(() => service.update(actor, target, { displayName: `set by ${who}` }))).toBe(others);
    const after = await createUsersRepo(t.db).getById(target);
    expect(after?.displayName).toBe(others === "ok" ? `set by ${who}` : before?.displayName);
  });

  it("never takes e-mail, groups, role, isActive, username or avatar from the client", async () => {
    const free = actors.free!();
    for (const field of [
      "email",
      "emailVerified",
      "role",
      "isActive",
      "username",
      "avatar",
      "groups",
      "tier",
      "id",
    ]) {
      await expect(service.update(free, ids.free, { [field]: "x" }), field).rejects.toThrow(BadInputError);
    }
    await expect(service.update(free, ids.free, { displayName: "a\u0000b" })).rejects.toThrow(
      /input\.displayName/,
    );
    expect((await createUsersRepo(t.db).getById(ids.free))?.email).toBe(`${ids.free}@demo.local`);
  });

  const creatorsAndDeleters: Record<string, Outcome> = {
    visitor: "UNAUTHENTICATED",
    free: "FORBIDDEN",
    pro: "FORBIDDEN",
    orgAdmin: "FORBIDDEN",
    manager: "FORBIDDEN",
    admin: "ok",
    apiKey: "FORBIDDEN",
    service: "FORBIDDEN",
  };

  it.each(Object.entries(creatorsAndDeleters))(
    "creates and deletes as %s (platform admins only)",
    async (who, expected) => {
      const actor = actors[who]!();
      const n = randomUUID().slice(0, 8);
      expect(await outcome(() => service.create(actor, { name: "New", email: `new-${n}@demo.local` }))).toBe(
        expected,
      );
      const victim = await createUsersRepo(t.db).create({ name: "V", email: `victim-${n}@demo.local` });
      expect(await outcome(() => service.delete(actor, victim.id))).toBe(expected);
      expect((await createUsersRepo(t.db).getById(victim.id)) === null).toBe(expected === "ok");
      if (actor.userId && expected !== "ok") {
        // not even one's own row: account deletion is the profile service's (password + recent sign-in)
        expect(await outcome(() => service.delete(actor, actor.userId!))).toBe("FORBIDDEN");
      }
    },
  );

  it("creates without verified e-mail and refuses mass assignment", async () => {
    const admin = actors.admin!();
    const created = await service.create(admin, { name: "Made", email: `made-${tag}@demo.local` });
    expect(created).toMatchObject({ emailVerified: false, isActive: true, role: null });
    await expect(
      service.create(admin, { name: "X", email: `x-${tag}@demo.local`, emailVerified: true }),
    ).rejects.toThrow(/input\.emailVerified/);
  });

  it("pages through users exactly once and filters public fields", async () => {
    const admin = actors.admin!();
    const seen: string[] = [];
    let nextToken: string | null = null;
    do {
      const page: Awaited<ReturnType<UsersService["list"]>> = await service.list(admin, {
        limit: 3,
        nextToken,
      });
      seen.push(...page.items.map((u) => u.id));
      nextToken = page.nextToken;
    } while (nextToken);
    const total = await t.db
      .selectFrom("user")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    expect(seen.length).toBe(Number(total?.n));
    expect(new Set(seen).size).toBe(seen.length);
    const free = actors.free!();
    const byName = await service.list(free, { filter: { displayName: { eq: "Display pro" } } });
    expect(byName.items.map((u) => u.id)).toEqual([ids.pro]);
    await expect(service.list(free, { filter: { username: { beginsWith: `upro${tag}` } } })).rejects.toThrow(
      /filter\.username/,
    );
    const byUsername = await service.list(admin, { filter: { username: { beginsWith: `upro${tag}` } } });
    expect(byUsername.items.map((u) => u.id)).toEqual([ids.pro]);
  });

  it("shows other users as author profiles: no username unless own row, member or platform admin", async () => {
    for (const who of ["free", "pro", "manager", "service"] as const) {
      const actor = actors[who]!();
      const listed = (await service.list(actor, { limit: 100 })).items;
      expect(listed.length).toBeGreaterThan(3);
      for (const u of listed) {
        if (u.id === actor.userId) expect(u).toMatchObject({ username: `u${who}${tag}` });
        else
          expect(Object.keys(u).sort(), `${who} sees ${u.id}`).toEqual([
            "avatar",
            "bio",
            "createdAt",
            "displayName",
            "id",
          ]);
      }
      expect(JSON.stringify(listed)).not.toContain(`uadmin${tag}`);
      const admin = await service.get(actor, ids.admin);
      expect("username" in admin).toBe(false);
    }
    // An organisation admin reads its members' username and e-mail, nobody else's.
    const orgAdmin = actors.orgAdmin!();
    const member = await service.get(orgAdmin, ids.pro);
    expect(member).toMatchObject({ username: `upro${tag}`, email: `${ids.pro}@demo.local` });
    expect("role" in member).toBe(false);
    const outsider = await service.get(orgAdmin, ids.free);
    expect("username" in outsider || "email" in outsider).toBe(false);
    const listed = (await service.list(orgAdmin, { limit: 100 })).items;
    expect(listed.find((u) => u.id === ids.pro)).toMatchObject({ username: `upro${tag}` });
    expect("username" in listed.find((u) => u.id === ids.admin)!).toBe(false);
    // Platform admins read every username.
    expect(await service.get(actors.admin!(), ids.free)).toMatchObject({ username: `ufree${tag}` });
  });
});
