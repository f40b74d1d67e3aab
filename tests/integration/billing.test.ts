/**
 * Billing over HTTP with the manual provider (issue 13, decision 019): checkout → confirm → the
 * plan opens on the next request on every channel; cancel at period end keeps it to the end and
 * the scheduler ends it with the clock moved (no request needed); resume; an upgrade now with a
 * prorated receipt; a downgrade pending then applied at the period end; concurrency (two
 * confirmations grant once, a stale version is refused); a downgrade while a payment is pending;
 * an archived plan; returnTo; the audit rows and e-mails; and the unauthorized-access suite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call, createConfirmedAccount, mailsTo, signInCookie, TestClock } from "../helpers/auth.ts";
import { userIdOf } from "../helpers/orgs.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const DAY = 86_400_000;
const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article")!;

interface Overview {
  currentTier: string;
  provider: string;
  takesPayments: boolean;
  subscription: null | {
    id: string;
    plan: { id: string; tier: string };
    interval: string;
    status: string;
    periodStart: string;
    periodEnd: string;
    cancelAtPeriodEnd: boolean;
    pendingChange: null | { plan: { id: string }; interval: string; at: string };
    graceUntil: string | null;
    version: number;
    canManage: boolean;
    scope: string;
    seats: null | { total: number; used: number };
  };
  openCheckout: null | { id: string };
  invoices: Array<{ amountCents: number; description: string; status: string; provider: string }>;
  portalAvailable: boolean;
}

describe.each(DIALECTS)("billing, manual provider (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const json = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const overview = async (cookie: string) =>
    json<Overview>(await req("/api/billing/subscription", undefined, { cookie }));
  const checkout = async (cookie: string, body: Record<string, unknown>) =>
    json<{ id: string; url: string; status: string; amountCents: number }>(
      await req("/api/billing/checkout", body, { cookie }),
      201,
    );
  const confirm = (cookie: string, id: string) => req(`/api/billing/checkout/${id}/confirm`, {}, { cookie });
  /** A fresh reader on Free (sign-up gives the free row). */
  const newReader = async (prefix: string) => {
    const account = await createConfirmedAccount(server.url, server.dataDir, prefix);
    const cookie = await signInCookie(server.url, account.email, account.password);
    return { ...account, cookie, id: await userIdOf(server.runtime.database.db, account.email) };
  };
  /** Buys Pro (monthly) through the manual checkout. */
  const buy = async (cookie: string, planId = "pro", interval = "month") => {
    const started = await checkout(cookie, { planId, interval });
    const done = await json<{ status: string }>(await confirm(cookie, started.id));
    expect(done.status).toBe("completed");
    return overview(cookie);
  };
  const auditRows = (targetId: string) =>
    server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "entitlement_changed")
      .where("targetId", "=", targetId)
      .orderBy("at")
      .orderBy("id")
      .execute();
  /** Waits for the scheduler (a 1 s job on the server's clock) to make `check` true. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("the scheduler did not get there");
  };
  const proItemLocked = async (cookie: string) =>
    (
      (await (await req(`/api/content/${PRO_ITEM.slug}`, undefined, { cookie })).json()) as {
        locked: boolean;
      }
    ).locked;

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("free@demo.local buys Pro: every channel opens on the next request, with a receipt, an audit row and an e-mail", async () => {
    const cookie = await signInCookie(server.url, "free@demo.local", DEMO_PASSWORD);
    const before = await overview(cookie);
    expect(before).toMatchObject({
      provider: "manual",
      takesPayments: false,
      currentTier: "free",
      subscription: null,
    });
    expect(await proItemLocked(cookie)).toBe(true);

    const started = await checkout(cookie, {
      planId: "pro",
      interval: "month",
      returnTo: `/content/${PRO_ITEM.slug}`,
    });
    expect(started).toMatchObject({ status: "open", amountCents: 1900 });
    expect(started.url).toBe(`/checkout/${started.id}`);
    // A second tab reuses the open checkout.
    expect((await checkout(cookie, { planId: "pro", interval: "month" })).id).toBe(started.id);
    const done = await json<{ status: string; returnTo: string }>(await confirm(cookie, started.id));
    expect(done).toMatchObject({ status: "completed", returnTo: `/content/${PRO_ITEM.slug}` });

    const after = await overview(cookie);
    expect(after.currentTier).toBe("pro");
    expect(after.subscription).toMatchObject({
      plan: { id: "pro" },
      interval: "month",
      status: "active",
      cancelAtPeriodEnd: false,
      scope: "personal",
      canManage: true,
    });
    expect(after.invoices).toHaveLength(1);
    expect(after.invoices[0]).toMatchObject({ amountCents: 1900, status: "paid", provider: "manual" });
    expect(after.invoices[0]!.description).toContain("takes no payments");

    // REST: the body link is there and works.
    const item = (await (await req(`/api/content/${PRO_ITEM.slug}`, undefined, { cookie })).json()) as {
      locked: boolean;
      presignedUrl: string;
      id: string;
    };
    expect(item.locked).toBe(false);
    const body = await fetch(new URL(item.presignedUrl, server.url), { headers: { cookie } });
    expect(body.status).toBe(200);
    // The page shows the body, no paywall.
    const html = await (await req(`/content/${PRO_ITEM.slug}`, undefined, { cookie })).text();
    expect(html).not.toContain("Premium Content");
    // GraphQL.
    const gql = await json<{
      data: { listContentBySlug: { items: Array<{ locked: boolean }> }; getContent: { locked: boolean } };
    }>(
      await req(
        "/graphql",
        {
          query:
            "query ($slug: String!, $id: ID!) { listContentBySlug(slug: $slug) { items { locked } } getContent(id: $id) { locked } }",
          variables: { slug: PRO_ITEM.slug, id: item.id },
        },
        { cookie },
      ),
    );
    expect(gql.data.listContentBySlug.items[0]!.locked).toBe(false);
    expect(gql.data.getContent.locked).toBe(false);
    // Search: the item is found unlocked.
    const word = PRO_ITEM.title.split(/\s+/).find((w) => w.length > 5)!;
    const search = await json<{ items: Array<{ slug: string; locked: boolean }> }>(
      await req(`/api/search?q=${encodeURIComponent(word)}&limit=50`, undefined, { cookie }),
    );
    expect(search.items.find((i) => i.slug === PRO_ITEM.slug)?.locked).toBe(false);

    const userId = await userIdOf(server.runtime.database.db, "free@demo.local");
    const audit = await auditRows(userId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: userId, targetType: "user" });
    expect(JSON.parse(String(audit[0]!.details))).toMatchObject({
      fromTier: "free",
      toTier: "pro",
      reason: "checkout",
      provider: "manual",
      sourceEventId: null,
      subscriptionId: after.subscription!.id,
    });
    const mails = await mailsTo(server.dataDir, "free@demo.local");
    expect(mails.some((m) => m.includes("Your Pro plan has started"))).toBe(true);

    // Buying what one already has points to /subscription.
    const again = await req("/api/billing/checkout", { planId: "pro", interval: "month" }, { cookie });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toContain("/subscription");
  });

  it("cancel keeps Pro to the period end, resume undoes it, and the scheduler ends it at the end with nobody asking", async () => {
    const reader = await newReader("cancel");
    const bought = await buy(reader.cookie);
    const cancelled = await json<Overview>(
      await req("/api/billing/cancel", { version: bought.subscription!.version }, { cookie: reader.cookie }),
    );
    expect(cancelled.subscription).toMatchObject({ cancelAtPeriodEnd: true, status: "active" });
    expect(cancelled.currentTier).toBe("pro");
    // A stale version is refused.
    const stale = await req(
      "/api/billing/resume",
      { version: bought.subscription!.version },
      { cookie: reader.cookie },
    );
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("STALE_VERSION");
    const resumed = await json<Overview>(
      await req(
        "/api/billing/resume",
        { version: cancelled.subscription!.version },
        { cookie: reader.cookie },
      ),
    );
    expect(resumed.subscription!.cancelAtPeriodEnd).toBe(false);
    const again = await json<Overview>(
      await req("/api/billing/cancel", { version: resumed.subscription!.version }, { cookie: reader.cookie }),
    );
    const end = again.subscription!.periodEnd;
    const subscriptionId = again.subscription!.id;

    clock.t = Date.parse(end) + 1000;
    const db = server.runtime.database.db;
    await eventually(async () => {
      const row = await db
        .selectFrom("user_subscription")
        .select("status")
        .where("id", "=", subscriptionId)
        .executeTakeFirst();
      return row?.status === "canceled";
    });
    // The audit row and the e-mail follow the row's update.
    await eventually(async () =>
      (await mailsTo(server.dataDir, reader.email)).some((m) => m.includes("plan has ended")),
    );
    const audit = await auditRows(reader.id);
    expect(audit.map((a) => JSON.parse(String(a.details)))).toEqual([
      expect.objectContaining({ fromTier: "free", toTier: "pro", reason: "checkout" }),
      expect.objectContaining({ fromTier: "pro", toTier: "free", reason: "canceled_at_period_end" }),
    ]);
    expect(audit[1]!.actorId).toBeNull();
    expect((await mailsTo(server.dataDir, reader.email)).some((m) => m.includes("plan has ended"))).toBe(
      true,
    );
    // Sessions time out with the moved clock: sign in again, on Free now.
    const cookie = await signInCookie(server.url, reader.email, reader.password);
    const now = await overview(cookie);
    expect(now).toMatchObject({ currentTier: "free", subscription: null });
    expect(await proItemLocked(cookie)).toBe(true);
  });

  it("an upgrade is now with a prorated receipt; a downgrade waits for the period end, can be kept, then applies", async () => {
    const reader = await newReader("change");
    const basic = await buy(reader.cookie, "basic");
    expect(basic.currentTier).toBe("basic");
    const { periodStart, periodEnd } = basic.subscription!;
    clock.t = Date.parse(periodStart) + 10 * DAY;
    const cookie = await signInCookie(server.url, reader.email, reader.password);
    const fraction = (Date.parse(periodEnd) - clock.t) / (Date.parse(periodEnd) - Date.parse(periodStart));
    const upgraded = await json<Overview>(
      await req(
        "/api/billing/change",
        { planId: "pro", interval: "month", version: basic.subscription!.version },
        { cookie },
      ),
    );
    expect(upgraded.currentTier).toBe("pro");
    expect(upgraded.subscription).toMatchObject({ plan: { id: "pro" }, periodEnd });
    expect(upgraded.invoices[0]!.amountCents).toBe(Math.round((1900 - 900) * fraction));
    expect(upgraded.invoices[0]!.description).toContain("prorated");

    const pending = await json<Overview>(
      await req(
        "/api/billing/change",
        { planId: "basic", interval: "month", version: upgraded.subscription!.version },
        { cookie },
      ),
    );
    expect(pending.currentTier).toBe("pro");
    expect(pending.subscription!.pendingChange).toMatchObject({
      plan: { id: "basic" },
      interval: "month",
      at: periodEnd,
    });
    // "Keep Pro": the current plan again drops the pending change.
    const kept = await json<Overview>(
      await req(
        "/api/billing/change",
        { planId: "pro", interval: "month", version: pending.subscription!.version },
        { cookie },
      ),
    );
    expect(kept.subscription!.pendingChange).toBeNull();
    const downgraded = await json<Overview>(
      await req(
        "/api/billing/change",
        { planId: "basic", interval: "month", version: kept.subscription!.version },
        { cookie },
      ),
    );
    const id = downgraded.subscription!.id;
    clock.t = Date.parse(periodEnd) + 1000;
    const db = server.runtime.database.db;
    await eventually(async () => {
      const row = await db
        .selectFrom("user_subscription")
        .select("planId")
        .where("id", "=", id)
        .executeTakeFirst();
      return row?.planId === "basic";
    });
    // The audit row, then the renewal's receipt, follow the row's update.
    await eventually(async () => {
      const receipts = await db
        .selectFrom("billing_invoice")
        .select("id")
        .where("subscriptionId", "=", id)
        .execute();
      return (await auditRows(reader.id)).length === 3 && receipts.length === 3;
    });
    const later = await overview(await signInCookie(server.url, reader.email, reader.password));
    expect(later.currentTier).toBe("basic");
    expect(later.subscription).toMatchObject({
      plan: { id: "basic" },
      pendingChange: null,
      status: "active",
    });
    expect(Date.parse(later.subscription!.periodStart)).toBe(Date.parse(periodEnd));
    expect(later.invoices[0]).toMatchObject({ amountCents: 900 });
    const audit = (await auditRows(reader.id)).map((a) => JSON.parse(String(a.details)));
    expect(audit.map((a) => `${a.fromTier}>${a.toTier}:${a.reason}`)).toEqual([
      "free>basic:checkout",
      "basic>pro:upgrade",
      "pro>basic:scheduled_change",
    ]);
  });

  it("a reader who already pays for Basic upgrades through the paywall's checkout: the same subscription, prorated", async () => {
    const cookie = await signInCookie(server.url, "basic@demo.local", DEMO_PASSWORD);
    const before = await overview(cookie);
    expect(before.subscription).toMatchObject({ plan: { id: "basic" } });
    const started = await checkout(cookie, {
      planId: "pro",
      interval: "month",
      returnTo: `/content/${PRO_ITEM.slug}`,
    });
    expect(started.amountCents).toBeGreaterThan(0);
    expect(started.amountCents).toBeLessThanOrEqual(1000);
    expect((await json<{ status: string }>(await confirm(cookie, started.id))).status).toBe("completed");
    const after = await overview(cookie);
    expect(after.currentTier).toBe("pro");
    expect(after.subscription).toMatchObject({ id: before.subscription!.id, plan: { id: "pro" } });
    expect(after.invoices[0]!.amountCents).toBe(started.amountCents);
    const userId = await userIdOf(server.runtime.database.db, "basic@demo.local");
    const audit = (await auditRows(userId)).map((a) => JSON.parse(String(a.details)));
    expect(audit).toEqual([
      expect.objectContaining({ fromTier: "basic", toTier: "pro", reason: "checkout" }),
    ]);
  });

  it("two tabs start one checkout, and two confirmations at once grant once", async () => {
    const reader = await newReader("twice");
    // Two tabs start the same checkout at once: one checkout.
    const [one, two] = await Promise.all([
      checkout(reader.cookie, { planId: "pro", interval: "year" }),
      checkout(reader.cookie, { planId: "pro", interval: "year" }),
    ]);
    expect(one.id).toBe(two.id);
    const started = one;
    const answers = await Promise.all([
      confirm(reader.cookie, started.id),
      confirm(reader.cookie, started.id),
    ]);
    for (const res of answers) expect(res.status).toBe(200);
    const rows = await server.runtime.database.db
      .selectFrom("user_subscription")
      .select(["id", "tier"])
      .where("userId", "=", reader.id)
      .where("tier", "=", "pro")
      .execute();
    expect(rows).toHaveLength(1);
    expect(await auditRows(reader.id)).toHaveLength(1);
    expect((await overview(reader.cookie)).invoices).toHaveLength(1);
  });

  it("a failed payment keeps the plan through the grace period, refuses a downgrade, then expires", async () => {
    const reader = await newReader("pastdue");
    const bought = await buy(reader.cookie);
    const id = bought.subscription!.id;
    const grace = new Date(clock.t + 7 * DAY).toISOString();
    await server.runtime.database.db
      .updateTable("user_subscription")
      .set({ status: "past_due", graceUntil: grace, expiresAt: grace })
      .where("id", "=", id)
      .execute();
    const pastDue = await overview(reader.cookie);
    expect(pastDue.currentTier).toBe("pro");
    expect(pastDue.subscription).toMatchObject({ status: "past_due", graceUntil: grace });
    const refused = await req(
      "/api/billing/change",
      { planId: "basic", interval: "month", version: pastDue.subscription!.version },
      { cookie: reader.cookie },
    );
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("PAYMENT_PENDING");
    clock.t = Date.parse(grace) + 1000;
    await eventually(async () => {
      const row = await server.runtime.database.db
        .selectFrom("user_subscription")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirst();
      return row?.status === "expired";
    });
    await eventually(async () => (await auditRows(reader.id)).length === 2);
    const audit = (await auditRows(reader.id)).map((a) => JSON.parse(String(a.details)));
    expect(audit.at(-1)).toMatchObject({ fromTier: "pro", toTier: "free", reason: "grace_ended" });
  });

  it("bad input: an archived or unknown plan, a bad interval, a foreign returnTo, an unknown field", async () => {
    const reader = await newReader("bad");
    const db = server.runtime.database.db;
    await db
      .updateTable("plan")
      .set({ archivedAt: new Date(clock.t).toISOString() })
      .where("id", "=", "basic")
      .execute();
    try {
      const archived = await req(
        "/api/billing/checkout",
        { planId: "basic", interval: "month" },
        { cookie: reader.cookie },
      );
      expect(archived.status).toBe(409);
      expect((await archived.json()).error).toMatchObject({
        code: "PLAN_UNAVAILABLE",
        field: { planId: expect.any(String) },
      });
    } finally {
      await db.updateTable("plan").set({ archivedAt: null }).where("id", "=", "basic").execute();
    }
    for (const [body, field] of [
      [{ planId: "nope", interval: "month" }, "planId"],
      [{ planId: "free", interval: "month" }, "planId"],
      [{ planId: "pro", interval: "week" }, "interval"],
      [{ planId: "pro", interval: "month", returnTo: "//evil.example/x" }, "returnTo"],
      [{ planId: "pro", interval: "month", returnTo: "https://evil.example/" }, "returnTo"],
      [{ planId: "pro", interval: "month", extra: 1 }, "extra"],
      [{ planId: "team", interval: "month", seats: 5 }, null],
    ] as const) {
      const res = await req("/api/billing/checkout", body, { cookie: reader.cookie });
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      const error = (await res.json()).error;
      if (field) expect(Object.keys(error.field ?? {}), JSON.stringify(body)).toContain(field);
      else expect(error.message).toContain("create your organisation first");
    }
    const nothing = await req("/api/billing/cancel", { version: 1 }, { cookie: reader.cookie });
    expect(nothing.status).toBe(404);
    const portal = await req("/api/billing/portal", {}, { cookie: reader.cookie });
    expect(portal.status).toBe(409);
    expect((await req("/api/billing/webhooks/stripe", "{}", { origin: null })).status).toBe(404);
  });

  it("the pages: the paywall's form posts to /checkout, the checkout page confirms, /subscription shows the plan", async () => {
    const reader = await newReader("pages");
    const form = (fields: Record<string, string>, origin: string | null = server.url) =>
      fetch(`${server.url}/checkout`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: reader.cookie,
          "content-type": "application/x-www-form-urlencoded",
          ...(origin ? { origin } : {}),
        },
        body: new URLSearchParams(fields).toString(),
      });
    const fields = { planId: "pro", interval: "month", returnTo: `/content/${PRO_ITEM.slug}` };
    // Another site's Origin is refused by React Router itself; a form without one by the action.
    expect((await form(fields, null)).status).toBe(403);
    const posted = await form(fields);
    expect(posted.status).toBe(302);
    const location = posted.headers.get("location")!;
    expect(location).toMatch(/^\/checkout\/[0-9a-f-]{36}$/);
    const review = await (await req(location, undefined, { cookie: reader.cookie })).text();
    expect(review).toContain("This installation takes no payments");
    expect(review).toContain("$19.00/month");
    const confirmed = await fetch(`${server.url}${location}`, {
      method: "POST",
      headers: {
        cookie: reader.cookie,
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "intent=confirm",
    });
    expect(confirmed.status).toBe(200);
    const done = await (await req(location, undefined, { cookie: reader.cookie })).text();
    expect(done).toMatch(/You(&#x27;|')re on Pro/);
    expect(done).toContain(`href="/content/${PRO_ITEM.slug}"`);
    const page = await (await req("/subscription", undefined, { cookie: reader.cookie })).text();
    expect(page).toContain("renews on");
    expect(page).toContain("takes no payments");
    // Bad input through the form: a 400 page naming the problem, never a 500.
    const bad = await form({ planId: "nope", interval: "month" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("There is no plan");
    // Someone else's checkout page is a 404.
    const other = await newReader("pages2");
    expect((await req(location, undefined, { cookie: other.cookie })).status).toBe(404);
  });

  it("an organisation admin adds seats now (prorated) and removes seats at the period end; a member only reads", async () => {
    const admin = await signInCookie(server.url, "business@demo.local", DEMO_PASSWORD);
    const before = await overview(admin);
    expect(before.subscription).toMatchObject({
      scope: "organization",
      canManage: true,
      seats: { total: 10, used: 1 },
    });
    const more = await json<Overview>(
      await req(
        "/api/billing/seats",
        { seats: 15, version: before.subscription!.version },
        { cookie: admin },
      ),
    );
    expect(more.subscription!.seats!.total).toBe(15);
    expect(more.invoices[0]!.description).toContain("15 seats");
    expect(
      (
        await server.runtime.services.organizations.mine(
          await server.runtime.identity.resolveSessionActor(
            new Headers({ cookie: admin, "user-agent": "node", "accept-language": "*" }),
          ),
        )
      )?.seats.total,
    ).toBe(15);
    const fewer = await json<Overview>(
      await req("/api/billing/seats", { seats: 12, version: more.subscription!.version }, { cookie: admin }),
    );
    expect(fewer.subscription!.seats!.total).toBe(15);
    expect(fewer.subscription!.pendingChange).toMatchObject({ seats: 12 });
    const tooFew = await req(
      "/api/billing/seats",
      { seats: 2, version: fewer.subscription!.version },
      { cookie: admin },
    );
    expect(tooFew.status).toBe(400);
    expect((await tooFew.json()).error.field).toHaveProperty("seats");

    // A member of the organisation reads the plan but does not manage it.
    const member = await newReader("member");
    await server.runtime.database.db
      .insertInto("user_group")
      .values({ userId: member.id, groupName: "org-acme", createdAt: new Date(clock.t).toISOString() })
      .execute();
    const seen = await overview(member.cookie);
    expect(seen.currentTier).toBe("enterprise");
    expect(seen.subscription).toMatchObject({ scope: "organization", canManage: false });
    expect(seen.invoices).toEqual([]);
    const refused = await req(
      "/api/billing/seats",
      { seats: 20, version: seen.subscription!.version },
      { cookie: member.cookie },
    );
    expect(refused.status).toBe(403);
    const cancel = await req(
      "/api/billing/cancel",
      { version: seen.subscription!.version },
      { cookie: member.cookie },
    );
    expect(cancel.status).toBe(403);
  });

  describe("unauthorized access", () => {
    const ID = "0190f0f0-0000-7000-8000-000000000000";
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/api/billing/subscription"],
      ["POST", "/api/billing/checkout", { planId: "pro", interval: "month" }],
      ["GET", `/api/billing/checkout/${ID}`],
      ["POST", `/api/billing/checkout/${ID}/confirm`, {}],
      ["POST", `/api/billing/checkout/${ID}/cancel`, {}],
      ["POST", "/api/billing/change", { planId: "pro", interval: "month", version: 1 }],
      ["POST", "/api/billing/cancel", { version: 1 }],
      ["POST", "/api/billing/resume", { version: 1 }],
      ["POST", "/api/billing/seats", { seats: 5, version: 1 }],
      ["POST", "/api/billing/portal", {}],
      ["GET", "/api/billing/invoices"],
      ["GET", "/api/admin/billing/checkouts"],
      ["POST", `/api/admin/billing/checkouts/${ID}/approve`, {}],
    ];

    it("a visitor gets 401 everywhere", async () => {
      for (const [method, path, body] of routes) {
        const res = await req(path, body, { method });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
    });

    it("an API key gets 403 everywhere", async () => {
      const cookie = await signInCookie(server.url, "pro@demo.local", DEMO_PASSWORD);
      const created = await json<{ key: string }>(
        await req("/api/account/api-keys", { name: "billing", scopes: ["content:read"] }, { cookie }),
        201,
      );
      for (const [method, path, body] of routes) {
        const res = await req(path, body, { method, headers: { "x-api-key": created.key }, origin: null });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    });

    it("a cookie write from another site is refused", async () => {
      const reader = await newReader("csrf");
      const res = await req(
        "/api/billing/checkout",
        { planId: "pro", interval: "month" },
        {
          cookie: reader.cookie,
          origin: "https://evil.example",
        },
      );
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("FORBIDDEN_ORIGIN");
    });

    it("another reader's checkout is 404; only platform admins list and approve checkouts; members do not manage seats", async () => {
      const owner = await newReader("owner");
      const other = await newReader("other");
      const started = await checkout(owner.cookie, { planId: "pro", interval: "month" });
      for (const [method, path] of [
        ["GET", `/api/billing/checkout/${started.id}`],
        ["POST", `/api/billing/checkout/${started.id}/confirm`],
        ["POST", `/api/billing/checkout/${started.id}/cancel`],
      ] as const) {
        const res = await req(path, method === "GET" ? undefined : {}, { method, cookie: other.cookie });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      expect((await req("/api/admin/billing/checkouts", undefined, { cookie: other.cookie })).status).toBe(
        403,
      );
      expect(
        (await req(`/api/admin/billing/checkouts/${started.id}/approve`, {}, { cookie: other.cookie }))
          .status,
      ).toBe(403);
      // Still open: the other reader changed nothing.
      expect(
        (
          await json<{ status: string }>(
            await req(`/api/billing/checkout/${started.id}`, undefined, { cookie: owner.cookie }),
          )
        ).status,
      ).toBe("open");
      // business@demo.local's organisation: an admin reads and manages it; the seat editor needs the admin.
      const business = await signInCookie(server.url, "business@demo.local", DEMO_PASSWORD);
      const orgView = await overview(business);
      expect(orgView.subscription).toMatchObject({ scope: "organization", canManage: true });
    });
  });
});

describe.each(DIALECTS)("billing, manual provider without self-serve (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { BILLING_MANUAL_SELF_SERVE: "0" });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a confirmation waits for a platform admin, who approves it", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "approve");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const started = await call(
      server.url,
      "/api/billing/checkout",
      { planId: "pro", interval: "month" },
      { cookie },
    );
    const { id, selfServe } = (await started.json()) as { id: string; selfServe: boolean };
    expect(selfServe).toBe(false);
    const waiting = await call(server.url, `/api/billing/checkout/${id}/confirm`, {}, { cookie });
    expect(((await waiting.json()) as { status: string }).status).toBe("awaiting_approval");
    const tier = async () =>
      (
        (await (await call(server.url, "/api/billing/subscription", undefined, { cookie })).json()) as {
          currentTier: string;
        }
      ).currentTier;
    expect(await tier()).toBe("free");
    const admin = await signInCookie(server.url, "admin@demo.local", DEMO_PASSWORD);
    const list = (await (
      await call(server.url, "/api/admin/billing/checkouts?status=awaiting_approval", undefined, {
        cookie: admin,
      })
    ).json()) as { checkouts: Array<{ id: string; customer: { email: string } }> };
    expect(list.checkouts.map((c) => c.id)).toContain(id);
    expect(list.checkouts.find((c) => c.id === id)).toMatchObject({ customer: { email: account.email } });
    // The admin screen lists it with an Approve button.
    const screen = await (
      await call(server.url, "/admin/subscriptions", undefined, { cookie: admin })
    ).text();
    expect(screen).toContain(account.email);
    expect(screen).toContain("Approve");
    const approved = await call(
      server.url,
      `/api/admin/billing/checkouts/${id}/approve`,
      {},
      { cookie: admin },
    );
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { status: string }).status).toBe("completed");
    expect(await tier()).toBe("pro");
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "entitlement_changed")
      .where("targetId", "=", await userIdOf(server.runtime.database.db, account.email))
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0]!.details))).toMatchObject({ reason: "approved" });
    expect(audit[0]!.actorId).toBe(await userIdOf(server.runtime.database.db, "admin@demo.local"));
  });
});
