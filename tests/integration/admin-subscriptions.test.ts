/**
 * Admin subscriptions REST API (issue 14): who may use it (visitor + every demo account + API
 * keys), list filters and paging, grant → the reader reads the plan on the next request and the
 * audit rows carry the note, extend, cancel at period end and now, bad input and stale versions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AdminSubscriptionPage,
  AdminSubscriptionView,
} from "../../server/modules/billing/billing-admin.ts";
import { DEMO_ACCOUNTS, signInAdminPersonas } from "../helpers/admin-personas.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/subscriptions";

describe.each(DIALECTS)("admin subscriptions API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const asAdmin = (path: string, body?: unknown) => req(path, body, { cookie: cookies.admin });
  const tierOf = async (who: string) => {
    const res = await req("/api/billing/subscription", undefined, { cookie: cookies[who] });
    expect(res.status).toBe(200);
    return ((await res.json()) as { currentTier: string }).currentTier;
  };
  const audit = (action: string, targetId: string) =>
    server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .where("targetId", "=", targetId)
      .execute();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const personas = await signInAdminPersonas(server.url);
    Object.assign(cookies, personas.cookies);
    apiKey = personas.apiKey;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const grant = { email: "free@demo.local", planId: "pro", days: 30, note: "x" };
    const attempts = (cookie?: string) => [
      () => req(API, undefined, { cookie }),
      () => req(API, grant, { cookie }),
      () => req(`${API}/anything/extend`, { version: 1, days: 1, note: "x" }, { cookie }),
      () => req(`${API}/anything/cancel`, { version: 1, when: "now", note: "x" }, { cookie }),
    ];

    it("refuses visitors (401)", async () => {
      for (const attempt of attempts()) {
        const res = await attempt();
        expect(res.status).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("refuses every demo account but admin@ and owner@ (403; business@ too)", async () => {
      for (const who of DEMO_ACCOUNTS.filter((a) => a !== "admin" && a !== "owner")) {
        for (const attempt of attempts(cookies[who])) {
          const res = await attempt();
          expect(res.status, who).toBe(403);
          expect((await res.json()).error.code).toBe("FORBIDDEN");
        }
      }
      for (const who of ["admin", "owner"]) {
        const res = await req(API, undefined, { cookie: cookies[who] });
        expect(res.status, who).toBe(200);
      }
    });

    it("refuses API keys (403) and writes from another site", async () => {
      const list = await fetch(`${server.url}${API}`, { headers: { "x-api-key": apiKey } });
      expect(list.status).toBe(403);
      const write = await req(API, grant, { headers: { "x-api-key": apiKey }, origin: null });
      expect(write.status).toBe(403);
      const foreign = await req(API, grant, { cookie: cookies.admin, origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
      expect(await audit("subscription_granted", "x")).toHaveLength(0);
    });
  });

  describe("list", () => {
    it("lists rows with their reader, filters, and pages without overlap", async () => {
      const res = await asAdmin(API);
      expect(res.status).toBe(200);
      const page = (await res.json()) as AdminSubscriptionPage;
      expect(page.items.length).toBeGreaterThan(0);
      const pro = page.items.find((i) => i.user.email === "pro@demo.local");
      expect(pro).toMatchObject({ tier: "pro", organization: null });
      expect(page.summary.byTier.map((t) => t.tier)).toEqual(["basic", "pro", "enterprise"]);
      expect(page.summary.byTier.find((t) => t.tier === "pro")!.subscriptions).toBeGreaterThan(0);

      const byQ = (await (await asAdmin(`${API}?q=PRO%40demo`)).json()) as AdminSubscriptionPage;
      expect(byQ.items.length).toBeGreaterThan(0);
      for (const i of byQ.items) expect(i.user.email).toBe("pro@demo.local");

      const orgs = (await (await asAdmin(`${API}?owner=organisation`)).json()) as AdminSubscriptionPage;
      expect(orgs.items.length).toBeGreaterThan(0);
      for (const i of orgs.items) expect(i.organization).not.toBeNull();

      const basic = (await (
        await asAdmin(`${API}?tier=basic&status=active`)
      ).json()) as AdminSubscriptionPage;
      for (const i of basic.items) expect([i.tier, i.status]).toEqual(["basic", "active"]);

      const seen = new Set<string>();
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await asAdmin(`${API}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        const p = (await r.json()) as AdminSubscriptionPage;
        for (const i of p.items) {
          expect(seen.has(i.id)).toBe(false);
          seen.add(i.id);
        }
        cursor = p.nextCursor;
        pages++;
      } while (cursor && pages < 50);
      expect(seen.size).toBe(page.items.length);
    });

    it("answers 400 naming the parameter for bad filters", async () => {
      for (const [query, field] of [
        ["status=weird", "status"],
        ["endingBefore=tomorrow", "endingBefore"],
        ["limit=0", "limit"],
        ["colour=red", "colour"],
        ["cursor=!!", "cursor"],
      ]) {
        const res = await asAdmin(`${API}?${query}`);
        expect(res.status, query).toBe(400);
        const body = await res.json();
        if (field !== "cursor") expect(body.error.field, query).toHaveProperty(String(field));
      }
    });
  });

  describe("grant, extend, cancel", () => {
    it("grants Pro to free@ with a note: the reader reads Pro next request, audited with the note", async () => {
      expect(await tierOf("free")).toBe("free");
      const bad = await asAdmin(API, { email: "free@demo.local", planId: "pro", days: 30 });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.field).toHaveProperty("note");
      const nobody = await asAdmin(API, { email: "nobody@demo.local", planId: "pro", days: 3, note: "n" });
      expect((await nobody.json()).error.field).toHaveProperty("email");
      const seat = await asAdmin(API, { email: "free@demo.local", planId: "team", days: 3, note: "n" });
      expect((await seat.json()).error.field).toHaveProperty("planId");

      const res = await asAdmin(API, {
        email: "free@demo.local",
        planId: "pro",
        days: 30,
        note: "Conference speaker",
      });
      expect(res.status).toBe(201);
      const granted = (await res.json()) as AdminSubscriptionView;
      expect(granted).toMatchObject({
        tier: "pro",
        status: "active",
        source: "admin",
        cancelAtPeriodEnd: true,
      });
      const days = (Date.parse(granted.expiresAt!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29);
      expect(days).toBeLessThan(31);
      expect(await tierOf("free")).toBe("pro");

      const changed = await audit("entitlement_changed", granted.user.id);
      const row = changed.find((r) => String(r.details).includes(granted.id));
      expect(row).toBeDefined();
      expect(String(row!.details)).toContain("Conference speaker");
      const admin = await server.runtime.database.db
        .selectFrom("user")
        .select("id")
        .where("email", "=", "admin@demo.local")
        .executeTakeFirstOrThrow();
      expect(row!.actorId).toBe(admin.id);
      const granting = await audit("subscription_granted", granted.user.id);
      expect(granting.some((r) => String(r.details).includes("Conference speaker"))).toBe(true);

      // extend: version checked, end moved by the days asked
      const stale = await asAdmin(`${API}/${granted.id}/extend`, {
        version: granted.version + 5,
        days: 10,
        note: "more",
      });
      expect(stale.status).toBe(409);
      expect((await stale.json()).error.code).toBe("STALE_VERSION");
      const ext = await asAdmin(`${API}/${granted.id}/extend`, {
        version: granted.version,
        days: 10,
        note: "Extended for the workshop",
      });
      expect(ext.status).toBe(200);
      const extended = (await ext.json()) as AdminSubscriptionView;
      expect(Date.parse(extended.expiresAt!) - Date.parse(granted.expiresAt!)).toBe(10 * 86_400_000);
      expect(extended.version).toBeGreaterThan(granted.version);
      const extAudit = await audit("subscription_extended", granted.user.id);
      expect(extAudit.some((r) => String(r.details).includes("Extended for the workshop"))).toBe(true);

      // cancel now: the reader is back on Free, audited with the note
      const noWhen = await asAdmin(`${API}/${granted.id}/cancel`, { version: extended.version, note: "x" });
      expect((await noWhen.json()).error.field).toHaveProperty("when");
      const cancel = await asAdmin(`${API}/${granted.id}/cancel`, {
        version: extended.version,
        when: "now",
        note: "Grant withdrawn",
      });
      expect(cancel.status).toBe(200);
      expect(((await cancel.json()) as AdminSubscriptionView).status).toBe("canceled");
      expect(await tierOf("free")).toBe("free");
      const back = await audit("entitlement_changed", granted.user.id);
      expect(back.some((r) => String(r.details).includes("Grant withdrawn"))).toBe(true);
      const again = await asAdmin(`${API}/${granted.id}/cancel`, {
        version: extended.version + 1,
        when: "now",
        note: "again",
      });
      expect(again.status).toBe(409);
    });

    it("cancels at the period end: the reader keeps the plan until then", async () => {
      const res = await asAdmin(API, {
        email: "basic@demo.local",
        planId: "pro",
        until: "2099-01-01",
        note: "n",
      });
      expect(res.status).toBe(201);
      const granted = (await res.json()) as AdminSubscriptionView;
      // an open-ended (renewing) row: take basic@'s own row
      const list = (await (
        await asAdmin(`${API}?q=basic%40demo.local&status=active`)
      ).json()) as AdminSubscriptionPage;
      const own = list.items.find((i) => i.id !== granted.id && !i.cancelAtPeriodEnd);
      expect(own).toBeDefined();
      const cancel = await asAdmin(`${API}/${own!.id}/cancel`, {
        version: own!.version,
        when: "period_end",
        note: "Moving to the grant",
      });
      expect(cancel.status).toBe(200);
      const after = (await cancel.json()) as AdminSubscriptionView;
      expect(after).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
      expect(after.canceledAt).not.toBeNull();
      const ending = (await (
        await asAdmin(`${API}?endingBefore=2098-01-01&q=basic%40demo.local`)
      ).json()) as AdminSubscriptionPage;
      expect(ending.items.map((i) => i.id)).toContain(own!.id);
      expect(ending.items.map((i) => i.id)).not.toContain(granted.id);
      const cleanup = await asAdmin(`${API}/${granted.id}/cancel`, {
        version: granted.version,
        when: "now",
        note: "cleanup",
      });
      expect(cleanup.status).toBe(200);
    });
  });
});
