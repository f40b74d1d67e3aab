/**
 * The moderation console over real HTTP (docs/api/moderation.md), on each database: the
 * unauthorized-access suite of every /api/moderation endpoint, the queues (the seeded reported and
 * pending comments), approve / hide / remove / dismiss single and in bulk with the counters in
 * step, reports resolved and audit rows written, commenter restrictions (not on staff), and the
 * content review queue.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import type {
  ActionOutcome,
  ModerationComment,
  ModerationQueuePage,
  ModerationSummary,
  RestrictedUser,
} from "../../server/modules/moderation/moderation.schemas.ts";
import { call, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ACCOUNTS = ["free", "basic", "pro", "writer", "business", "manager", "admin", "owner"] as const;
type Who = (typeof ACCOUNTS)[number] | "visitor";
const ITEM_SLUG = "iterating-on-prompts-with-test-cases";

describe.each(DIALECTS)("moderation API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Who, string>> = {};
  const ids: Record<string, string> = {};
  let apiKey: string;
  let itemId: string;

  const db = () => server.runtime.database.db;
  const uid = (who: string): string => {
    const id = ids[who];
    if (!id) throw new Error(`no demo account ${who}`);
    return id;
  };
  const req = (
    who: Who,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    call(server.url, path, body, { method, cookie: who === "visitor" ? undefined : cookies[who], headers });
  async function json<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
  const queue = async (name: string, extra = "") =>
    json<ModerationQueuePage>(await req("manager", "GET", `/api/moderation/comments?queue=${name}${extra}`));
  const counts = async () => {
    const item = await db()
      .selectFrom("content")
      .select("commentCount")
      .where("id", "=", itemId)
      .executeTakeFirstOrThrow();
    return Number(item.commentCount);
  };
  const statusOf = async (id: string) =>
    await db()
      .selectFrom("comment")
      .select(["status", "reportCount", "replyCount", "moderatedBy", "moderationReason"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  /** A comment written straight to the table (published ones counted), with open reports if asked. */
  async function comment(author: string, opts: { status?: string; parent?: string; reports?: number } = {}) {
    const id = randomUUID();
    const status = opts.status ?? "published";
    const at = new Date().toISOString();
    await db()
      .insertInto("comment")
      .values({
        id,
        contentId: itemId,
        authorId: uid(author),
        body: `Moderation test ${id}`,
        parentCommentId: opts.parent ?? null,
        status,
        reportCount: opts.reports ?? 0,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    const { adjustCommentCounts } = await import("../../server/modules/comments/comment-counts.ts");
    await adjustCommentCounts(
      db(),
      { contentId: itemId, parentCommentId: opts.parent ?? null },
      null,
      status,
    );
    for (let i = 0; i < (opts.reports ?? 0); i++)
      await db()
        .insertInto("comment_report")
        .values({
          id: randomUUID(),
          commentId: id,
          reporterId: uid(["basic", "pro", "free"][i % 3] ?? "basic"),
          reason: i % 2 ? "abuse" : "spam",
          note: null,
          createdAt: new Date(Date.now() + i).toISOString(),
          resolvedAt: null,
          resolvedBy: null,
          resolution: null,
        })
        .execute();
    return id;
  }
  const act = async (action: string, commentIds: string[], reason?: string) =>
    json<ActionOutcome>(
      await req("manager", "POST", "/api/moderation/comments/actions", { action, ids: commentIds, reason }),
    );
  const auditFor = (targetId: string) =>
    db()
      .selectFrom("audit_log")
      .select(["action", "actorId", "details"])
      .where("targetId", "=", targetId)
      .where("action", "like", "comment%")
      .execute();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const who of ACCOUNTS)
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    for (const u of await db().selectFrom("user").select(["id", "email"]).execute())
      ids[u.email.split("@")[0] ?? ""] = u.id;
    itemId = (
      await db().selectFrom("content").select("id").where("slug", "=", ITEM_SLUG).executeTakeFirstOrThrow()
    ).id;
    const key = await req("pro", "POST", "/api/account/api-keys", {
      name: "moderation test",
      scopes: ["content:read"],
    });
    apiKey = (await json<{ key: string }>(key, 201)).key;
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  const ENDPOINTS: { method: string; path: string; body?: unknown }[] = [
    { method: "GET", path: "/api/moderation/summary" },
    { method: "GET", path: "/api/moderation/comments?queue=reported" },
    { method: "POST", path: "/api/moderation/comments/actions", body: { action: "hide", ids: ["x"] } },
    { method: "GET", path: "/api/moderation/restrictions" },
    { method: "POST", path: "/api/moderation/restrictions", body: { userId: "x", kind: "muted" } },
    { method: "DELETE", path: "/api/moderation/restrictions/x" },
    { method: "GET", path: "/api/moderation/review" },
  ];

  describe("unauthorized access", () => {
    it("visitors get 401 on every endpoint", async () => {
      for (const e of ENDPOINTS) {
        const res = await req("visitor", e.method, e.path, e.body);
        expect(res.status, `${e.method} ${e.path}`).toBe(401);
      }
    });

    it("readers of every tier, a writer and an organisation admin get 403 on every endpoint", async () => {
      for (const who of ["free", "basic", "pro", "writer", "business"] as const)
        for (const e of ENDPOINTS) {
          const res = await req(who, e.method, e.path, e.body);
          expect(res.status, `${who} ${e.method} ${e.path}`).toBe(403);
          expect(((await res.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
        }
    });

    it("API keys get 403 on every endpoint", async () => {
      for (const e of ENDPOINTS) {
        const res = await call(server.url, e.path, e.body, {
          method: e.method,
          headers: { "x-api-key": apiKey },
          origin: null,
        });
        expect(res.status, `${e.method} ${e.path}`).toBe(403);
      }
    });

    it("a write from a foreign origin is refused", async () => {
      const res = await call(
        server.url,
        "/api/moderation/comments/actions",
        { action: "hide", ids: ["x"] },
        {
          cookie: cookies.manager,
          origin: "https://evil.example",
        },
      );
      expect(res.status).toBe(403);
    });

    it("content managers, platform admins and the owner are let in", async () => {
      for (const who of ["manager", "admin", "owner"] as const)
        expect((await req(who, "GET", "/api/moderation/summary")).status, who).toBe(200);
    });
  });

  describe("bad input", () => {
    it("names the field at fault", async () => {
      const cases: [unknown, string][] = [
        [{ action: "explode", ids: ["a"] }, "action"],
        [{ action: "hide", ids: [] }, "ids"],
        [{ action: "hide", ids: Array.from({ length: 101 }, (_, i) => `c${i}`) }, "ids"],
        [{ action: "hide", ids: ["a"], reason: "x".repeat(501) }, "reason"],
        [{ action: "hide", ids: "a" }, "ids"],
      ];
      for (const [body, field] of cases) {
        const res = await req("manager", "POST", "/api/moderation/comments/actions", body);
        expect(res.status).toBe(400);
        const error = ((await res.json()) as { error: { field?: Record<string, string> } }).error;
        expect(Object.keys(error.field ?? {}).join(","), JSON.stringify(body).slice(0, 80)).toContain(field);
      }
      expect((await req("manager", "GET", "/api/moderation/comments?queue=nope")).status).toBe(400);
      expect((await req("manager", "GET", "/api/moderation/comments?limit=0")).status).toBe(400);
      expect((await req("manager", "GET", "/api/moderation/comments?cursor=%%%")).status).toBe(400);
      const bad = await req("manager", "POST", "/api/moderation/restrictions", {
        userId: uid("free"),
        kind: "muted",
        duration: "2y",
      });
      expect(bad.status).toBe(400);
      const text = await req("manager", "POST", "/api/moderation/comments/actions", "not json", {
        "content-type": "application/json",
      });
      expect(text.status).toBe(400);
    });
  });

  describe("queues", () => {
    it("the seeded reported and pending comments are there, with reasons, author and link", async () => {
      const reported = await queue("reported");
      const seeded = reported.items.find(
        (c) => c.author?.email === "free@demo.local" && c.item.slug === ITEM_SLUG,
      );
      expect(seeded).toBeDefined();
      expect(seeded!.reports.reasons).toEqual([{ reason: "spam", count: 1 }]);
      expect(seeded!.item.url).toBe(`/content/${ITEM_SLUG}#comment-${seeded!.id}`);
      expect(seeded!.author).toMatchObject({ name: expect.any(String), staff: false, restriction: null });
      const pending = await queue("pending");
      expect(
        pending.items.some((c) => c.author?.email === "basic@demo.local" && c.status === "pending"),
      ).toBe(true);
      const summary = await json<ModerationSummary>(await req("manager", "GET", "/api/moderation/summary"));
      expect(summary.reported).toBeGreaterThanOrEqual(1);
      expect(summary.pending).toBeGreaterThanOrEqual(1);
    });

    it("pages with a keyset cursor without repeats, and filters by author", async () => {
      for (let i = 0; i < 3; i++) await comment("pro", { status: "pending" });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ModerationQueuePage = await queue(
          "pending",
          `&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        );
        seen.push(...page.items.map((c) => c.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBeGreaterThanOrEqual(4);
      const mine = await queue("pending", `&authorId=${uid("pro")}`);
      expect(mine.items.every((c: ModerationComment) => c.author?.id === uid("pro"))).toBe(true);
      const other = await queue("hidden");
      const cursorOfPending = (await queue("pending", "&limit=1")).nextCursor!;
      expect(other).toBeDefined();
      expect(
        (await req("manager", "GET", `/api/moderation/comments?queue=hidden&cursor=${cursorOfPending}`))
          .status,
      ).toBe(400);
    });
  });

  describe("actions", () => {
    it("hide resolves reports as actioned, keeps counts in step (content and parent) and is audited", async () => {
      const parent = await comment("free");
      const reply = await comment("pro", { parent, reports: 2 });
      const before = await counts();
      expect((await statusOf(parent)).replyCount).toBe(1);
      const out = await act("hide", [reply], "Off topic");
      expect(out.results).toEqual([{ id: reply, ok: true, status: "hidden", changed: true }]);
      expect(await counts()).toBe(before - 1);
      expect(await statusOf(reply)).toMatchObject({
        status: "hidden",
        reportCount: 0,
        moderatedBy: uid("manager"),
        moderationReason: "Off topic",
      });
      expect((await statusOf(parent)).replyCount).toBe(0);
      const reports = await db()
        .selectFrom("comment_report")
        .select(["resolution", "resolvedBy"])
        .where("commentId", "=", reply)
        .execute();
      expect(reports).toHaveLength(2);
      expect(reports.every((r) => r.resolution === "actioned" && r.resolvedBy === uid("manager"))).toBe(true);
      const audit = await auditFor(reply);
      expect(audit.map((a) => a.action)).toEqual(["comment_hidden"]);
      expect(audit[0]?.actorId).toBe(uid("manager"));
      // Restoring from the hidden tab: approve puts it back and counts it again.
      expect((await queue("hidden")).items.some((c) => c.id === reply)).toBe(true);
      await act("approve", [reply]);
      expect(await counts()).toBe(before);
      expect((await statusOf(parent)).replyCount).toBe(1);
      // Acting again is idempotent: nothing changes, nothing audited twice.
      const again = await act("approve", [reply]);
      expect(again.results[0]).toMatchObject({ ok: true, changed: false });
      expect((await auditFor(reply)).map((a) => a.action).sort()).toEqual([
        "comment_approved",
        "comment_hidden",
      ]);
    });

    it("approves pending comments in bulk, with unknown ids reported per id", async () => {
      const a = await comment("basic", { status: "pending" });
      const b = await comment("pro", { status: "pending" });
      const before = await counts();
      const out = await act("approve", [a, b, "no-such-comment"]);
      expect(out.done).toBe(2);
      expect(out.results.find((r) => r.id === "no-such-comment")).toMatchObject({
        ok: false,
        error: "not_found",
      });
      expect(await counts()).toBe(before + 2);
      expect((await statusOf(a)).status).toBe("published");
    });

    it("remove keeps the body for the audit but never shows it, and a removed comment stays removed", async () => {
      const id = await comment("free", { reports: 1 });
      const before = await counts();
      await act("remove", [id], "Spam");
      expect(await counts()).toBe(before - 1);
      const row = await db()
        .selectFrom("comment")
        .select(["body", "status"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: "removed", body: expect.stringContaining("Moderation test") });
      const all = await queue("all", `&authorId=${uid("free")}&limit=100`);
      expect(all.items.find((c) => c.id === id)?.body).toBeNull();
      const restore = await act("approve", [id]);
      expect(restore.results[0]).toMatchObject({ ok: false, error: "removed" });
      expect(await counts()).toBe(before - 1);
    });

    it("dismiss keeps the comment published, resets reports and takes it off the reported queue", async () => {
      const id = await comment("basic", { reports: 3 });
      expect((await queue("reported")).items.find((c) => c.id === id)?.reports.reasons).toEqual([
        { reason: "spam", count: 2 },
        { reason: "abuse", count: 1 },
      ]);
      const before = await counts();
      await act("dismiss", [id]);
      expect(await counts()).toBe(before);
      expect(await statusOf(id)).toMatchObject({ status: "published", reportCount: 0 });
      expect((await queue("reported")).items.some((c) => c.id === id)).toBe(false);
      const resolutions = await db()
        .selectFrom("comment_report")
        .select("resolution")
        .where("commentId", "=", id)
        .execute();
      expect(resolutions.every((r) => r.resolution === "dismissed")).toBe(true);
      expect((await auditFor(id)).map((a) => a.action)).toEqual(["comment_reports_dismissed"]);
    });
  });

  describe("commenter restrictions", () => {
    it("mutes with a duration, lists, lifts, and audits each step", async () => {
      const muted = await json<{ restriction: RestrictedUser }>(
        await req("manager", "POST", "/api/moderation/restrictions", {
          userId: uid("enterprise"),
          kind: "muted",
          duration: "7d",
          reason: "Heated",
        }),
        201,
      );
      const days = (Date.parse(muted.restriction.until!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThan(7.1);
      const list = await json<{ items: RestrictedUser[] }>(
        await req("admin", "GET", "/api/moderation/restrictions"),
      );
      expect(list.items.find((r) => r.userId === uid("enterprise"))).toMatchObject({
        kind: "muted",
        reason: "Heated",
      });
      expect(
        (await req("manager", "DELETE", `/api/moderation/restrictions/${uid("enterprise")}`)).status,
      ).toBe(200);
      expect(
        (await req("manager", "DELETE", `/api/moderation/restrictions/${uid("enterprise")}`)).status,
      ).toBe(404);
      expect((await auditFor(uid("enterprise"))).map((a) => a.action).sort()).toEqual([
        "commenter_muted",
        "commenter_restriction_lifted",
      ]);
    });

    it("a ban can hide all the author's published comments", async () => {
      const a = await comment("pro");
      const b = await comment("pro");
      const before = await counts();
      const out = await json<{ hidden: number }>(
        await req("owner", "POST", "/api/moderation/restrictions", {
          userId: uid("pro"),
          kind: "banned",
          hideComments: true,
        }),
        201,
      );
      expect(out.hidden).toBeGreaterThanOrEqual(2);
      expect((await statusOf(a)).status).toBe("hidden");
      expect((await statusOf(b)).status).toBe("hidden");
      expect(await counts()).toBeLessThanOrEqual(before - 2);
      const row = (await queue("hidden", `&authorId=${uid("pro")}`)).items[0];
      expect(row?.author?.restriction).toMatchObject({ kind: "banned", until: null });
      await req("owner", "DELETE", `/api/moderation/restrictions/${uid("pro")}`);
    });

    it("staff cannot be restricted (403), unknown users are 404", async () => {
      for (const who of ["manager", "admin", "owner"])
        expect(
          (await req("manager", "POST", "/api/moderation/restrictions", { userId: uid(who), kind: "banned" }))
            .status,
          who,
        ).toBe(403);
      expect(
        (
          await req("admin", "POST", "/api/moderation/restrictions", {
            userId: uid("manager"),
            kind: "muted",
          })
        ).status,
      ).toBe(403);
      expect(
        (await req("manager", "POST", "/api/moderation/restrictions", { userId: "nobody", kind: "muted" }))
          .status,
      ).toBe(404);
    });
  });

  describe("content review queue", () => {
    it("lists an item a writer submitted for review, with a link to the editor", async () => {
      const slug = `review-${randomUUID().slice(0, 8)}`;
      const created = await json<{ item: { id: string; version: number } }>(
        await req("writer", "POST", "/api/content", {
          title: "Waiting for review",
          slug,
          tier: "Free",
          body: "Please review.",
        }),
        201,
      );
      await json(
        await req("writer", "POST", `/api/content/${created.item.id}/transitions`, {
          action: "submit",
          version: created.item.version,
        }),
      );
      const review = await json<{
        items: {
          id: string;
          title: string;
          authorName: string | null;
          editUrl: string;
          submittedAt: string;
        }[];
        total: number;
      }>(await req("manager", "GET", "/api/moderation/review"));
      const row = review.items.find((i) => i.id === created.item.id);
      expect(row).toMatchObject({ title: "Waiting for review", editUrl: `/content/${created.item.id}/edit` });
      expect(row!.authorName).toBeTruthy();
      const summary = await json<ModerationSummary>(await req("manager", "GET", "/api/moderation/summary"));
      expect(summary.review).toBe(review.total);
    });
  });
});
