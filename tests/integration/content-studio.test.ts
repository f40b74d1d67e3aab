/**
 * The content studio over real HTTP (decision 017, docs/api/content-studio.md), on each database
 * dialect: who may take each workflow action and make each change (expectations written by hand
 * from decision 017's table), two editors saving the same version, a scheduled item going live on
 * two app processes sharing one database, versions, diff and restore, bad input naming the field,
 * and the XSS corpus saved through the API and read back through the public page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedStatusOf, type WorkflowState } from "../../core/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call } from "../helpers/auth.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { expectInert, XSS_CORPUS } from "../helpers/xss-corpus.ts";

/** The demo content manager's display name (shown as author and actor). */
/** Who manager@ is in the studio: the account name, not the public byline ("Lumen Hub Editorial"). */
const MANAGER_NAME = "Morgan Manager";
const PEOPLE = ["visitor", "free", "business", "writer", "manager", "admin", "owner"] as const;
type Person = (typeof PEOPLE)[number];

/**
 * Expected HTTP status per person, in PEOPLE order. From decision 017: writers (ContentCreator,
 * ContentManager, platform Admin, SuperAdmin) write, submit, archive unapproved work and restore
 * from the archive; publishers (ContentManager, SuperAdmin; not the platform Admin) also request
 * changes, approve, schedule, unschedule, publish and archive approved or live items. Visitors are
 * asked to sign in (401); users without write access (Free, an organisation admin) are refused.
 */
const WRITE = "401 403 403 200 200 200 200";
const PUBLISH = "401 403 403 403 200 403 200";

interface Case {
  name: string;
  /** The state the item is put in first. */
  from: WorkflowState;
  expected: string;
  /** The request, given the item's id and version. */
  request: (id: string, version: number) => { method: string; path: string; body?: unknown };
}

const transition =
  (action: string, extra: Record<string, unknown> = {}) =>
  (id: string, version: number) => ({
    method: "POST",
    path: `/api/content/${id}/transitions`,
    body: { action, version, ...extra },
  });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const CASES: Case[] = [
  { name: "submit a draft", from: "draft", expected: WRITE, request: transition("submit") },
  {
    name: "resubmit after changes",
    from: "changes_requested",
    expected: WRITE,
    request: transition("submit"),
  },
  {
    name: "request changes",
    from: "in_review",
    expected: PUBLISH,
    request: transition("request_changes", { notes: "Add a source for the second claim." }),
  },
  { name: "approve", from: "in_review", expected: PUBLISH, request: transition("approve") },
  {
    name: "schedule an approved item",
    from: "approved",
    expected: PUBLISH,
    request: (id, v) => transition("schedule", { at: inAnHour() })(id, v),
  },
  {
    name: "reschedule",
    from: "scheduled",
    expected: PUBLISH,
    request: (id, v) => transition("schedule", { at: inAnHour() })(id, v),
  },
  { name: "unschedule", from: "scheduled", expected: PUBLISH, request: transition("unschedule") },
  { name: "publish a draft now", from: "draft", expected: PUBLISH, request: transition("publish") },
  { name: "publish an approved item", from: "approved", expected: PUBLISH, request: transition("publish") },
  { name: "archive a draft", from: "draft", expected: WRITE, request: transition("archive") },
  { name: "archive an item in review", from: "in_review", expected: WRITE, request: transition("archive") },
  {
    name: "archive (unpublish) a live item",
    from: "published",
    expected: PUBLISH,
    request: transition("archive"),
  },
  { name: "archive an approved item", from: "approved", expected: PUBLISH, request: transition("archive") },
  { name: "restore from the archive", from: "archived", expected: WRITE, request: transition("restore") },
  {
    name: "edit a draft",
    from: "draft",
    expected: WRITE,
    request: (id, version) => ({
      method: "PATCH",
      path: `/api/content/${id}`,
      body: { version, title: "Edited" },
    }),
  },
  {
    name: "edit a live item",
    from: "published",
    expected: PUBLISH,
    request: (id, version) => ({
      method: "PATCH",
      path: `/api/content/${id}`,
      body: { version, title: "Edited" },
    }),
  },
  {
    name: "restore version 1 of a draft",
    from: "draft",
    expected: WRITE,
    request: (id, version) => ({
      method: "POST",
      path: `/api/content/${id}/restore`,
      body: { from: 1, version },
    }),
  },
  {
    name: "restore version 1 of a live item",
    from: "published",
    expected: PUBLISH,
    request: (id, version) => ({
      method: "POST",
      path: `/api/content/${id}/restore`,
      body: { from: 1, version },
    }),
  },
  {
    name: "delete a draft",
    from: "draft",
    expected: WRITE,
    request: (id, version) => ({ method: "DELETE", path: `/api/content/${id}?version=${version}` }),
  },
  {
    name: "delete a live item",
    from: "published",
    expected: PUBLISH,
    request: (id, version) => ({ method: "DELETE", path: `/api/content/${id}?version=${version}` }),
  },
];

