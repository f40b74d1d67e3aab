/**
 * The content operations' own rules, below the transports: names shown on items are dropped on
 * any content change and reread after SHOWN_NAMES_TTL_MS (a rename never sticks to a process),
 * the visibility rule and `publishedOnly`,
 * and the read scope of API keys checked by every read operation.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyActor, outcome, userActor, visitor } from "../../../tests/factories/actors.ts";
import { buildContent } from "../../../tests/factories/index.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { type Content, createContentRepo } from "./content.repo.ts";
import { type ContentService, createContentService, SHOWN_NAMES_TTL_MS } from "./content.service.ts";
import { createContentCategoryRepo } from "./content-category.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(testDialects())("content operations on %s", (dialect) => {
  let t: TestDatabase;
  let service: ContentService;
  let authorId: string;
  let categoryId: string;
  let published: Content;
  let draft: Content;
  const section = unique("section");
  const writer = userActor({ userId: "writer-1", groups: ["ContentManager"] });
  const reader = userActor({ userId: "reader-1", tier: "free" });
  let clock = Date.parse("2026-06-01T00:00:00Z");
  const changeListeners = new Set<() => void>();
  /** What the content revision watcher does when any process writes content. */
  const contentChanged = () => {
    for (const listener of changeListeners) listener();
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    service = createContentService({
      db: t.db,
      now: () => clock,
      changes: {
        subscribe: (listener) => {
          changeListeners.add(listener);
          return () => changeListeners.delete(listener);
        },
      },
    });
    const author = await createUsersRepo(t.db).create({ name: "Ada", email: `${unique("ada")}@demo.local` });
    authorId = author.id;
    const category = await createContentCategoryRepo(t.db).create({
      slug: unique("cat"),
      label: "Prompting",
    });
    categoryId = category.id;
    const repo = createContentRepo(t.db);
    const common = { section, authorId, categorySlug: category.slug, categoryId: category.id };
    published = await repo.create(buildContent({ ...common, slug: unique("published") }).row);
    draft = await repo.create(buildContent({ ...common, slug: unique("draft"), status: "draft" }).row);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("rereads category labels on any content change and author names after the reuse window", async () => {
    const names = async () =>
      (await service.list(reader, { section, publishedOnly: true })).items.map((i) => [
        i.authorName,
        i.categoryLabel,
      ]);
    const first = await service.getItem(reader, published.id);
    expect(first).toMatchObject({ authorName: "Ada", categoryLabel: "Prompting" });
    await t.db.updateTable("user").set({ displayName: "Ada Lovelace" }).where("id", "=", authorId).execute();
    await t.db
      .updateTable("content_category")
      .set({ label: "Prompt craft" })
      .where("id", "=", categoryId)
      .execute();
    // Reused within the window while nothing changed...
    expect(await names()).toEqual([["Ada", "Prompting"]]);
    // ...dropped at once when content or a category changes (any process: the polled revision)...
    contentChanged();
    expect(await names()).toEqual([["Ada Lovelace", "Prompt craft"]]);
    // ...and an author rename alone shows once the window has passed.
    await t.db.updateTable("user").set({ displayName: "Countess Ada" }).where("id", "=", authorId).execute();
    expect(await names()).toEqual([["Ada Lovelace", "Prompt craft"]]);
    clock += SHOWN_NAMES_TTL_MS;
    // (the first read past the window may still answer from the store while it refreshes)
    await expect.poll(() => names()).toEqual([["Countess Ada", "Prompt craft"]]);
  });

  it("shows a draft to content writers only; publishedOnly lists leave it out for everyone", async () => {
    expect(await service.getItem(visitor(), draft.slug)).toBeNull();
    expect(await service.getItem(reader, draft.slug)).toBeNull();
    expect((await service.getItem(writer, draft.slug))?.id).toBe(draft.id);
    expect((await service.readBody(reader, draft.id)).kind).toBe("not-found");
    expect(await service.getPage(reader, draft.slug)).toBeNull();
    expect((await service.getPage(writer, draft.slug))?.item.id).toBe(draft.id);
    const ids = async (actor: typeof writer, publishedOnly: boolean) =>
      (await service.list(actor, { section, publishedOnly })).items.map((i) => i.id).sort();
    expect(await ids(writer, false)).toEqual([published.id, draft.id].sort());
    expect(await ids(writer, true)).toEqual([published.id]);
    expect(await ids(reader, false)).toEqual([published.id]);
  });

  it("refuses an API key without content:read on every read, and serves one with it", async () => {
    const noScope = apiKeyActor(["repositories:read"]);
    expect(await outcome(() => service.list(noScope, { section }))).toBe("FORBIDDEN");
    expect(await outcome(() => service.getItem(noScope, published.id))).toBe("FORBIDDEN");
    expect(await outcome(() => service.getPage(noScope, published.slug))).toBe("FORBIDDEN");
    expect(await outcome(() => service.readBody(noScope, published.id))).toBe("FORBIDDEN");
    expect(await outcome(() => service.get(noScope, published.id))).toBe("FORBIDDEN");
    expect((await service.getItem(apiKeyActor(), published.id))?.id).toBe(published.id);
  });
});
