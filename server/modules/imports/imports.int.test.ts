/**
 * Content imports (decision 036) on both databases, through the same content service the studio
 * uses: a Ghost export keeps its gates (checked through the reader's page), a Markdown folder
 * becomes a documentation section, a dry run changes no row, a second run is idempotent, and each
 * kind of bad input is reported per item while the rest is imported. The `import` command is run
 * through its `run` with a hand-made context.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUserContext } from "../../../core/index.ts";
import { actorOf, userActor, visitor } from "../../../tests/factories/actors.ts";
import { claimsForUser } from "../../auth/identity.ts";
import { type CliContext, CliNotFoundError, CliUsageError } from "../../cli/command.ts";
import { importCommand } from "../../cli/commands/import.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import type { Runtime } from "../../runtime.ts";
import { LocalObjectStore } from "../../storage/local-store.ts";
import type { Actor } from "../actor.ts";
import { type ContentModelServices, createContentModelServices } from "../content/content-models.ts";
import { createSearchIndexer } from "../search/search-indexer.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import type { ImportReport, ReportEntry } from "./import.types.ts";
import { type ImportRequest, importContent } from "./imports.service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../../tests/fixtures/imports");
const GHOST = path.join(FIXTURES, "ghost/export.json");
const GHOST_IMAGES = path.join(FIXTURES, "ghost/images");
const DOCS = path.join(FIXTURES, "docs");
const BAD = path.join(FIXTURES, "bad");
const OWNER_EMAIL = "importer-owner@lumen.example";
const logger = pino({ level: "silent" });

const COUNTED = [
  "content",
  "content_version",
  "content_workflow_event",
  "content_category",
  "content_search",
  "user",
  "user_group",
  "user_subscription",
  "media_object",
  "import_record",
  "audit_log",
] as const;

const entry = (report: ImportReport, source: string): ReportEntry => {
  const found = report.entries.find((e) => e.source === source);
  if (!found)
    throw new Error(`no report entry for ${source}: ${report.entries.map((e) => e.source).join(", ")}`);
  return found;
};

describe.each(testDialects())("content imports on %s", (dialect) => {
  let t: TestDatabase;
  let storageDir: string;
  let work: string;
  let models: ContentModelServices;
  let ownerId: string;

  const deps = () => ({ db: t.db, contents: models.contents, media: models.media });
  const run = (request: Omit<ImportRequest, "via">) => importContent(deps(), { via: "test", ...request });

  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of COUNTED) {
      const row = await t.db
        .selectFrom(table)
        .select(t.db.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  }

  /** The actor of an imported user as identity builds it (groups and subscription rows). */
  async function readerFor(email: string): Promise<Actor> {
    const user = await createUsersRepo(t.db).getByEmail(email);
    if (!user) throw new Error(`no user ${email}`);
    const claims = await claimsForUser(t.db, {
      id: user.id,
      email: user.email,
      name: user.name,
      username: null,
    });
    return actorOf(buildUserContext(claims));
  }

  const accessOf = async (actor: Actor, slug: string) =>
    (await models.contents.getPage(actor, slug))?.access.kind;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    storageDir = await mkdtemp(path.join(tmpdir(), "lumen-import-store-"));
    work = await mkdtemp(path.join(tmpdir(), "lumen-import-work-"));
    const storage = new LocalObjectStore(storageDir);
    const indexer = createSearchIndexer({ db: t.db, storage, logger });
    models = createContentModelServices({ db: t.db, storage, logger, hooks: indexer.contentHooks });
    const users = createUsersRepo(t.db);
    await users.ensureGroups([{ name: "app-owner" }]);
    const owner = await users.create({ name: "Olive Owner", email: OWNER_EMAIL });
    await users.addAll(owner.id, ["app-owner"]);
    ownerId = owner.id;
  });
  afterAll(async () => {
    await t?.close();
    await rm(storageDir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  it("a Ghost dry run reports what would change and changes no row", async () => {
    const before = await counts();
    const report = await run({ source: "ghost", path: GHOST, images: GHOST_IMAGES, dryRun: true });
    expect(await counts()).toEqual(before);
    expect(report.dryRun).toBe(true);
    expect(entry(report, "post ghost-welcome")).toMatchObject({ action: "created", id: null });
    expect(entry(report, "member:mem2")).toMatchObject({ action: "created" });
    expect(entry(report, "post ghost-gold-letter")).toMatchObject({ action: "skipped" });
    expect(entry(report, "post ghost-gold-letter").reason).toMatch(/unknown tier.*Gold.*--tier-map gold=/);
  });

  it("imports a Ghost export with its gates, authors, members, tags and images", async () => {
    const report = await run({ source: "ghost", path: GHOST, images: GHOST_IMAGES });
    expect(report.dryRun).toBe(false);

    // Gates, read through the reader's page.
    const fran = await readerFor("free.reader@ghost.example");
    const pat = await readerFor("pro.reader@ghost.example");
    const basic = userActor({ userId: ownerId, tier: "basic" });
    expect(await accessOf(visitor(), "ghost-welcome")).toBe("granted");
    expect(await accessOf(visitor(), "ghost-members-only")).toBe("signin");
    expect(await accessOf(fran, "ghost-members-only")).toBe("granted");
    expect(await accessOf(fran, "ghost-paid")).toBe("tier");
    expect(await accessOf(basic, "ghost-paid")).toBe("granted");
    expect(await accessOf(basic, "ghost-pro-deep-dive")).toBe("tier");
    expect(await accessOf(pat, "ghost-pro-deep-dive")).toBe("granted");
    const paidPage = await models.contents.getPage(pat, "ghost-paid");
    expect(paidPage?.html).toContain("<em>quarterly numbers</em>");
    expect((await models.contents.getPage(fran, "ghost-paid"))?.html).toBeNull();

    // Unknown tiers are errors of the items that need them; the rest went in.
    expect(entry(report, "post ghost-gold-letter")).toMatchObject({ action: "skipped" });
    expect(entry(report, "member:mem3")).toMatchObject({ action: "skipped" });
    expect(entry(report, "member:mem3").reason).toMatch(/unknown tier/);
    expect(entry(report, "post ghost-mobiledoc-only").reason).toMatch(/mobiledoc\/lexical and no html/);
    expect(
      await models.contents.getPage(
        userActor({ userId: ownerId, groups: ["app-owner"] }),
        "ghost-gold-letter",
      ),
    ).toBeNull();

    // Authors: users in the writer group, and the author of their posts.
    const ada = await createUsersRepo(t.db).getByEmail("ada@ghost.example");
    expect(ada).not.toBeNull();
    const adaGroups = await t.db
      .selectFrom("user_group")
      .select("groupName")
      .where("userId", "=", ada!.id)
      .execute();
    expect(adaGroups.map((g) => g.groupName)).toEqual(["ContentCreator"]);
    const welcome = await t.db
      .selectFrom("content")
      .selectAll()
      .where("slug", "=", "ghost-welcome")
      .executeTakeFirstOrThrow();
    expect(welcome.authorId).toBe(ada!.id);
    const members = await t.db
      .selectFrom("content")
      .selectAll()
      .where("slug", "=", "ghost-members-only")
      .executeTakeFirstOrThrow();
    expect(members.authorId).toBe(ownerId); // no author in the export: the platform owner
    // Members: no password; a paid member has the plan of their Ghost tier.
    const patRow = await createUsersRepo(t.db).getByEmail("pro.reader@ghost.example");
    const accounts = await t.db.selectFrom("account").select("id").where("userId", "=", patRow!.id).execute();
    expect(accounts).toEqual([]);
    // An address that already has an account here: left as it is (no plan added), and said so.
    expect(entry(report, "member:mem4")).toMatchObject({
      action: "unchanged",
      id: ownerId,
      warnings: ["already a user here: the account is left as it is"],
    });
    const ownerSubs = await t.db
      .selectFrom("user_subscription")
      .select("id")
      .where("userId", "=", ownerId)
      .execute();
    expect(ownerSubs).toEqual([]);
    const subs = await t.db
      .selectFrom("user_subscription")
      .selectAll()
      .where("userId", "=", patRow!.id)
      .execute();
    expect(subs.map((s) => [s.tier, s.status, s.source])).toEqual([["pro", "active", "import:ghost"]]);

    // Images: stored as media, the body and the feature image rewritten to our addresses.
    const welcomePage = await models.contents.getPage(visitor(), "ghost-welcome");
    expect(welcomePage?.item.featuredImage).toMatch(/^\/api\/media\/[0-9a-f-]+\/file$/);
    expect(welcomePage?.item.featuredImageAlt).toBe("A blue cover");
    expect(welcomePage?.html).toMatch(/<img[^>]*src="\/api\/media\/[0-9a-f-]+\/file"/);
    expect(welcomePage?.html).not.toContain("__GHOST_URL__");
    expect(welcomePage?.item.tags).toEqual(["Field notes"]);
    expect(welcome.featured).toBeTruthy();
    const media = await t.db.selectFrom("media_object").select(["contentType", "ownerId"]).execute();
    expect(media).toHaveLength(2);
    // A missing image is reported on its item, which is imported without it.
    const missing = entry(report, "post ghost-missing-picture");
    expect(missing.action).toBe("created");
    expect(missing.warnings).toEqual(["missing image __GHOST_URL__/content/images/2024/01/gone.png"]);
    const missingPage = await models.contents.getPage(visitor(), "ghost-missing-picture");
    expect(missingPage?.html).toContain("Lost photo");
    expect(missingPage?.html).not.toContain("<img");

    // Written like any save: a version, a workflow event, a search row, and one audit row for the run.
    const versions = await t.db
      .selectFrom("content_version")
      .select("contentId")
      .where("contentId", "=", welcome.id)
      .execute();
    expect(versions).toHaveLength(1);
    const indexed = await t.db
      .selectFrom("content_search")
      .select("contentId")
      .where("contentId", "=", welcome.id)
      .execute();
    expect(indexed).toHaveLength(1);
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "content_imported")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBeNull();
    // The draft page stays a draft.
    const about = await t.db
      .selectFrom("content")
      .selectAll()
      .where("slug", "=", "ghost-about")
      .executeTakeFirstOrThrow();
    expect(about.status).toBe("draft");
  });

  it("a second Ghost run changes nothing; a tier map then imports what was refused", async () => {
    const before = await counts();
    const again = await run({ source: "ghost", path: GHOST, images: GHOST_IMAGES });
    const after = await counts();
    expect({ ...after, audit_log: before.audit_log }).toEqual(before);
    expect(again.summary.created).toBe(0);
    expect(again.summary.updated).toBe(0);
    expect(
      again.entries
        .filter((e) => e.action === "skipped")
        .map((e) => e.source)
        .sort(),
    ).toEqual(["member:mem3", "post ghost-gold-letter", "post ghost-mobiledoc-only"]);

    const mapped = await run({
      source: "ghost",
      path: GHOST,
      images: GHOST_IMAGES,
      tierMap: "gold=enterprise",
    });
    expect(entry(mapped, "post ghost-gold-letter")).toMatchObject({ action: "created" });
    expect(entry(mapped, "member:mem3")).toMatchObject({ action: "created" });
    const gil = await readerFor("gold.reader@ghost.example");
    expect(await accessOf(gil, "ghost-gold-letter")).toBe("granted");
    expect(await accessOf(userActor({ userId: ownerId, tier: "pro" }), "ghost-gold-letter")).toBe("tier");
  });

  it("imports a Markdown docs folder as a documentation section, and re-runs idempotently", async () => {
    const folder = path.join(work, "docs");
    await cp(DOCS, folder, { recursive: true });
    const dry = await counts();
    const preview = await run({ source: "markdown", path: folder, section: "documentation", dryRun: true });
    expect(await counts()).toEqual(dry);
    expect(preview.summary.created).toBeGreaterThan(0);

    const report = await run({ source: "markdown", path: folder, section: "documentation" });
    expect(report.summary.skipped).toBe(0);
    const rows = await t.db
      .selectFrom("content")
      .select([
        "slug",
        "title",
        "type",
        "section",
        "categorySlug",
        "tier",
        "status",
        "publishedAt",
        "excerpt",
        "tags",
      ])
      .where("section", "=", "documentation")
      .orderBy("slug")
      .execute();
    const bySlug = Object.fromEntries(rows.map((r) => [r.slug, r]));
    expect(Object.keys(bySlug).sort()).toEqual([
      "advanced-usage",
      "configure",
      "install-the-hub",
      "plans-and-tiers-exported",
      "release-notes",
    ]);
    expect(bySlug["install-the-hub"]).toMatchObject({
      title: "Install the hub",
      type: "markdown",
      categorySlug: "getting-started",
      tier: "Free",
      status: "published",
      excerpt: "Put the hub on a server of your own.",
    });
    expect(bySlug.configure).toMatchObject({ title: "Configure", categorySlug: "getting-started" });
    expect(bySlug["advanced-usage"]).toMatchObject({ categorySlug: "guides" });
    expect(new Date(bySlug["advanced-usage"]!.publishedAt!).toISOString()).toBe("2024-02-01T10:00:00.000Z");
    expect(JSON.parse(String(bySlug["advanced-usage"]!.tags))).toEqual(["scaling", "ops", "operations"]);
    expect(bySlug["release-notes"]).toMatchObject({ title: "Release notes", categorySlug: null });
    expect(new Date(bySlug["release-notes"]!.publishedAt!).toISOString()).toBe("2024-03-05T00:00:00.000Z");
    // This hub's own export keys come back as they were.
    expect(bySlug["plans-and-tiers-exported"]).toMatchObject({
      title: "Plans and tiers, exported",
      type: "article",
      section: "documentation",
      categorySlug: "platform-reference",
      tier: "Pro",
      status: "published",
      excerpt: "What each plan unlocks.",
    });
    expect(JSON.parse(String(bySlug["plans-and-tiers-exported"]!.tags))).toEqual(["plans", "billing"]);
    const exported = await t.db
      .selectFrom("content")
      .select("authorId")
      .where("slug", "=", "plans-and-tiers-exported")
      .executeTakeFirstOrThrow();
    expect(exported.authorId).toBe(ownerId);

    // Folders became categories of the section, labelled by _category_.json and _index.md.
    const cats = await t.db.selectFrom("content_category").selectAll().orderBy("slug").execute();
    const catBySlug = Object.fromEntries(cats.map((c) => [c.slug, c]));
    expect(catBySlug["getting-started"]).toMatchObject({
      label: "Getting started",
      description: "First steps with the hub.",
      section: "documentation",
    });
    expect(catBySlug.guides).toMatchObject({ label: "Guides", description: "Longer walkthroughs." });
    const listed = await models.contents.list(visitor(), { section: "documentation", publishedOnly: true });
    expect(listed.items.map((i) => i.slug)).toContain("install-the-hub");

    // Relative images stored once and the links rewritten (Markdown and MDX's <img>).
    const install = await models.contents.getPage(visitor(), "install-the-hub");
    expect(install?.html).toMatch(/<img[^>]*src="\/api\/media\/[0-9a-f-]+\/file"/);
    const configure = await models.contents.getPage(visitor(), "configure");
    expect(configure?.html).toMatch(/<img[^>]*src="\/api\/media\/[0-9a-f-]+\/file"/);
    expect(configure?.html).not.toContain("@theme/Tabs");
    const diagramMedia = await t.db
      .selectFrom("media_object")
      .select("id")
      .where("fileName", "=", "diagram.png")
      .execute();
    expect(diagramMedia).toHaveLength(1);

    // A second run: everything unchanged, no row added.
    const before = await counts();
    const again = await run({ source: "markdown", path: folder, section: "documentation" });
    expect(again.summary).toEqual({ created: 0, updated: 0, unchanged: again.entries.length, skipped: 0 });
    expect({ ...(await counts()), audit_log: before.audit_log }).toEqual(before);

    // An edited file is updated in place (a new version), the others stay unchanged.
    const file = path.join(folder, "guides/advanced-usage.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("several processes", "several machines"));
    const edited = await run({ source: "markdown", path: folder, section: "documentation" });
    expect(entry(edited, "guides/advanced-usage.md")).toMatchObject({ action: "updated" });
    expect(edited.summary.updated).toBe(1);
    expect(edited.summary.created).toBe(0);
    const page = await models.contents.getPage(visitor(), "advanced-usage");
    expect(page?.html).toContain("several machines");

    // An item edited here since its import is not overwritten by a changed source: reported.
    const item = await t.db
      .selectFrom("content")
      .selectAll()
      .where("slug", "=", "advanced-usage")
      .executeTakeFirstOrThrow();
    const owner = userActor({ userId: ownerId, groups: ["app-owner"] });
    await models.contents.updateItem(owner, item.id, Number(item.version), {
      excerpt: "Edited in the studio.",
    });
    await writeFile(file, (await readFile(file, "utf8")).replace("several machines", "a cluster"));
    const clash = await run({ source: "markdown", path: folder, section: "documentation" });
    expect(entry(clash, "guides/advanced-usage.md")).toMatchObject({ action: "skipped" });
    expect(entry(clash, "guides/advanced-usage.md").reason).toMatch(/changed here since it was imported/);
    const kept = await models.contents.getPage(visitor(), "advanced-usage");
    expect(kept?.item.excerpt).toBe("Edited in the studio.");
    expect(kept?.html).toContain("several machines");
  });

  it("reports each bad file and imports the others", async () => {
    await models.contents.createItem(userActor({ userId: ownerId, groups: ["app-owner"] }), {
      title: "Made here",
      slug: "bad-taken-slug",
    });
    const report = await run({ source: "markdown", path: BAD });
    expect(entry(report, "broken.md")).toMatchObject({ action: "skipped" });
    expect(entry(report, "broken.md").reason).toMatch(/front matter is not valid YAML/);
    expect(entry(report, "same-slug-a.md")).toMatchObject({ action: "created" });
    expect(entry(report, "same-slug-b.md")).toMatchObject({ action: "skipped" });
    expect(entry(report, "same-slug-b.md").reason).toMatch(
      /duplicate slug “bad-shared-slug”: same-slug-a.md/,
    );
    expect(entry(report, "unknown-tier.md").reason).toMatch(/unknown tier “platinum”/);
    expect(entry(report, "taken-slug.md").reason).toMatch(/already used by content not from this source/);
    expect(entry(report, "missing-image.md")).toMatchObject({
      action: "created",
      warnings: ["missing image ./pictures/lost.png"],
    });
    expect(entry(report, "ok.md")).toMatchObject({ action: "created" });
    const taken = await t.db
      .selectFrom("content")
      .select("title")
      .where("slug", "=", "bad-taken-slug")
      .execute();
    expect(taken.map((r) => r.title)).toEqual(["Made here"]);
    expect(report.summary).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 4 });
  });

  it("the import command runs through its context: usage errors, unknown author, the report as its value", async () => {
    const lines: string[] = [];
    const progress: Array<[string, number, number | null]> = [];
    const runtime = {
      database: { db: t.db },
      services: { content: models.contents, contentModels: models },
      contentChanges: { check: async () => {}, subscribe: () => () => {} },
    } as unknown as Runtime;
    const ctx: CliContext = {
      runtime: async () => runtime,
      json: false,
      out: (line) => lines.push(line),
      progress: (label, done, total) => progress.push([label, done, total]),
    };
    await expect(importCommand.run(ctx, { positional: ["wordpress", DOCS], flags: {} })).rejects.toThrow(
      CliUsageError,
    );
    await expect(importCommand.run(ctx, { positional: ["markdown"], flags: {} })).rejects.toThrow(
      CliUsageError,
    );
    await expect(
      importCommand.run(ctx, { positional: ["markdown", DOCS], flags: { section: "nowhere" } }),
    ).rejects.toThrow(/--section: unknown section “nowhere”/);
    await expect(
      importCommand.run(ctx, { positional: ["markdown", DOCS], flags: { author: "nobody@lumen.example" } }),
    ).rejects.toThrow(CliNotFoundError);
    await expect(
      importCommand.run(ctx, { positional: ["markdown", path.join(work, "absent")], flags: {} }),
    ).rejects.toThrow(CliNotFoundError);
    await expect(
      importCommand.run(ctx, { positional: ["ghost", GHOST], flags: { "tier-map": "gold" } }),
    ).rejects.toThrow(/--tier-map: “gold” is not ghost-tier=tier/);

    const before = await counts();
    const value = (await importCommand.run(ctx, {
      positional: ["ghost", GHOST],
      flags: { "dry-run": true, images: GHOST_IMAGES, "tier-map": "gold=enterprise" },
    })) as ImportReport;
    expect(await counts()).toEqual(before);
    expect(value.dryRun).toBe(true);
    expect(value.summary.created).toBe(0);
    expect(value.summary.skipped).toBe(1); // the mobiledoc-only post
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.[1]).toBe(progress.at(-1)?.[2]);
    expect(lines.at(-1)).toMatch(
      /^Dry run \(nothing changed\): would create 0, update 0, unchanged \d+, skipped 1\.$/,
    );
  });
});