interface Item {
  id: string;
  slug: string;
  version: number;
  state: WorkflowState;
  body: string;
  actions: string[];
  title: string;
  status: string;
  reviewerNotes: string | null;
  publishedAt: string | null;
  lastEditedByName: string | null;
}

describe.each(DIALECTS)("content studio (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Person, string>> = {};
  let n = 0;
  const uniqueSlug = (prefix: string) => `${prefix}-${dialect}-${Date.now().toString(36)}-${++n}`;

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS);
    for (const person of PEOPLE) {
      if (person !== "visitor")
        cookies[person] = await signIn(server.url, `${person}@demo.local`, DEMO_PASSWORD);
    }
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const as = (person: Person, method: string, path: string, body?: unknown, base = server.url) =>
    call(base, path, body, { method, ...(person === "visitor" ? {} : { cookie: cookies[person] }) });
  const json = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(status);
    return JSON.parse(text) as T;
  };

  /** A new item (saved as version 1 by the manager), then put in `state` and saved once more. */
  async function itemIn(state: WorkflowState, fields: Record<string, unknown> = {}): Promise<Item> {
    const slug = uniqueSlug("studio");
    const created = await json<{ item: Item }>(
      await as("manager", "POST", "/api/content", {
        title: "Studio item",
        slug,
        tier: "Free",
        body: "First.",
        ...fields,
      }),
      201,
    );
    const saved = await json<{ item: Item }>(
      await as("manager", "PATCH", `/api/content/${created.item.id}`, { version: 1, body: "Second." }),
    );
    if (state !== "draft") {
      const publishedAt =
        state === "scheduled" ? inAnHour() : state === "published" ? new Date().toISOString() : null;
      await server.runtime.database.db
        .updateTable("content")
        .set({
          status: storedStatusOf(state),
          workflowStatus: state,
          publishedAt,
          publishedEpoch: publishedAt ? Date.parse(publishedAt) : null,
        })
        .where("id", "=", created.item.id)
        .execute();
    }
    return { ...saved.item, state };
  }

  describe("permission matrix", () => {
    for (const c of CASES) {
      it(`${c.name}: ${c.expected}`, async () => {
        const failures: string[] = [];
        for (const [i, person] of PEOPLE.entries()) {
          const item = await itemIn(c.from);
          const { method, path, body } = c.request(item.id, item.version);
          const res = await as(person, method, path, body);
          const want = Number(c.expected.split(" ")[i]);
          const text = await res.text();
          if (res.status !== want)
            failures.push(`${person}: ${res.status} (want ${want}) ${text.slice(0, 160)}`);
          if (want === 403 && path.endsWith("/transitions") && person === "writer") {
            if (!/content:publish/.test(text)) failures.push(`${person}: 403 without naming content:publish`);
          }
        }
        expect(failures).toEqual([]);
      });
    }

    it("creating: writers only, always as a draft", async () => {
      const expected = "401 403 403 201 201 201 201".split(" ").map(Number);
      for (const [i, person] of PEOPLE.entries()) {
        const res = await as(person, "POST", "/api/content", { title: "New", slug: uniqueSlug("create") });
        const text = await res.text();
        expect(res.status, `${person}: ${text.slice(0, 200)}`).toBe(expected[i]);
        if (res.status === 201)
          expect(JSON.parse(text).item).toMatchObject({ state: "draft", status: "draft" });
      }
    });

    it("a writer's item offers the writer submit and archive, a publisher also publish and schedule", async () => {
      const item = await itemIn("draft");
      const writerView = await json<{ item: Item }>(
        await as("writer", "GET", `/api/studio/content/${item.id}`),
      );
      expect(writerView.item.actions).toEqual(["submit", "archive"]);
      expect(writerView.item.body).toBe("Second.");
      const managerView = await json<{ item: Item }>(
        await as("manager", "GET", `/api/studio/content/${item.id}`),
      );
      expect(managerView.item.actions).toEqual(["submit", "schedule", "publish", "archive"]);
      for (const person of ["visitor", "free", "business"] as const) {
        expect((await as(person, "GET", `/api/studio/content/${item.id}`)).status, person).toBe(404);
      }
    });
  });

  describe("a review round, with who and when", () => {
    it("submit → request changes → submit → approve → publish, each recorded; the page is live at the end", async () => {
      const created = await json<{ item: Item }>(
        await as("writer", "POST", "/api/content", {
          title: "Review round",
          slug: uniqueSlug("review"),
          tier: "Free",
          body: "Draft text.",
        }),
        201,
      );
      const id = created.item.id;
      const step = async (
        person: Person,
        action: string,
        version: number,
        extra: Record<string, unknown> = {},
      ) =>
        json<{
          item: Item;
          event: { action: string; from: string; to: string; actorName: string; notes: string | null };
        }>(await as(person, "POST", `/api/content/${id}/transitions`, { action, version, ...extra }));
      const submitted = await step("writer", "submit", 1);
      expect(submitted.event).toMatchObject({
        action: "submit",
        from: "draft",
        to: "in_review",
        actorName: "Wren Writer",
      });
      expect(submitted.item).toMatchObject({ state: "in_review", status: "review" });
      const changes = await step("manager", "request_changes", submitted.item.version, {
        notes: "Shorter intro.",
      });
      expect(changes.item).toMatchObject({
        state: "changes_requested",
        status: "draft",
        reviewerNotes: "Shorter intro.",
      });
      const again = await step("writer", "submit", changes.item.version);
      const approved = await step("manager", "approve", again.item.version);
      expect(approved.item.state).toBe("approved");
      expect((await as("visitor", "GET", `/content/${created.item.slug}`)).status).toBe(404);
      const published = await step("manager", "publish", approved.item.version);
      expect(published.item).toMatchObject({ state: "published", status: "published" });
      expect(published.item.publishedAt).not.toBeNull();
      expect((await as("visitor", "GET", `/content/${created.item.slug}`)).status).toBe(200);

      const history = await json<{
        events: Array<{ action: string; actorName: string | null; at: string; notes: string | null }>;
      }>(await as("writer", "GET", `/api/content/${id}/history`));
      expect(history.events.map((e) => e.action)).toEqual([
        "publish",
        "approve",
        "submit",
        "request_changes",
        "submit",
      ]);
      expect(history.events[3]).toMatchObject({ actorName: MANAGER_NAME, notes: "Shorter intro." });
      for (const e of history.events) expect(Number.isNaN(Date.parse(e.at))).toBe(false);
      expect((await as("free", "GET", `/api/content/${id}/history`)).status).toBe(404);
    });
  });

  describe("two editors saving the same version", () => {
    it("exactly one save wins, the other gets STALE_VERSION naming who saved, and nothing is stored twice", async () => {
      const item = await itemIn("draft");
      const save = (person: Person, text: string) =>
        as(person, "PATCH", `/api/content/${item.id}`, { version: item.version, body: text });
      const [a, b] = await Promise.all([
        save("manager", "Manager's text."),
        save("writer", "Writer's text."),
      ]);
      const answers = [
        { person: "manager", text: "Manager's text.", name: MANAGER_NAME, res: a },
        { person: "writer", text: "Writer's text.", name: "Wren Writer", res: b },
      ];
      expect(answers.map((x) => x.res.status).sort()).toEqual([200, 409]);
      const winner = answers.find((x) => x.res.status === 200)!;
      const loser = answers.find((x) => x.res.status === 409)!;
      const refusal = (await loser.res.json()) as {
        error: { code: string; message: string; field: Record<string, string> };
      };
      expect(refusal.error.code).toBe("STALE_VERSION");
      expect(refusal.error.message).toContain(winner.name);
      expect(refusal.error.message).toContain(`now version ${item.version + 1}`);
      expect(refusal.error.field.version).toBeDefined();

      const stored = await json<{ item: Item }>(await as("manager", "GET", `/api/studio/content/${item.id}`));
      expect(stored.item.body).toBe(winner.text);
      expect(stored.item.version).toBe(item.version + 1);
      const versions = await json<{ versions: Array<{ version: number }> }>(
        await as("manager", "GET", `/api/content/${item.id}/versions`),
      );
      expect(versions.versions.map((v) => v.version)).toEqual([3, 2, 1]);
      const latest = await json<{ snapshot: { body: string } }>(
        await as("manager", "GET", `/api/content/${item.id}/versions/3`),
      );
      expect(latest.snapshot.body).toBe(winner.text);
    });
  });

  describe("versions, diff and restore", () => {
    it("lists saves with author and time, diffs any two, and restores an old one as a new version", async () => {
      const created = await json<{ item: Item }>(
        await as("writer", "POST", "/api/content", {
          title: "Versioned",
          slug: uniqueSlug("versioned"),
          tier: "Free",
          body: "line one\nline two\n",
        }),
        201,
      );
      const id = created.item.id;
      await json(
        await as("manager", "PATCH", `/api/content/${id}`, {
          version: 1,
          title: "Versioned, edited",
          body: "line one\nline 2\nline three\n",
        }),
      );
      const versions = await json<{
        versions: Array<{
          version: number;
          authorName: string;
          title: string;
          note: string | null;
          createdAt: string;
        }>;
      }>(await as("writer", "GET", `/api/content/${id}/versions`));
      expect(versions.versions).toMatchObject([
        { version: 2, authorName: MANAGER_NAME, title: "Versioned, edited", note: null },
        { version: 1, authorName: "Wren Writer", title: "Versioned", note: null },
      ]);

      const diff = await json<{
        from: number;
        to: number;
        fields: Array<{ field: string; before: string; after: string }>;
        body: Array<{ op: string; text: string }>;
      }>(await as("writer", "GET", `/api/content/${id}/diff?from=1&to=2`));
      expect(diff).toMatchObject({ from: 1, to: 2 });
      expect(diff.fields).toEqual([{ field: "title", before: "Versioned", after: "Versioned, edited" }]);
      expect(diff.body).toEqual([
        { op: "same", text: "line one\n" },
        { op: "remove", text: "line two\n" },
        { op: "add", text: "line 2\nline three\n" },
      ]);
      const toCurrent = await json<{ to: string; fields: unknown[] }>(
        await as("writer", "GET", `/api/content/${id}/diff?from=2&to=current`),
      );
      expect(toCurrent).toMatchObject({ to: "current", fields: [] });

      const restored = await json<{ item: Item }>(
        await as("writer", "POST", `/api/content/${id}/restore`, { from: 1, version: 2 }),
      );
      expect(restored.item).toMatchObject({
        version: 3,
        title: "Versioned",
        body: "line one\nline two\n",
        state: "draft",
      });
      const after = await json<{
        versions: Array<{ version: number; note: string | null; authorName: string }>;
      }>(await as("writer", "GET", `/api/content/${id}/versions`));
      expect(after.versions[0]).toMatchObject({
        version: 3,
        note: "Restored from version 1",
        authorName: "Wren Writer",
      });
      const noSuch = await as("writer", "GET", `/api/content/${id}/versions/99`);
      expect(noSuch.status).toBe(400);
      expect(
        ((await noSuch.json()) as { error: { field: Record<string, string> } }).error.field.version,
      ).toBeDefined();
    });
  });

  describe("items written before versions were kept", () => {
    it("a demo item's first save keeps its earlier state as a version, which can be restored", async () => {
      const seeded = await server.runtime.database.db
        .selectFrom("content")
        .select(["id", "version", "title"])
        .where("status", "=", "published")
        .where("tier", "=", "Free")
        .where("type", "=", "article")
        .orderBy("slug")
        .executeTakeFirstOrThrow();
      const before = await json<{ item: Item }>(
        await as("manager", "GET", `/api/studio/content/${seeded.id}`),
      );
      const v = seeded.version;
      await json(
        await as("manager", "PATCH", `/api/content/${seeded.id}`, {
          version: v,
          title: "Retitled",
          body: "New text.",
        }),
      );
      const versions = await json<{ versions: Array<{ version: number; title: string }> }>(
        await as("manager", "GET", `/api/content/${seeded.id}/versions`),
      );
      expect(versions.versions.map((x) => [x.version, x.title])).toEqual([
        [v + 1, "Retitled"],
        [v, seeded.title],
      ]);
      const restored = await json<{ item: Item }>(
        await as("manager", "POST", `/api/content/${seeded.id}/restore`, { from: v, version: v + 1 }),
      );
      expect(restored.item).toMatchObject({
        title: seeded.title,
        body: before.item.body,
        state: "published",
      });
    });
  });

  describe("bad input names the field, and nothing saved is lost", () => {
    const fieldOf = async (res: Response, status: number) => {
      const body = (await json<{ error: { code: string; field?: Record<string, string> } }>(res, status))
        .error;
      return { code: body.code, fields: Object.keys(body.field ?? {}) };
    };

    it("transitions: unknown action, missing notes, a past time, a stale version, a refused move", async () => {
      const item = await itemIn("in_review");
      const path = `/api/content/${item.id}/transitions`;
      expect(
        await fieldOf(await as("manager", "POST", path, { action: "teleport", version: item.version }), 400),
      ).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["action"],
      });
      expect(
        await fieldOf(
          await as("manager", "POST", path, { action: "request_changes", version: item.version }),
          400,
        ),
      ).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["notes"],
      });
      const past = new Date(Date.now() - 60_000).toISOString();
      expect(
        await fieldOf(
          await as("manager", "POST", path, { action: "schedule", at: past, version: item.version }),
          400,
        ),
      ).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["at"],
      });
      expect(
        (
          await fieldOf(
            await as("manager", "POST", path, { action: "approve", version: item.version - 1 }),
            409,
          )
        ).code,
      ).toBe("STALE_VERSION");
      expect(
        (await fieldOf(await as("manager", "POST", path, { action: "restore", version: item.version }), 409))
          .code,
      ).toBe("INVALID_TRANSITION");
      const stored = await json<{ item: Item }>(await as("manager", "GET", `/api/studio/content/${item.id}`));
      expect(stored.item).toMatchObject({ state: "in_review", version: item.version, body: "Second." });
    });

    it("saves: status or schedule through PATCH, a deleted category, malformed structured data, a taken slug", async () => {
      const item = await itemIn("draft");
      const patch = (body: Record<string, unknown>) =>
        as("manager", "PATCH", `/api/content/${item.id}`, { version: item.version, ...body });
      expect(await fieldOf(await patch({ status: "published" }), 400)).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["status"],
      });
      expect(await fieldOf(await patch({ workflowStatus: "published" }), 400)).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["workflowStatus"],
      });
      expect(await fieldOf(await patch({ publishedAt: inAnHour() }), 400)).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["publishedAt"],
      });
      expect(await fieldOf(await patch({ categoryId: "deleted-category-id" }), 400)).toEqual({
        code: "BAD_USER_INPUT",
        fields: ["categoryId"],
      });
      expect((await fieldOf(await patch({ structuredData: "not json-ld" }), 400)).fields).toEqual([
        "structuredData",
      ]);
      const other = await itemIn("draft");
      expect(await fieldOf(await patch({ slug: other.slug }), 409)).toEqual({
        code: "CONFLICT",
        fields: ["slug"],
      });
      expect(
        await fieldOf(
          await as("manager", "POST", "/api/content", {
            title: "x",
            slug: uniqueSlug("pub"),
            status: "published",
          }),
          400,
        ),
      ).toEqual({ code: "BAD_USER_INPUT", fields: ["status"] });
      const stored = await json<{ item: Item }>(await as("manager", "GET", `/api/studio/content/${item.id}`));
      expect(stored.item).toMatchObject({ version: item.version, body: "Second.", state: "draft" });
    });

    it("the slug check says whether a slug is free and suggests the next one", async () => {
      const item = await itemIn("draft");
      const taken = await json<{ available: boolean; suggestion: string | null }>(
        await as("writer", "GET", `/api/studio/slug?slug=${item.slug}`),
      );
      expect(taken).toMatchObject({ available: false, suggestion: `${item.slug}-2` });
      const own = await json<{ available: boolean }>(
        await as("writer", "GET", `/api/studio/slug?slug=${item.slug}&exclude=${item.id}`),
      );
      expect(own.available).toBe(true);
      const bad = await json<{ available: boolean; error?: string }>(
        await as("writer", "GET", "/api/studio/slug?slug=Not%20A%20Slug"),
      );
      expect(bad.available).toBe(false);
      expect(bad.error).toBeTruthy();
    });
  });

  describe("no path publishes early", () => {
    it("GraphQL createContent with status published and a future date schedules it; nothing is public yet", async () => {
      const slug = uniqueSlug("gql-future");
      const res = await call(
        server.url,
        "/graphql",
        {
          query:
            "mutation ($input: CreateContentInput!) { createContent(input: $input) { id status workflowStatus publishedAt } }",
          variables: {
            input: { title: "Later", slug, tier: "Free", status: "published", publishedAt: inAnHour() },
          },
        },
        { cookie: cookies.manager },
      );
      const body = (await res.json()) as {
        data: { createContent: { id: string; status: string; workflowStatus: string } };
      };
      expect(body.data.createContent).toMatchObject({ status: "review", workflowStatus: "scheduled" });
      expect((await as("visitor", "GET", `/content/${slug}`)).status).toBe(404);
      const list = await json<{ items: Array<{ slug: string }> }>(
        await as("visitor", "GET", "/api/content?limit=100"),
      );
      expect(list.items.map((i) => i.slug)).not.toContain(slug);
      const history = await json<{ events: Array<{ action: string }> }>(
        await as("manager", "GET", `/api/content/${body.data.createContent.id}/history`),
      );
      expect(history.events.map((e) => e.action)).toEqual(["schedule"]);
    });
  });

  describe("bulk actions", () => {
    it("publishes what the actor may, and answers each row", async () => {
      const a = await itemIn("approved");
      const b = await itemIn("draft");
      const writerTry = await json<{ results: Array<{ id: string; ok: boolean; error?: { code: string } }> }>(
        await as("writer", "POST", "/api/studio/bulk", { ids: [a.id, b.id], action: "publish" }),
      );
      expect(writerTry.results.map((r) => [r.ok, r.error?.code])).toEqual([
        [false, "FORBIDDEN"],
        [false, "FORBIDDEN"],
      ]);
      const done = await json<{
        results: Array<{ id: string; ok: boolean; item?: { state: string; editUrl: string } }>;
      }>(
        await as("manager", "POST", "/api/studio/bulk", {
          ids: [a.id, b.id, "no-such-item"],
          action: "publish",
        }),
      );
      expect(done.results.map((r) => [r.id, r.ok, r.item?.state])).toEqual([
        [a.id, true, "published"],
        [b.id, true, "published"],
        ["no-such-item", false, undefined],
      ]);
      expect(done.results[0]!.item!.editUrl).toBe(`/content/${a.id}/edit`);
      const tier = await json<{ results: Array<{ ok: boolean }> }>(
        await as("manager", "POST", "/api/studio/bulk", { ids: [a.id], action: "set_tier", value: "Pro" }),
      );
      expect(tier.results[0]!.ok).toBe(true);
      expect(
        (await as("manager", "POST", "/api/studio/bulk", { ids: [a.id], action: "set_tier", value: "Gold" }))
          .status,
      ).toBe(400);
    });
  });

  describe("the XSS corpus through the save path", () => {
    it("a body saved through POST /api/content renders inert on the public page", async () => {
      const marker = "END-OF-CORPUS-MARKER";
      const body = `${XSS_CORPUS.join("\n\n")}\n\n${marker}\n`;
      const slug = uniqueSlug("xss");
      const created = await json<{ item: Item }>(
        await as("manager", "POST", "/api/content", {
          title: "<script>alert(1)</script> Corpus",
          excerpt: '<img src=x onerror="alert(2)">',
          slug,
          tier: "Free",
          body,
        }),
        201,
      );
      expect(created.item.body).toBe(body);
      await json(
        await as("manager", "POST", `/api/content/${created.item.id}/transitions`, {
          action: "publish",
          version: 1,
        }),
      );
      const page = await (await as("visitor", "GET", `/content/${slug}`)).text();
      const start = page.indexOf('class="prose-content"');
      expect(start).toBeGreaterThan(0);
      const end = page.indexOf(marker, start);
      expect(end).toBeGreaterThan(start);
      expectInert(page.slice(page.indexOf(">", start) + 1, end));
      expect(page).not.toContain("<script>alert(1)</script>");
      expect(page).not.toContain('<img src=x onerror="alert(2)">');
    });
  });

  describe("scheduling with two app processes on one database", () => {
    let second: TestServer | null = null;
    beforeAll(async () => {
      second = await startTestServer(dialect, RAISED_RATE_LIMITS, { shareWith: server });
    }, 120_000);
    afterAll(async () => {
      await second?.close();
    });

    it("an item scheduled 1.5 s ahead is live for visitors on both processes, published once", async () => {
      const item = await itemIn("approved");
      const at = new Date(Date.now() + 1500).toISOString();
      const scheduled = await json<{ item: Item }>(
        await as("manager", "POST", `/api/content/${item.id}/transitions`, {
          action: "schedule",
          at,
          version: item.version,
        }),
      );
      expect(scheduled.item).toMatchObject({ state: "scheduled", status: "review" });
      const visible = async (base: string) => {
        const page = await fetch(`${base}/content/${item.slug}`);
        await page.arrayBuffer();
        const list = (await (await fetch(`${base}/api/content?limit=100`)).json()) as {
          items: Array<{ slug: string }>;
        };
        return { page: page.status, listed: list.items.some((i) => i.slug === item.slug) };
      };
      for (const base of [server.url, second!.url])
        expect(await visible(base)).toEqual({ page: 404, listed: false });

      const deadline = Date.now() + 15_000;
      const live = new Set<string>();
      while (live.size < 2 && Date.now() < deadline) {
        for (const base of [server.url, second!.url]) {
          const seen = await visible(base);
          if (seen.page === 200 && seen.listed) live.add(base);
        }
        if (live.size < 2) await new Promise((r) => setTimeout(r, 250));
      }
      expect([...live].sort()).toEqual([server.url, second!.url].sort());
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));

      const events = await server.runtime.database.db
        .selectFrom("content_workflow_event")
        .select(["action", "actorId", "publishedAt"])
        .where("contentId", "=", item.id)
        .where("action", "=", "auto_publish")
        .execute();
      expect(events).toEqual([{ action: "auto_publish", actorId: null, publishedAt: at }]);
      const row = await server.runtime.database.db
        .selectFrom("content")
        .select(["status", "workflowStatus"])
        .where("id", "=", item.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "published", workflowStatus: "published" });
    });
  });
});
