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
import { buildContent } from "../../../tests/factories/index.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, ConflictError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { type Content, createContentRepo } from "../content/content.repo.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { type Comment, createCommentsRepo } from "./comments.repo.ts";
import { type CommentsService, createCommentsService } from "./comments.service.ts";

const tag = randomUUID().slice(0, 8);
const ids = {
  free: `free-${tag}`,
  pro: `pro-${tag}`,
  orgAdmin: `org-admin-${tag}`,
  manager: `manager-${tag}`,
  creator: `creator-${tag}`,
  admin: `admin-${tag}`,
};

const actors: Record<string, () => Actor> = {
  visitor: () => visitor(),
  free: () => userActor({ userId: ids.free, groups: ["individual-free"], tier: "free" }),
  pro: () => userActor({ userId: ids.pro, groups: ["individual-pro"], tier: "pro" }),
  orgAdmin: () => userActor({ userId: ids.orgAdmin, groups: ["org-acme", "org-acme-admin"], tier: "free" }),
  manager: () => userActor({ userId: ids.manager, groups: ["ContentManager"] }),
  /** A content writer who is not a moderator: sees drafts (the visibility rule), not hidden comments. */
  creator: () => userActor({ userId: ids.creator, groups: ["ContentCreator"] }),
  admin: () => userActor({ userId: ids.admin, groups: ["app-admin"] }),
  apiKey: () => apiKeyActor(),
  apiKeyNoScope: () => apiKeyActor(["repositories:read"]),
  service: () => serviceCredentialActor(),
};

