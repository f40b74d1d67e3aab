/**
 * E-mail notifications (issue 15) over a real database and HTTP: the sweep run directly with a
 * controllable clock (the runtime's own minute timer is stopped), reply mails once per reply even
 * with two processes, opt-out / self-reply / pending / lost access, followed sections by tier, the
 * weekly digest once per ISO week, the signed unsubscribe (signed out, tampered, one-click), and the
 * preferences/follows API's unauthorized-access suite and bad input.
 */
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer, MailMessage } from "../../server/mail/mailer.ts";
import { runNotificationSweep } from "../../server/modules/notifications/notification-sweep.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { signInDemoReaders } from "../helpers/demo-readers.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Who = "visitor" | "free" | "pro" | "basic";

/** A Wednesday, then the following Mondays (UTC). */
const WED = Date.parse("2030-01-02T10:00:00.000Z");
const MON1 = Date.parse("2030-01-07T08:00:00.000Z");
const MON2 = Date.parse("2030-01-14T08:00:00.000Z");
const MIN = 60_000;

function captureMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: "outbox",
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}

describe.each(DIALECTS)("notifications (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    await server.runtime.notificationSweeper.stop();
    const readers = await signInDemoReaders(server, ["free", "pro", "basic"], {
      owner: "pro",
      name: "notifications test",
    });
    Object.assign(cookies, readers.cookies);
    Object.assign(ids, readers.ids);
    apiKey = readers.apiKey;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.runtime.database.db;
  const as = (who: Who) => (who === "visitor" ? {} : { cookie: cookies[who] });
  const sweep = (now: number, mailer = captureMailer()) =>
    runNotificationSweep({
      db: db(),
      mailer,
      links: server.runtime.unsubscribeLinks,
      baseUrl: "https://hub.example",
      now: () => now,
    }).then((result) => ({ result, mailer }));
  const prefs = (who: Who, body: Record<string, unknown>) =>
    call(server.url, "/api/me/notifications", body, { method: "PUT", ...as(who) });

  /** A published item of a section, made to need `tier`, published at `at`. */
  async function itemIn(section: string, tier: string, at: number | null, skip: string[] = []) {
    const row = await db()
      .selectFrom("content")
      .select(["id", "slug", "title"])
      .where("section", "=", section)
      .where("status", "=", "published")
      .where("id", "not in", skip.length ? skip : ["-"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    await db()
      .updateTable("content")
      .set({ tier, rolesRequired: "[]", ...(at === null ? {} : { publishedAt: new Date(at).toISOString() }) })
      .where("id", "=", row.id)
      .execute();
    return row;
  }

  async function comment(opts: {
    contentId: string;
    authorId: string;
    parentCommentId?: string | null;
    status?: string;
    at: number;
    body?: string;
  }) {
    const id = uuidv7();
    const at = new Date(opts.at).toISOString();
    await db()
      .insertInto("comment")
      .values({
        id,
        contentId: opts.contentId,
        authorId: opts.authorId,
        parentCommentId: opts.parentCommentId ?? null,
        body: opts.body ?? "A **thoughtful** reply with a [link](https://example.com).",
        status: opts.status ?? "published",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    return id;
  }

  describe("preferences and follows API", () => {
    it("starts with every kind off and saves changes (own rows only)", async () => {
      const res = await call(server.url, "/api/me/notifications", undefined, as("basic"));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        preferences: { replies: false, followed_sections: false, weekly_digest: false },
      });
      const put = await prefs("basic", { weekly_digest: true });
      expect(put.status).toBe(200);
      expect(((await put.json()) as { preferences: Record<string, boolean> }).preferences).toEqual({
        replies: false,
        followed_sections: false,
        weekly_digest: true,
      });
      const other = await call(server.url, "/api/me/notifications", undefined, as("free"));
      expect(
        ((await other.json()) as { preferences: Record<string, boolean> }).preferences.weekly_digest,
      ).toBe(false);
      await prefs("basic", { weekly_digest: false });
    });

    it("follows and unfollows sections idempotently", async () => {
      for (let i = 0; i < 2; i++) {
        const res = await call(server.url, "/api/me/follows/ai-news", undefined, {
          method: "PUT",
          ...as("basic"),
        });
        expect(res.status).toBe(200);
        expect(
          ((await res.json()) as { follows: { section: string }[] }).follows.map((f) => f.section),
        ).toEqual(["ai-news"]);
      }
      const list = await call(server.url, "/api/me/follows", undefined, as("basic"));
      expect(((await list.json()) as { follows: unknown[] }).follows).toHaveLength(1);
      const del = await call(server.url, "/api/me/follows/ai-news", undefined, {
        method: "DELETE",
        ...as("basic"),
      });
      expect(((await del.json()) as { follows: unknown[] }).follows).toEqual([]);
    });

    it("names the field on bad input", async () => {
      const unknownKind = await prefs("basic", { sms: true });
      expect(unknownKind.status).toBe(400);
      const a = (await unknownKind.json()) as { error: { message: string; field?: Record<string, string> } };
      expect(a.error.field).toHaveProperty("sms");
      const notBool = await prefs("basic", { replies: "yes" });
      expect(notBool.status).toBe(400);
      expect(
        ((await notBool.json()) as { error: { field?: Record<string, string> } }).error.field,
      ).toHaveProperty("replies");
      const badJson = await call(server.url, "/api/me/notifications", "{nope", {
        method: "PUT",
        ...as("basic"),
      });
      expect(badJson.status).toBe(400);
      const badSection = await call(server.url, "/api/me/follows/cooking", undefined, {
        method: "PUT",
        ...as("basic"),
      });
      expect(badSection.status).toBe(400);
      expect(
        ((await badSection.json()) as { error: { field?: Record<string, string> } }).error.field,
      ).toHaveProperty("section");
    });

    it("refuses visitors, API keys and foreign origins", async () => {
      for (const [method, path] of [
        ["GET", "/api/me/notifications"],
        ["PUT", "/api/me/notifications"],
        ["GET", "/api/me/follows"],
        ["PUT", "/api/me/follows/ai-news"],
        ["DELETE", "/api/me/follows/ai-news"],
      ] as const) {
        const body =
          method === "GET" ? undefined : method === "PUT" && path.endsWith("notifications") ? {} : "";
        const visitor = await call(server.url, path, body, { method });
        expect(visitor.status, `${method} ${path} visitor`).toBe(401);
        const key = await call(server.url, path, body, { method, headers: { "x-api-key": apiKey } });
        expect(key.status, `${method} ${path} api key`).toBe(403);
        if (method !== "GET") {
          const foreign = await call(server.url, path, body, {
            method,
            ...as("pro"),
            origin: "https://evil.example",
          });
          expect(foreign.status, `${method} ${path} foreign origin`).toBe(403);
          const none = await call(server.url, path, body, { method, ...as("pro"), origin: null });
          expect(none.status, `${method} ${path} no origin`).toBe(403);
        }
      }
      // No tier is required: a Free reader manages their own notifications.
      expect((await call(server.url, "/api/me/follows", undefined, as("free"))).status).toBe(200);
    });
  });

  describe("sweep", () => {
    it("mails a reply once to an opted-in author, never twice across two processes", async () => {
      await sweep(WED); // first pass: sets the cursors
      const item = await itemIn("ai-education", "Free", null);
      await prefs("free", { replies: true });
      const parent = await comment({ contentId: item.id, authorId: ids.free!, at: WED - 10 * MIN });
      const reply = await comment({
        contentId: item.id,
        authorId: ids.pro!,
        parentCommentId: parent,
        at: WED + MIN,
      });
      const a = captureMailer();
      const b = captureMailer();
      await Promise.all([sweep(WED + 2 * MIN, a), sweep(WED + 2 * MIN, b)]);
      const sent = [...a.sent, ...b.sent];
      expect(sent).toHaveLength(1);
      const mail = sent[0]!;
      expect(mail.to).toBe("free@demo.local");
      expect(mail.subject).toContain(`replied to your comment on ${item.title}`);
      expect(mail.text).toContain("A thoughtful reply with a link.");
      expect(mail.text).toContain(`https://hub.example/content/${item.slug}#comment-${reply}`);
      expect(mail.text).toContain("https://hub.example/settings");
      expect(mail.headers?.["List-Unsubscribe"]).toMatch(
        /^<https?:\/\/[^/]+\/unsubscribe\?u=.+&k=replies&sig=.+>$/,
      );
      expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      const again = await sweep(WED + 3 * MIN);
      expect(again.mailer.sent).toHaveLength(0);
    });

    it("retries a mail whose sending failed on the next pass", async () => {
      const item = await itemIn("documentation", "Free", null);
      await prefs("basic", { replies: true });
      const parent = await comment({ contentId: item.id, authorId: ids.basic!, at: WED });
      const reply = await comment({
        contentId: item.id,
        authorId: ids.pro!,
        parentCommentId: parent,
        at: WED + 3 * MIN,
      });
      const failing: Mailer = {
        kind: "outbox",
        async send() {
          throw new Error("SMTP down");
        },
      };
      await runNotificationSweep({
        db: db(),
        mailer: failing,
        links: server.runtime.unsubscribeLinks,
        baseUrl: "https://hub.example",
        now: () => WED + 3 * MIN + 1000,
        logger: { error() {} },
      });
      const claims = await db()
        .selectFrom("notification_delivery")
        .select("id")
        .where("dedupeKey", "=", `reply:${reply}`)
        .execute();
      expect(claims).toEqual([]);
      const retry = await sweep(WED + 4 * MIN);
      expect(retry.mailer.sent.map((m) => m.to)).toEqual(["basic@demo.local"]);
      await prefs("basic", { replies: false });
    });

    it("sends nothing for an opted-out author, a self-reply, a pending reply or a reader who lost access", async () => {
      const item = await itemIn("workforce-tools", "Free", null);
      await prefs("free", { replies: true });
      const parent = await comment({ contentId: item.id, authorId: ids.free!, at: WED });
      await comment({ contentId: item.id, authorId: ids.free!, parentCommentId: parent, at: WED + 4 * MIN });
      const pending = await comment({
        contentId: item.id,
        authorId: ids.pro!,
        parentCommentId: parent,
        status: "pending",
        at: WED + 4 * MIN,
      });
      // basic has not opted in
      const basicParent = await comment({ contentId: item.id, authorId: ids.basic!, at: WED });
      await comment({
        contentId: item.id,
        authorId: ids.pro!,
        parentCommentId: basicParent,
        at: WED + 4 * MIN,
      });
      const quiet = await sweep(WED + 5 * MIN);
      expect(quiet.mailer.sent).toEqual([]);

      // The pending reply is approved later: it is sent then.
      await db()
        .updateTable("comment")
        .set({ status: "published", moderatedAt: new Date(WED + 6 * MIN).toISOString() })
        .where("id", "=", pending)
        .execute();
      const approved = await sweep(WED + 7 * MIN);
      expect(approved.mailer.sent.map((m) => m.to)).toEqual(["free@demo.local"]);

      // The item now needs Pro: the Free author can no longer read it, so no mail.
      const locked = await itemIn("resources", "Pro", null);
      const lockedParent = await comment({ contentId: locked.id, authorId: ids.free!, at: WED });
      await comment({
        contentId: locked.id,
        authorId: ids.pro!,
        parentCommentId: lockedParent,
        at: WED + 8 * MIN,
      });
      const none = await sweep(WED + 9 * MIN);
      expect(none.mailer.sent).toEqual([]);
      await prefs("free", { replies: false });
    });

    it("mails followers about new items in followed sections only when they may read them", async () => {
      for (const who of ["free", "pro"] as const) {
        await prefs(who, { followed_sections: true });
        await call(server.url, "/api/me/follows/ai-news", undefined, { method: "PUT", ...as(who) });
      }
      // basic follows but has not opted in
      await call(server.url, "/api/me/follows/ai-news", undefined, { method: "PUT", ...as("basic") });
      const freeItem = await itemIn("ai-news", "Free", WED + 10 * MIN);
      const proItem = await itemIn("ai-news", "Pro", WED + 10 * MIN, [freeItem.id]);
      const { mailer } = await sweep(WED + 11 * MIN);
      const byTo = (to: string) => mailer.sent.filter((m) => m.to === to).map((m) => m.subject);
      expect(byTo("free@demo.local")).toEqual([`New in AI News: ${freeItem.title}`]);
      expect(byTo("pro@demo.local").sort()).toEqual(
        [`New in AI News: ${freeItem.title}`, `New in AI News: ${proItem.title}`].sort(),
      );
      expect(byTo("basic@demo.local")).toEqual([]);
      for (const m of mailer.sent.filter((x) => x.to === "free@demo.local"))
        expect(m.text).not.toContain(proItem.slug);
      const again = await sweep(WED + 12 * MIN);
      expect(again.mailer.sent).toEqual([]);
      for (const who of ["free", "pro"] as const) await prefs(who, { followed_sections: false });
    });

    it("sends the weekly digest once per ISO week, on Monday, with readable items only", async () => {
      await prefs("free", { weekly_digest: true });
      await prefs("pro", { weekly_digest: true });
      // Tuesday: no digest.
      expect((await sweep(MON1 - 6 * 86_400_000)).result.digests).toBe(0);
      const first = await sweep(MON1);
      const freeDigest = first.mailer.sent.find((m) => m.to === "free@demo.local");
      const proDigest = first.mailer.sent.find((m) => m.to === "pro@demo.local");
      expect(freeDigest?.subject).toMatch(/^Your weekly digest: \d+ new items?$/);
      expect(proDigest).toBeDefined();
      expect(freeDigest!.text).toMatch(
        /Unsubscribe: https?:\/\/[^/]+\/unsubscribe\?u=.+&k=weekly_digest&sig=/,
      );
      // The Pro item of the week is in the Pro reader's digest only.
      const proOnly = await db()
        .selectFrom("content")
        .select("slug")
        .where("tier", "=", "Pro")
        .where("section", "=", "ai-news")
        .where("publishedAt", "=", new Date(WED + 10 * MIN).toISOString())
        .executeTakeFirstOrThrow();
      expect(proDigest!.text).toContain(proOnly.slug);
      expect(freeDigest!.text).not.toContain(proOnly.slug);
      expect((await sweep(MON1 + 60 * MIN)).mailer.sent).toEqual([]);
      // The next Monday: nothing new in the previous seven days → no digest at all.
      expect((await sweep(MON2)).mailer.sent).toEqual([]);
      await prefs("pro", { weekly_digest: false });
    });
  });

  describe("unsubscribe link", () => {
    const link = () =>
      server.runtime.unsubscribeLinks.url(ids.free!, "weekly_digest").replace(/^https?:\/\/[^/]+/, "");
    const enabled = async () =>
      (
        (await (await call(server.url, "/api/me/notifications", undefined, as("free"))).json()) as {
          preferences: Record<string, boolean>;
        }
      ).preferences.weekly_digest;

    it("shows the question signed out and turns the kind off from the page's form", async () => {
      await prefs("free", { weekly_digest: true });
      const page = await fetch(`${server.url}${link()}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Unsubscribe from weekly digest e-mails?");
      const posted = await fetch(`${server.url}${link()}`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: "",
        redirect: "manual",
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get("location")).toContain("done=1");
      expect(await enabled()).toBe(false);
      const done = await fetch(`${server.url}${posted.headers.get("location")}`);
      expect(await done.text()).toContain("You are unsubscribed");
    });

    it("accepts the RFC 8058 one-click POST without an origin, idempotently", async () => {
      await prefs("free", { weekly_digest: true });
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${server.url}${link()}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        });
        expect(res.status).toBe(200);
      }
      expect(await enabled()).toBe(false);
    });

    it("refuses a tampered or incomplete link with a clear 400, and a foreign form post", async () => {
      await prefs("free", { weekly_digest: true });
      const tampered = link().replace(/sig=([^&]+)/, (_m, s: string) => `sig=${s.slice(0, -2)}xx`);
      const otherKind = link().replace("k=weekly_digest", "k=replies");
      const otherUser = link().replace(/u=[^&]+/, `u=${ids.pro}`);
      for (const bad of [tampered, otherKind, otherUser, "/unsubscribe", "/unsubscribe?u=x&k=nope&sig=y"]) {
        const page = await fetch(`${server.url}${bad}`);
        expect(page.status, bad).toBe(400);
        expect(await page.text()).toContain("This unsubscribe link does not work");
        const oneClick = await fetch(`${server.url}${bad}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        });
        expect(oneClick.status, bad).toBe(400);
      }
      const foreign = await fetch(`${server.url}${link()}`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: "",
        redirect: "manual",
      });
      expect(foreign.status).toBe(403);
      expect(await enabled()).toBe(true);
      await prefs("free", { weekly_digest: false });
    });
  });
});
