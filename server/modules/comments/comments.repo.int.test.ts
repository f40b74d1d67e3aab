import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import { createContentRepo } from "../content/content.repo.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { type Comment, createCommentsRepo } from "./comments.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(testDialects())("comments repository on %s", (dialect) => {
  let t: TestDatabase;
  let comments: ReturnType<typeof createCommentsRepo>;
  let contentId: string;
  let authorId: string;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    comments = createCommentsRepo(t.db);
    authorId = (await createUsersRepo(t.db).create({ name: "C", email: `${unique("c")}@demo.local` })).id;
    contentId = (await createContentRepo(t.db).create({ title: "T", slug: unique("c") })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("round-trips a comment and a reply", async () => {
    const c = await comments.create({
      contentId,
      authorId,
      body: "First!",
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    expect(c).toMatchObject({
      contentId,
      authorId,
      body: "First!",
      status: "published",
      parentCommentId: null,
    });
    expect(await comments.getById(c.id)).toEqual(c);
    const reply = await comments.create({
      contentId,
      authorId,
      body: "Reply",
      parentCommentId: c.id,
      status: "pending",
    });
    expect(reply).toMatchObject({ parentCommentId: c.id, status: "pending" });
    const edited = await comments.update(reply.id, { body: "Edited", status: "published" });
    expect(edited).toMatchObject({ body: "Edited", status: "published" });
    expect(edited.updatedAt >= reply.updatedAt).toBe(true);
    await expect(comments.update("missing", { body: "x" })).rejects.toThrow(NotFoundError);
    await expect(comments.create({ contentId: "no-such-content", authorId, body: "x" })).rejects.toThrow(
      BadInputError,
    );
    // deleting the parent deletes the reply
    expect(await comments.delete(c.id)).toBe(true);
    expect(await comments.getById(reply.id)).toBeNull();
  });

  it("lists by content oldest first and by author newest first, with cursors", async () => {
    const otherContent = (await createContentRepo(t.db).create({ title: "T2", slug: unique("c2") })).id;
    const author = (await createUsersRepo(t.db).create({ name: "D", email: `${unique("d")}@demo.local` })).id;
    const made: Comment[] = [];
    for (let i = 0; i < 9; i++) {
      made.push(
        await comments.create({
          contentId: otherContent,
          authorId: author,
          body: `c${i}`,
          status: i === 4 ? "hidden" : "published",
          createdAt: `2026-01-0${1 + (i % 3)}T00:00:00.000Z`,
        }),
      );
    }
    const asc = [...made].sort((a, b) =>
      a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt),
    );

    const collect = async (
      fetch: (cursor: string | null) => Promise<{ items: Comment[]; nextCursor: string | null }>,
    ) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await fetch(cursor);
        ids.push(...page.items.map((c) => c.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    expect(await collect((cursor) => comments.listByContent(otherContent, { limit: 2, cursor }))).toEqual(
      asc.map((c) => c.id),
    );
    expect(await collect((cursor) => comments.listByAuthor(author, { limit: 4, cursor }))).toEqual(
      [...asc].reverse().map((c) => c.id),
    );
    const visible = await comments.listByContent(otherContent, { limit: 100 }, { status: ["published"] });
    expect(visible.items).toHaveLength(8);
    expect(await comments.countByContent(otherContent)).toBe(9);
    expect(await comments.countByContent(otherContent, { status: ["published"] })).toBe(8);
    await expect(comments.listByContent(otherContent, { cursor: "garbage!" })).rejects.toThrow(BadInputError);
  });

  it("cascades with the content and keeps comments of a deleted author", async () => {
    const content = await createContentRepo(t.db).create({ title: "Doomed", slug: unique("doomed") });
    const users = createUsersRepo(t.db);
    const author = await users.create({ name: "E", email: `${unique("e")}@demo.local` });
    const c = await comments.create({ contentId: content.id, authorId: author.id, body: "bye" });
    const other = await comments.create({ contentId, authorId: author.id, body: "stays" });
    await users.delete(author.id);
    expect((await comments.getById(other.id))?.authorId).toBeNull(); // ON DELETE SET NULL
    await createContentRepo(t.db).delete(content.id);
    expect(await comments.getById(c.id)).toBeNull(); // ON DELETE CASCADE
  });
});