describe.each(testDialects())("comments service on %s", (dialect) => {
  let t: TestDatabase;
  let service: CommentsService;
  const content: Record<string, Content> = {};
  const comments: Record<string, Comment> = {};

  const commentCount = async (id: string) => (await createContentRepo(t.db).getById(id))?.commentCount;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    // Pre-moderation off here (its own test below): every create is published at once.
    service = createCommentsService({
      db: t.db,
      settings: { value: (key) => (key === "comments.preModeration" ? "off" : undefined) },
    });
    const users = createUsersRepo(t.db);
    for (const id of Object.values(ids)) await users.create({ id, name: id, email: `${id}@demo.local` });
    const repo = createContentRepo(t.db);
    content.free = await repo.create(buildContent({ tier: "Free" }).row);
    content.pro = await repo.create(buildContent({ tier: "Pro" }).row);
    content.draft = await repo.create(buildContent({ tier: "Free", status: "draft" }).row);
    const c = createCommentsRepo(t.db);
    comments.onFree = await c.create({ contentId: content.free.id, authorId: ids.free, body: "free text" });
    comments.onPro = await c.create({ contentId: content.pro.id, authorId: ids.pro, body: "pro text" });
    comments.onDraft = await c.create({ contentId: content.draft.id, authorId: ids.manager, body: "draft" });
    comments.hidden = await c.create({
      contentId: content.free.id,
      authorId: ids.pro,
      body: "hidden text",
      status: "hidden",
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Readers of each comment: content body readable (tier), published comments or one's own pending ones;
  // moderators and content:read:all services read everything.
  const readable: Record<string, string[] | Outcome> = {
    visitor: ["onFree"],
    free: ["onFree"],
    pro: ["onFree", "onPro"], // the author of "hidden": a hidden comment is for moderators only
    orgAdmin: ["onFree"],
    manager: ["onFree", "onPro", "onDraft", "hidden"],
    creator: ["onFree", "onDraft"],
    admin: ["onFree", "onPro", "onDraft", "hidden"],
    apiKey: ["onFree"],
    apiKeyNoScope: "FORBIDDEN",
    service: ["onFree", "onPro", "onDraft", "hidden"],
  };

  it.each(Object.entries(readable))("get and list as %s", async (who, expected) => {
    const actor = actors[who]!();
    for (const [name, comment] of Object.entries(comments)) {
      const want = typeof expected === "string" ? expected : expected.includes(name) ? "ok" : "NOT_FOUND";
      const got = await outcome(() => service.get(actor, comment.id));
      expect(got, `${who} get ${name}`).toBe(want);
    }
    if (typeof expected === "string") {
      expect(await outcome(() => service.list(actor))).toBe(expected);
      return;
    }
    const listed = (await service.list(actor, { limit: 100 })).items;
    expect(listed.map((c) => c.id).sort()).toEqual(expected.map((n) => comments[n]!.id).sort());
    // never the text of a comment the reader may not read
    const texts = listed.map((c) => c.body);
    if (!expected.includes("onPro")) expect(texts).not.toContain("pro text");
    const byAuthor = await service.listByAuthorIdAndCreatedAt(actor, ids.pro, { limit: 100 });
    expect(byAuthor.items.map((c) => c.id).sort()).toEqual(
      ["onPro", "hidden"]
        .filter((n) => expected.includes(n))
        .map((n) => comments[n]!.id)
        .sort(),
    );
    // the content's comments: locked content → FORBIDDEN, unseen draft → NOT_FOUND
    const onPro = await outcome(() => service.listByContentIdAndCreatedAt(actor, content.pro!.id));
    expect(onPro).toBe(expected.includes("onPro") ? "ok" : "FORBIDDEN");
    const onDraft = await outcome(() => service.listByContentIdAndCreatedAt(actor, content.draft!.id));
    expect(onDraft).toBe(expected.includes("onDraft") ? "ok" : "NOT_FOUND");
  });

  const creators: Record<string, [Outcome, Outcome]> = {
    // [on free content, on pro content]
    visitor: ["UNAUTHENTICATED", "UNAUTHENTICATED"],
    free: ["ok", "FORBIDDEN"],
    pro: ["ok", "ok"],
    orgAdmin: ["ok", "FORBIDDEN"],
    manager: ["ok", "ok"],
    admin: ["ok", "ok"],
    apiKey: ["FORBIDDEN", "FORBIDDEN"],
    service: ["FORBIDDEN", "FORBIDDEN"],
  };

  it.each(Object.entries(creators))(
    "create as %s keeps commentCount in step",
    async (who, [onFree, onPro]) => {
      const actor = actors[who]!();
      for (const [key, expected] of [
        ["free", onFree],
        ["pro", onPro],
      ] as const) {
        const before = await commentCount(content[key]!.id);
        let created: Comment | null = null;
        const got = await outcome(async () => {
          created = await service.create(actor, { contentId: content[key]!.id, body: `by ${who}` });
        });
        expect(got, `${who} on ${key}`).toBe(expected);
        expect(await commentCount(content[key]!.id)).toBe(before! + (expected === "ok" ? 1 : 0));
        if (created) expect((created as Comment).authorId).toBe(actor.userId);
      }
    },
  );

  it("refuses mass assignment and empty bodies", async () => {
    const free = actors.free!();
    const base = { contentId: content.free!.id, body: "hello" };
    await expect(service.create(free, { ...base, authorId: ids.pro })).rejects.toThrow(/input\.authorId/);
    await expect(service.create(free, { ...base, status: "published" })).rejects.toThrow(/input\.status/);
    await expect(service.create(free, { ...base, id: "x" })).rejects.toThrow(/input\.id/);
    await expect(service.create(free, { ...base, body: "   " })).rejects.toThrow(/input\.body/);
    await expect(service.create(free, { ...base, parentCommentId: comments.onPro!.id })).rejects.toThrow(
      BadInputError,
    );
  });

  it("lets the author edit the body and moderators the status; others are refused", async () => {
    const mine = await service.create(actors.free!(), { contentId: content.free!.id, body: "mine" });
    const edited = await service.update(actors.free!(), mine.id, mine.version, { body: "edited" });
    expect(edited).toMatchObject({ body: "edited", version: 2 });
    expect(await outcome(() => service.update(actors.pro!(), mine.id, 2, { body: "x" }))).toBe("FORBIDDEN");
    expect(await outcome(() => service.update(actors.free!(), mine.id, 2, { status: "hidden" }))).toBe(
      "FORBIDDEN",
    );
    expect(await outcome(() => service.update(actors.visitor!(), mine.id, 2, { body: "x" }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await outcome(() => service.update(actors.apiKey!(), mine.id, 2, { body: "x" }))).toBe(
      "FORBIDDEN",
    );
    const hidden = await service.update(actors.manager!(), mine.id, 2, { status: "hidden" });
    expect(hidden).toMatchObject({ status: "hidden", body: "edited", version: 3 });
    // stale version: refused, nothing lost
    await expect(service.update(actors.manager!(), mine.id, 2, { status: "published" })).rejects.toThrow(
      ConflictError,
    );
    expect(await service.get(actors.manager!(), mine.id)).toMatchObject({ body: "edited", version: 3 });
    // Hidden: not even its author sees it any more.
    expect(await outcome(() => service.get(actors.free!(), mine.id))).toBe("NOT_FOUND");
  });

  it("holds a new commenter's first comment by default (pre-moderation new-commenters), not a moderator's", async () => {
    const held = createCommentsService({ db: t.db });
    const newcomer = `newcomer-${tag}`;
    await createUsersRepo(t.db).create({ id: newcomer, name: newcomer, email: `${newcomer}@demo.local` });
    const actor = userActor({ userId: newcomer, groups: ["individual-free"], tier: "free" });
    const before = await commentCount(content.free!.id);
    const first = await held.create(actor, { contentId: content.free!.id, body: "first words" });
    expect(first.status).toBe("pending");
    expect(await commentCount(content.free!.id)).toBe(before);
    expect(await held.get(actor, first.id)).toMatchObject({ status: "pending" });
    expect(await outcome(() => held.get(actors.pro!(), first.id))).toBe("NOT_FOUND");
    const staff = await held.create(actors.manager!(), { contentId: content.free!.id, body: "staff" });
    expect(staff.status).toBe("published");
  });

  const deleters: Record<string, Outcome> = {
    visitor: "UNAUTHENTICATED",
    free: "ok", // the author
    pro: "FORBIDDEN",
    orgAdmin: "FORBIDDEN",
    manager: "ok",
    admin: "ok",
    apiKey: "FORBIDDEN",
    service: "FORBIDDEN",
  };

  it.each(Object.entries(deleters))(
    "delete as %s (with replies, commentCount in step)",
    async (who, expected) => {
      const parent = await service.create(actors.free!(), { contentId: content.free!.id, body: "parent" });
      await service.create(actors.pro!(), {
        contentId: content.free!.id,
        body: "reply",
        parentCommentId: parent.id,
      });
      const before = await commentCount(content.free!.id);
      expect(await outcome(() => service.delete(actors[who]!(), parent.id))).toBe(expected);
      expect(await commentCount(content.free!.id)).toBe(before! - (expected === "ok" ? 2 : 0));
    },
  );

  describe("lists by content", () => {
    let item: Content;
    let made: Comment[] = [];

    beforeAll(async () => {
      item = await createContentRepo(t.db).create(buildContent({ tier: "Free" }).row);
      const repo = createCommentsRepo(t.db);
      made = [];
      for (let i = 0; i < 23; i++) {
        made.push(
          await repo.create({
            contentId: item.id,
            authorId: ids.free,
            body: `comment ${String(i).padStart(2, "0")}`,
            createdAt: new Date(Date.UTC(2026, 1, 1, 0, i % 10)).toISOString(),
          }),
        );
      }
    });

    it("pages through every comment exactly once in both directions", async () => {
      for (const sortDirection of ["ASC", "DESC"] as const) {
        const seen: Comment[] = [];
        let nextToken: string | null = null;
        do {
          const page: Awaited<ReturnType<CommentsService["listByContentIdAndCreatedAt"]>> =
            await service.listByContentIdAndCreatedAt(actors.visitor!(), item.id, {
              limit: 4,
              nextToken,
              sortDirection,
            });
          seen.push(...page.items);
          nextToken = page.nextToken;
        } while (nextToken);
        expect(new Set(seen.map((c) => c.id)).size).toBe(23);
        const keys = seen.map((c) => `${c.createdAt}|${c.id}`);
        const sorted = [...keys].sort();
        expect(keys).toEqual(sortDirection === "ASC" ? sorted : sorted.reverse());
      }
    });

    it("applies createdAt sort-key conditions and filters", async () => {
      const at = (m: number) => new Date(Date.UTC(2026, 1, 1, 0, m)).toISOString();
      const count = async (sortKey: object, filter?: object) =>
        (await service.listByContentIdAndCreatedAt(actors.free!(), item.id, { sortKey, filter, limit: 100 }))
          .items.length;
      const perMinute = (m: number) => made.filter((c) => c.createdAt === at(m)).length;
      expect(await count({ eq: at(3) })).toBe(perMinute(3));
      expect(await count({ lt: at(2) })).toBe(perMinute(0) + perMinute(1));
      expect(await count({ ge: at(8) })).toBe(perMinute(8) + perMinute(9));
      expect(await count({ between: [at(1), at(2)] })).toBe(perMinute(1) + perMinute(2));
      expect(await count({ beginsWith: "2026-02-01T00:0" })).toBe(23);
      expect(await count({}, { body: { contains: "ment 1" } })).toBe(10);
      expect(await count({}, { body: { beginsWith: "comment 2" } })).toBe(3);
      await expect(count({ lt: "not a date" })).rejects.toThrow(BadInputError);
    });
  });
});
