/**
 * Comments over HTTP (issue 15) on every channel (REST, GraphQL, the content page's HTML): who may
 * read and write per role and tier, pre-moderation (new commenters held on REST and GraphQL),
 * restrictions (a banned user's existing session, a muted user held), the XSS corpus rendered
 * inert, bad input naming `body`, replies to hidden or deleted comments refused, idempotent
 * double-submits, the per-minute limit (429), counts in step, reports, likes and the top sort.
 * Moderation itself is another suite's: statuses are set in the database here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const article = (tier: string, skip: string[] = []) =>
  DEMO_CONTENT.find(
    (c) => c.tier === tier && c.type === "article" && !c.rolesRequired?.length && !skip.includes(c.slug),
  )!;
const FREE_ITEM = article("Free");
const FREE_ITEM_2 = article("Free", [FREE_ITEM.slug]);
const FREE_ITEM_3 = article("Free", [FREE_ITEM.slug, FREE_ITEM_2.slug]);

const PER_MINUTE = 8;
type Who = "visitor" | "free" | "basic" | "pro" | "enterprise" | "business" | "manager";

interface View {
  id: string;
  body: string;
  bodyHtml: string;
  status: string;
  parentCommentId: string | null;
  deleted: boolean;
  replyCount: number;
  likeCount: number;
  mine: boolean;
  editedAt: string | null;
}
interface ThreadPage {
  items: View[];
  nextCursor: string | null;
  total: number;
  canComment: boolean;
  signInRequired: boolean;
}

describe.each(DIALECTS)("comments (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Who, string>> = {};
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      ...RAISED_RATE_LIMITS,
      RATE_LIMIT_COMMENTS_PER_USER: String(PER_MINUTE),
      AUTH_SECRET: TEST_AUTH_SECRET,
    });
    for (const who of ["free", "basic", "pro", "enterprise", "business", "manager"] as const)
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    const created = await call(
      server.url,
      "/api/account/api-keys",
      { name: "comments test", scopes: ["content:read"] },
      { cookie: cookies.pro },
    );
    expect(created.status).toBe(201);
    apiKey = ((await created.json()) as { key: string }).key;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.runtime.database.db;
  const as = (who: Who) => (who === "visitor" ? {} : { cookie: cookies[who] });
  const get = (path: string, who: Who) => call(server.url, path, undefined, as(who));
  const post = (path: string, body: unknown, who: Who) => call(server.url, path, body, as(who));
  const send = (method: string, path: string, body: unknown, who: Who) =>
    call(server.url, path, body, { method, ...as(who) });
  const comment = async (slug: string, body: unknown, who: Who) => {
    const res = await post(`/api/content/${slug}/comments`, body, who);
    return {
      res,
      json: (await res.json()) as { comment: View; error?: { code: string; field?: Record<string, string> } },
    };
  };
  const threads = async (slug: string, who: Who, query = "") => {
    const res = await get(`/api/content/${slug}/comments${query}`, who);
    expect(res.status, `${who} ${slug}`).toBe(200);
    return (await res.json()) as ThreadPage;
  };
  const contentRow = (slug: string) =>
    db()
      .selectFrom("content")
      .select(["id", "commentCount"])
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
  const commentRow = (id: string) =>
    db()
      .selectFrom("comment")
      .select([
        "status",
        "replyCount",
        "likeCount",
        "reportCount",
        "body",
        "deletedAt",
        "editedAt",
        "version",
      ])
      .where("id", "=", id)
      .executeTakeFirst();
  const setStatus = (id: string, status: string) =>
    db().updateTable("comment").set({ status }).where("id", "=", id).execute();
  const errorOf = async (res: Response) =>
    ((await res.json()) as { error: { code: string; message: string; field?: Record<string, string> } })
      .error;
  const gql = async (query: string, variables: Record<string, unknown>, who: Who) => {
    const res = await call(server.url, "/graphql", { query, variables }, as(who));
    return (await res.json()) as {
      data?: Record<string, { id: string; status: string } | null>;
      errors?: { extensions: { code: string } }[];
    };
  };

  describe("who may read and write", () => {
    it("a visitor sees the count of a public item and is asked to sign in, and cannot post", async () => {
      const page = await threads(FREE_ITEM.slug, "visitor");
      expect(page).toMatchObject({ items: [], signInRequired: true, canComment: false });
      expect(page.total).toBe((await contentRow(FREE_ITEM.slug)).commentCount);
      const res = await post(`/api/content/${FREE_ITEM.slug}/comments`, { body: "Hello" }, "visitor");
      expect(res.status).toBe(401);
      const seeded = await db()
        .selectFrom("comment")
        .select("id")
        .where("status", "=", "published")
        .executeTakeFirstOrThrow();
      for (const [method, path, body] of [
        ["PATCH", `/api/comments/${seeded.id}`, { body: "x" }],
        ["DELETE", `/api/comments/${seeded.id}`, undefined],
        ["POST", `/api/comments/${seeded.id}/like`, {}],
        ["DELETE", `/api/comments/${seeded.id}/like`, undefined],
        ["POST", `/api/comments/${seeded.id}/reports`, { reason: "spam" }],
      ] as const) {
        expect((await send(method, path, body, "visitor")).status, `${method} ${path}`).toBe(401);
      }
      // Replies are for readers of the item: a visitor gets none (no bodies).
      expect((await get(`/api/comments/${seeded.id}/replies`, "visitor")).status).toBe(404);
    });

    it("a gated item shows nothing of its comments to those who cannot read it, on REST, GraphQL and the page", async () => {
      const seeded = await db()
        .selectFrom("comment")
        .innerJoin("content", "content.id", "comment.contentId")
        .select(["comment.body", "content.slug", "content.id as contentId"])
        .where("content.tier", "=", "Pro")
        .where("comment.status", "=", "published")
        .executeTakeFirstOrThrow();
      for (const who of ["visitor", "free", "basic"] as const) {
        const res = await get(`/api/content/${seeded.slug}/comments`, who);
        expect(res.status, who).toBe(403);
        expect(await res.text()).not.toContain(seeded.body.slice(0, 30));
        const html = await (await get(`/content/${seeded.slug}`, who)).text();
        expect(html).not.toContain(seeded.body.slice(0, 30));
      }
      const gqlList = await gql(
        `query ($c: String!) { listCommentByContentIdAndCreatedAt(contentId: $c) { items { id body } } }`,
        { c: seeded.contentId },
        "free",
      );
      expect(gqlList.errors?.[0]?.extensions.code).toBe("FORBIDDEN");
      const posted = await post(`/api/content/${seeded.slug}/comments`, { body: "Let me in" }, "free");
      expect(posted.status).toBe(403);
      // A Pro reader reads them (bodies and rendered HTML).
      const page = await threads(seeded.slug, "pro", "?limit=50");
      const replies = await Promise.all(
        page.items
          .filter((c) => c.replyCount > 0)
          .map(
            async (c) =>
              ((await (await get(`/api/comments/${c.id}/replies`, "pro")).json()) as ThreadPage).items,
          ),
      );
      const bodies = [...page.items, ...replies.flat()].map((c) => c.body);
      expect(bodies).toContain(seeded.body);
      expect(page.canComment).toBe(true);
    });

    it("an API key reads (read scope) but cannot write", async () => {
      const key = { headers: { "x-api-key": apiKey }, origin: null };
      const read = await call(server.url, `/api/content/${FREE_ITEM.slug}/comments`, undefined, key);
      expect(read.status).toBe(200);
      const write = await call(
        server.url,
        `/api/content/${FREE_ITEM.slug}/comments`,
        { body: "From a key" },
        key,
      );
      expect(write.status).toBe(403);
      const someComment = (await threads(FREE_ITEM.slug, "pro")).items[0];
      if (someComment) {
        for (const [method, path, body] of [
          ["PATCH", `/api/comments/${someComment.id}`, { body: "x" }],
          ["DELETE", `/api/comments/${someComment.id}`, undefined],
          ["POST", `/api/comments/${someComment.id}/like`, {}],
          ["POST", `/api/comments/${someComment.id}/reports`, { reason: "spam" }],
        ] as const) {
          const res = await call(server.url, path, body ?? {}, { method, ...key });
          expect(res.status, `${method} ${path}`).toBe(403);
        }
      }
    });

    it("refuses a cookie write from a foreign origin", async () => {
      const res = await call(
        server.url,
        `/api/content/${FREE_ITEM.slug}/comments`,
        { body: "csrf" },
        { cookie: cookies.pro, origin: "https://evil.example" },
      );
      expect(res.status).toBe(403);
    });
  });

  describe("pre-moderation and restrictions", () => {
    it("a new commenter's first comment is held (REST and GraphQL), seen by them and moderators only, not counted", async () => {
      const before = (await contentRow(FREE_ITEM_2.slug)).commentCount;
      const { res, json } = await comment(FREE_ITEM_2.slug, { body: "My first comment here." }, "business");
      expect(res.status).toBe(201);
      expect(json.comment.status).toBe("pending");
      expect((await contentRow(FREE_ITEM_2.slug)).commentCount).toBe(before);
      const own = await threads(FREE_ITEM_2.slug, "business");
      expect(own.items.find((c) => c.id === json.comment.id)?.status).toBe("pending");
      expect((await threads(FREE_ITEM_2.slug, "pro")).items.map((c) => c.id)).not.toContain(json.comment.id);
      expect((await threads(FREE_ITEM_2.slug, "manager")).items.map((c) => c.id)).toContain(json.comment.id);

      const { id: contentId } = await contentRow(FREE_ITEM_2.slug);
      const viaGraphql = await gql(
        `mutation ($c: String!) { createComment(input: { contentId: $c, body: "Also via GraphQL." }) { id status } }`,
        { c: contentId },
        "business",
      );
      expect(viaGraphql.data?.createComment?.status).toBe("pending");
      // A moderator is never held; a reader with a published comment is not held either.
      expect((await comment(FREE_ITEM_2.slug, { body: "Staff note." }, "manager")).json.comment.status).toBe(
        "published",
      );
      expect((await comment(FREE_ITEM_2.slug, { body: "Reader note." }, "pro")).json.comment.status).toBe(
        "published",
      );
    });

    it("a banned user's existing session gets 403; a muted user's comments are held", async () => {
      const { id: freeId } = await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", "free@demo.local")
        .executeTakeFirstOrThrow();
      const { id: basicId } = await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", "basic@demo.local")
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      await db()
        .insertInto("commenter_restriction")
        .values([
          { userId: freeId, kind: "banned", reason: "test", until: null, createdBy: null, createdAt: at },
          { userId: basicId, kind: "muted", reason: "test", until: null, createdBy: null, createdAt: at },
        ])
        .execute();
      try {
        const banned = await post(
          `/api/content/${FREE_ITEM_3.slug}/comments`,
          { body: "Still here?" },
          "free",
        );
        expect(banned.status).toBe(403);
        expect((await errorOf(banned)).message).toBe("You can no longer comment.");
        expect((await threads(FREE_ITEM_3.slug, "free")).canComment).toBe(false);
        const own = await db()
          .selectFrom("comment")
          .select("id")
          .where("authorId", "=", freeId)
          .where("status", "=", "published")
          .executeTakeFirstOrThrow();
        expect(
          (await send("PATCH", `/api/comments/${own.id}`, { body: "Edited while banned" }, "free")).status,
        ).toBe(403);
        const { id: contentId } = await contentRow(FREE_ITEM_3.slug);
        const viaGraphql = await gql(
          `mutation ($c: String!) { createComment(input: { contentId: $c, body: "Sneaky." }) { id } }`,
          { c: contentId },
          "free",
        );
        expect(viaGraphql.errors?.[0]?.extensions.code).toBe("FORBIDDEN");
        const { version } = await db()
          .selectFrom("comment")
          .select("version")
          .where("id", "=", own.id)
          .executeTakeFirstOrThrow();
        const editViaGraphql = await gql(
          `mutation ($id: ID!, $v: Int!) { updateComment(id: $id, version: $v, input: { body: "Edited while banned" }) { id } }`,
          { id: own.id, v: version },
          "free",
        );
        expect(editViaGraphql.errors?.[0]?.extensions.code).toBe("FORBIDDEN");
        const muted = await comment(FREE_ITEM_3.slug, { body: "Muted words." }, "basic");
        expect(muted.json.comment.status).toBe("pending");
      } finally {
        await db().deleteFrom("commenter_restriction").where("userId", "in", [freeId, basicId]).execute();
      }
    });
  });

  describe("bad input", () => {
    it("renders the XSS corpus inert", async () => {
      const corpus = [
        "<script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1))",
        '<iframe src="https://evil.example"></iframe> <svg onload=alert(1)><circle/></svg> ![x](https://evil.example/x.png) <a href="javascript:alert(2)" onclick="alert(3)">a</a>\n\n**bold** [ok](https://example.org) [bad](javascript:alert(4)) <img src=x onerror=alert(5)>',
      ];
      for (const body of corpus) {
        const { res, json } = await comment(FREE_ITEM_3.slug, { body }, "enterprise");
        expect(res.status).toBe(201);
        const html = json.comment.bodyHtml;
        for (const bad of [
          "<script",
          "onerror",
          "javascript:",
          "<img",
          "<iframe",
          "<svg",
          "onload",
          "onclick",
        ])
          expect(html.toLowerCase(), bad).not.toContain(bad);
        expect(json.comment.body).toBe(body);
      }
      const page = await threads(FREE_ITEM_3.slug, "pro", "?sort=newest");
      const last = page.items[0]!;
      expect(last.bodyHtml).toContain("<strong>bold</strong>");
      expect(last.bodyHtml).toContain(
        '<a href="https://example.org" rel="nofollow ugc noopener" target="_blank">ok</a>',
      );
    });

    it("refuses empty, whitespace-only and oversized bodies, naming body", async () => {
      for (const body of [{}, { body: "" }, { body: "   \n\t " }, { body: "x".repeat(5001) }, { body: 42 }]) {
        const res = await post(`/api/content/${FREE_ITEM_3.slug}/comments`, body, "pro");
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(Object.keys((await errorOf(res)).field ?? {})).toEqual(["body"]);
      }
      expect((await comment(FREE_ITEM_3.slug, { body: "y".repeat(5000) }, "pro")).res.status).toBe(201);
      const badSort = await get(`/api/content/${FREE_ITEM_3.slug}/comments?sort=best`, "pro");
      expect(badSort.status).toBe(400);
      expect(Object.keys((await errorOf(badSort)).field ?? {})).toEqual(["sort"]);
      const badCursor = await get(`/api/content/${FREE_ITEM_3.slug}/comments?cursor=nope`, "pro");
      expect(badCursor.status).toBe(400);
      const badReason = await post(
        `/api/comments/${(await threads(FREE_ITEM_3.slug, "pro")).items[0]!.id}/reports`,
        { reason: "meh" },
        "free",
      );
      expect(badReason.status).toBe(400);
    });

    it("refuses replies to hidden, pending and deleted comments", async () => {
      const parent = (await comment(FREE_ITEM.slug, { body: "A parent." }, "enterprise")).json.comment;
      await setStatus(parent.id, "hidden");
      const toHidden = await post(
        `/api/content/${FREE_ITEM.slug}/comments`,
        { body: "Reply", parentCommentId: parent.id },
        "pro",
      );
      expect([400, 409]).toContain(toHidden.status);
      // A hidden parent's replies are not shown either.
      expect((await get(`/api/comments/${parent.id}/replies`, "pro")).status).toBe(404);
      await setStatus(parent.id, "published");
      const reply = (
        await comment(FREE_ITEM.slug, { body: "First reply.", parentCommentId: parent.id }, "pro")
      ).json.comment;
      expect(reply.parentCommentId).toBe(parent.id);
      // The author deletes the parent: it has a reply, so it stays as a tombstone.
      const del = await send("DELETE", `/api/comments/${parent.id}`, undefined, "enterprise");
      expect(await del.json()).toEqual({ id: parent.id, tombstone: true });
      const toDeleted = await post(
        `/api/content/${FREE_ITEM.slug}/comments`,
        { body: "Reply", parentCommentId: parent.id },
        "pro",
      );
      expect(toDeleted.status).toBe(409);
      const otherItem = await post(
        `/api/content/${FREE_ITEM_2.slug}/comments`,
        { body: "Reply", parentCommentId: reply.id },
        "pro",
      );
      expect(otherItem.status).toBe(400);
      expect(Object.keys((await errorOf(otherItem)).field ?? {})).toEqual(["parentCommentId"]);
    });
  });

  describe("writes", () => {
    it("a double-submit with the same requestKey creates one comment", async () => {
      const requestKey = `k-${Date.now()}`;
      const [a, b] = await Promise.all([
        comment(FREE_ITEM_2.slug, { body: "Twice?", requestKey }, "enterprise"),
        comment(FREE_ITEM_2.slug, { body: "Twice?", requestKey }, "enterprise"),
      ]);
      expect(a.json.comment.id).toBe(b.json.comment.id);
      expect([a.res.status, b.res.status].sort()).toEqual([200, 201]);
      const rows = await db()
        .selectFrom("comment")
        .select("id")
        .where("requestKey", "=", requestKey)
        .execute();
      expect(rows).toHaveLength(1);
      const tooLong = await post(
        `/api/content/${FREE_ITEM_2.slug}/comments`,
        { body: "x", requestKey: "k".repeat(101) },
        "pro",
      );
      expect(tooLong.status).toBe(400);
    });

    it("keeps the counts in step through create, reply, delete and tombstone; edit marks edited", async () => {
      const slug = FREE_ITEM_2.slug;
      const start = (await contentRow(slug)).commentCount;
      const top = (await comment(slug, { body: "Top level." }, "pro")).json.comment;
      const reply = (await comment(slug, { body: "A reply.", parentCommentId: top.id }, "manager")).json
        .comment;
      expect((await contentRow(slug)).commentCount).toBe(start + 2);
      expect((await commentRow(top.id))?.replyCount).toBe(1);

      const edited = await send("PATCH", `/api/comments/${top.id}`, { body: "Top level, edited." }, "pro");
      expect(edited.status).toBe(200);
      expect(((await edited.json()) as { comment: View }).comment.editedAt).not.toBeNull();
      // An edit over GraphQL is an edit too.
      expect((await commentRow(reply.id))?.editedAt).toBeNull();
      const gqlEdit = await gql(
        `mutation ($id: ID!, $v: Int!) { updateComment(id: $id, version: $v, input: { body: "A reply, edited." }) { id } }`,
        { id: reply.id, v: (await commentRow(reply.id))!.version },
        "manager",
      );
      expect(gqlEdit.errors).toBeUndefined();
      expect((await commentRow(reply.id))?.editedAt).not.toBeNull();
      expect(
        (await send("PATCH", `/api/comments/${top.id}`, { body: "Not mine" }, "enterprise")).status,
      ).toBe(403);
      expect((await send("DELETE", `/api/comments/${top.id}`, undefined, "enterprise")).status).toBe(403);

      expect(await (await send("DELETE", `/api/comments/${reply.id}`, undefined, "manager")).json()).toEqual({
        id: reply.id,
        tombstone: false,
      });
      expect(await commentRow(reply.id)).toBeUndefined();
      expect((await contentRow(slug)).commentCount).toBe(start + 1);
      expect((await commentRow(top.id))?.replyCount).toBe(0);

      const reply2 = (await comment(slug, { body: "Another reply.", parentCommentId: top.id }, "manager"))
        .json.comment;
      expect((await send("DELETE", `/api/comments/${top.id}`, undefined, "pro")).status).toBe(200);
      const tomb = await commentRow(top.id);
      expect(tomb).toMatchObject({ body: "", replyCount: 1 });
      expect(tomb?.deletedAt).not.toBeNull();
      const listed = (await threads(slug, "enterprise", "?limit=50")).items.find((c) => c.id === top.id);
      expect(listed).toMatchObject({ deleted: true, body: "", bodyHtml: "", replyCount: 1 });
      const replies = (await (
        await get(`/api/comments/${top.id}/replies`, "enterprise")
      ).json()) as ThreadPage;
      expect(replies.items.map((c) => c.id)).toEqual([reply2.id]);
      // The last reply goes: the tombstone goes with it, and the count follows.
      const beforeLast = (await contentRow(slug)).commentCount;
      expect((await send("DELETE", `/api/comments/${reply2.id}`, undefined, "manager")).status).toBe(200);
      expect(await commentRow(top.id)).toBeUndefined();
      expect((await contentRow(slug)).commentCount).toBe(beforeLast - 2);
    });

    it("reports are idempotent per reader; one's own comment cannot be reported", async () => {
      const target = (await comment(FREE_ITEM_3.slug, { body: "Reportable." }, "pro")).json.comment;
      const first = await post(
        `/api/comments/${target.id}/reports`,
        { reason: "spam", note: "ads" },
        "enterprise",
      );
      expect(first.status).toBe(201);
      const second = await post(`/api/comments/${target.id}/reports`, { reason: "abuse" }, "enterprise");
      expect(second.status).toBe(200);
      expect((await commentRow(target.id))?.reportCount).toBe(1);
      const rows = await db()
        .selectFrom("comment_report")
        .select("id")
        .where("commentId", "=", target.id)
        .execute();
      expect(rows).toHaveLength(1);
      const own = await post(`/api/comments/${target.id}/reports`, { reason: "other" }, "pro");
      expect(own.status).toBe(400);
      expect(
        (
          await post(
            `/api/comments/${target.id}/reports`,
            { reason: "spam", note: "n".repeat(501) },
            "manager",
          )
        ).status,
      ).toBe(400);
    });

    it("likes are idempotent and order the top sort; paging follows the cursor", async () => {
      const slug = FREE_ITEM.slug;
      const a = (await comment(slug, { body: "Less liked." }, "manager")).json.comment;
      const b = (await comment(slug, { body: "Most liked." }, "manager")).json.comment;
      for (const who of ["pro", "enterprise"] as const) {
        expect((await post(`/api/comments/${b.id}/like`, {}, who)).status).toBe(200);
        const again = await post(`/api/comments/${b.id}/like`, {}, who);
        expect(await again.json()).toMatchObject({ liked: true });
      }
      await post(`/api/comments/${a.id}/like`, {}, "pro");
      expect((await commentRow(b.id))?.likeCount).toBe(2);
      const unliked = await send("DELETE", `/api/comments/${a.id}/like`, undefined, "pro");
      expect(await unliked.json()).toEqual({ liked: false, likeCount: 0 });
      const top = await threads(slug, "pro", "?sort=top&limit=1");
      expect(top.items[0]?.id).toBe(b.id);
      expect(top.nextCursor).not.toBeNull();
      const seen = new Set<string>([top.items[0]!.id]);
      let cursor = top.nextCursor;
      while (cursor) {
        const next = await threads(slug, "pro", `?sort=top&limit=2&cursor=${encodeURIComponent(cursor)}`);
        for (const c of next.items) {
          expect(seen.has(c.id)).toBe(false);
          seen.add(c.id);
        }
        cursor = next.nextCursor;
      }
      expect(seen.has(a.id)).toBe(true);
      const newest = await threads(slug, "pro", "?sort=newest&limit=1");
      expect(newest.items[0]?.id).toBe(b.id);
    });

    it("likes and unlikes sent at once (a double click, two tabs) count once, never 500", async () => {
      const target = (await comment(FREE_ITEM.slug, { body: "Liked twice at once." }, "manager")).json
        .comment;
      const likes = await Promise.all(
        Array.from({ length: 8 }, () => post(`/api/comments/${target.id}/like`, {}, "pro")),
      );
      expect(likes.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect((await commentRow(target.id))?.likeCount).toBe(1);
      const unlikes = await Promise.all(
        Array.from({ length: 8 }, () => send("DELETE", `/api/comments/${target.id}/like`, undefined, "pro")),
      );
      expect(unlikes.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect((await commentRow(target.id))?.likeCount).toBe(0);
      const rows = await db()
        .selectFrom("comment_like")
        .select("userId")
        .where("commentId", "=", target.id)
        .execute();
      expect(rows).toEqual([]);
    });

    it("limits comments per user and day (50; 429 with Retry-After)", async () => {
      const { id: userId } = await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", "enterprise@demo.local")
        .executeTakeFirstOrThrow();
      const { id: contentId } = await contentRow(FREE_ITEM_3.slug);
      const earlier = await db()
        .selectFrom("comment")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("authorId", "=", userId)
        .where("createdAt", ">", new Date(Date.now() - 86_400_000).toISOString())
        .executeTakeFirstOrThrow();
      const at = new Date(Date.now() - 3_600_000).toISOString();
      const ids = Array.from({ length: 50 - Number(earlier.n) }, (_, i) => `day-${Date.now()}-${i}`);
      await db()
        .insertInto("comment")
        .values(
          ids.map((id) => ({
            id,
            contentId,
            authorId: userId,
            body: "Earlier today.",
            status: "pending",
            createdAt: at,
            updatedAt: at,
          })),
        )
        .execute();
      try {
        const res = await post(
          `/api/content/${FREE_ITEM_3.slug}/comments`,
          { body: "One more?" },
          "enterprise",
        );
        expect(res.status).toBe(429);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(3600);
        expect((await errorOf(res)).message).toContain("50 a day");
      } finally {
        await db().deleteFrom("comment").where("id", "in", ids).execute();
      }
    });

    it("limits comments per user and minute (429 with Retry-After)", async () => {
      let limited: Response | null = null;
      for (let i = 0; i < PER_MINUTE + 2 && !limited; i++) {
        const res = await post(`/api/content/${FREE_ITEM_3.slug}/comments`, { body: `Flood ${i}` }, "basic");
        if (res.status === 429) limited = res;
        else expect(res.status).toBe(201);
      }
      expect(limited).not.toBeNull();
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await errorOf(limited!)).code).toBe("RATE_LIMITED");
    });
  });

  describe("access lost and comments turned off", () => {
    it("a reader who lost access to the item can no longer see, edit or delete their comment there", async () => {
      const { id: freeId } = await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", "free@demo.local")
        .executeTakeFirstOrThrow();
      const pro = await db()
        .selectFrom("content")
        .select(["id", "slug"])
        .where("tier", "=", "Pro")
        .where("status", "=", "published")
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      const id = `lost-${Date.now()}`;
      // Written while the reader still had a Pro plan.
      await db()
        .insertInto("comment")
        .values({
          id,
          contentId: pro.id,
          authorId: freeId,
          body: "From my Pro days.",
          createdAt: at,
          updatedAt: at,
        })
        .execute();
      expect((await send("PATCH", `/api/comments/${id}`, { body: "Edit" }, "free")).status).toBe(404);
      expect((await send("DELETE", `/api/comments/${id}`, undefined, "free")).status).toBe(404);
      expect((await get(`/api/comments/${id}/replies`, "free")).status).toBe(404);
      expect((await get(`/api/content/${pro.slug}/comments`, "free")).status).toBe(403);
      await db().deleteFrom("comment").where("id", "=", id).execute();
    });

    it("comments.enabled off: every comments endpoint answers 404, and on again restores them", async () => {
      const bump = async () => {
        const row = await db()
          .selectFrom("system_setting_revision")
          .select("revision")
          .where("id", "=", 1)
          .executeTakeFirst();
        if (row) {
          await db()
            .updateTable("system_setting_revision")
            .set({ revision: Number(row.revision) + 1 })
            .where("id", "=", 1)
            .execute();
        } else await db().insertInto("system_setting_revision").values({ id: 1, revision: 1 }).execute();
      };
      await db()
        .insertInto("system_setting")
        .values({
          key: "comments.enabled",
          value: "false",
          updatedAt: new Date().toISOString(),
          updatedBy: null,
          version: 1,
        })
        .execute();
      await bump();
      try {
        const list = await get(`/api/content/${FREE_ITEM.slug}/comments`, "pro");
        expect(list.status).toBe(404);
        expect((await errorOf(list)).message).toBe("Comments are turned off on this site.");
        expect(
          (await post(`/api/content/${FREE_ITEM.slug}/comments`, { body: "Hello?" }, "pro")).status,
        ).toBe(404);
        const { id: contentId } = await contentRow(FREE_ITEM.slug);
        const viaGraphql = await gql(
          `mutation ($c: String!) { createComment(input: { contentId: $c, body: "Hello?" }) { id } }`,
          { c: contentId },
          "pro",
        );
        expect(viaGraphql.errors?.[0]?.extensions.code).toBe("NOT_FOUND");
      } finally {
        await db().deleteFrom("system_setting").where("key", "=", "comments.enabled").execute();
        await bump();
      }
      expect((await get(`/api/content/${FREE_ITEM.slug}/comments`, "pro")).status).toBe(200);
    });
  });
});
