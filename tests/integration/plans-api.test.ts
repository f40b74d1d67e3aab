/**
 * Plans REST API (issue 13): the public plans and what each unlocks (counted from the live library),
 * and the platform admins' CRUD — who may use it, field errors, stale versions, archive/restore,
 * the free plan's rules and one audit row per write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTier } from "../../core/index.ts";
import type { AdminPlanView, PlanUnlocks, PlanView } from "../../server/modules/billing/billing.types.ts";
import { signInAdminPersonas } from "../helpers/admin-personas.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ADMIN_API = "/api/admin/plans";

describe.each(DIALECTS)("plans API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const asAdmin = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    req(path, body, { cookie: cookies.admin, ...opts });
  const auditRows = (action: string, targetId: string) =>
    server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .where("targetId", "=", targetId)
      .orderBy("at")
      .execute();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const personas = await signInAdminPersonas(server.url, [
      "admin",
      "owner",
      "free",
      "pro",
      "business",
      "manager",
    ]);
    Object.assign(cookies, personas.cookies);
    apiKey = personas.apiKey;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("public reads", () => {
    it("lists the offered plans in order, without provider ids or versions", async () => {
      const res = await req("/api/plans");
      expect(res.status).toBe(200);
      const { plans } = (await res.json()) as { plans: PlanView[] };
      expect(plans.map((p) => p.id)).toEqual(["free", "basic", "pro", "enterprise", "team", "business"]);
      const pro = plans.find((p) => p.id === "pro")!;
      expect(pro).toMatchObject({
        tier: "pro",
        kind: "individual",
        monthlyPriceCents: 1900,
        currency: "usd",
      });
      expect(pro.yearlySavingCents).toBe(1900 * 12 - pro.yearlyPriceCents);
      expect(pro).not.toHaveProperty("stripeMonthlyPriceId");
      expect(pro).not.toHaveProperty("version");
      expect(plans.find((p) => p.id === "team")).toMatchObject({ perSeat: true, minSeats: 2 });
    });

    it("counts what each individual plan unlocks from the published library", async () => {
      const res = await req("/api/plans/unlocks");
      expect(res.status).toBe(200);
      const { unlocks } = (await res.json()) as { unlocks: PlanUnlocks[] };
      expect(unlocks.map((u) => u.planId)).toEqual(["free", "basic", "pro", "enterprise"]);
      const rows = await server.runtime.database.db
        .selectFrom("content")
        .select(["tier", "slug", "rolesRequired"])
        .where("status", "=", "published")
        .where("publishedAt", "is not", null)
        .execute();
      for (const u of unlocks) {
        const expected = rows.filter(
          (r) => (parseTier(r.tier) ?? "Enterprise").toLowerCase() === u.tier && r.rolesRequired === "[]",
        );
        expect(u.newItems, u.planId).toBe(expected.length);
        expect(u.newItems, u.planId).toBeGreaterThan(0);
        expect(u.highlights.length).toBe(Math.min(3, expected.length));
        for (const h of u.highlights) expect(expected.map((r) => r.slug)).toContain(h.slug);
      }
    });
  });

  describe("unauthorized access", () => {
    const attempts = () => [
      () => req(ADMIN_API, undefined, {}),
      () => req(ADMIN_API, { id: "x", name: "X", tier: "pro", monthlyPriceCents: 1, yearlyPriceCents: 1 }),
      () => req(`${ADMIN_API}/pro`, { version: 1, name: "Hacked" }, { method: "PATCH" }),
      () => req(`${ADMIN_API}/pro`, undefined, { method: "DELETE" }),
      () => req(`${ADMIN_API}/pro/restore`, {}),
    ];

    it("refuses visitors (401)", async () => {
      for (const attempt of attempts()) {
        const res = await attempt();
        expect(res.status).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("refuses readers, managers and organisation admins (403), before reading any body", async () => {
      for (const who of ["free", "pro", "business", "manager"]) {
        const list = await req(ADMIN_API, undefined, { cookie: cookies[who] });
        expect(list.status, who).toBe(403);
        expect((await list.json()).error.code).toBe("FORBIDDEN");
        const patch = await req(
          `${ADMIN_API}/pro`,
          { version: 1, monthlyPriceCents: 1 },
          {
            cookie: cookies[who],
            method: "PATCH",
          },
        );
        expect(patch.status, who).toBe(403);
        const archive = await req(`${ADMIN_API}/pro`, undefined, { cookie: cookies[who], method: "DELETE" });
        expect(archive.status, who).toBe(403);
        const bad = await req(ADMIN_API, "not json", { cookie: cookies[who] });
        expect(bad.status, who).toBe(403);
      }
    });

    it("refuses API keys (403), even an administrator's", async () => {
      const list = await fetch(`${server.url}${ADMIN_API}`, { headers: { "x-api-key": apiKey } });
      expect(list.status).toBe(403);
      const create = await req(
        ADMIN_API,
        { id: "k", name: "K", tier: "pro", monthlyPriceCents: 1, yearlyPriceCents: 1 },
        { headers: { "x-api-key": apiKey } },
      );
      expect(create.status).toBe(403);
      const badKey = await fetch(`${server.url}${ADMIN_API}`, { headers: { "x-api-key": "nope" } });
      expect(badKey.status).toBe(401);
    });

    it("refuses an admin's write from another site (CSRF)", async () => {
      const res = await asAdmin(
        `${ADMIN_API}/pro`,
        { version: 1, name: "Elsewhere" },
        {
          method: "PATCH",
          origin: "https://evil.example",
        },
      );
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("FORBIDDEN_ORIGIN");
      expect((await server.runtime.services.plans.get("pro"))!.name).toBe("Pro");
    });

    it("lets platform admins (app-admin and app-owner) list every plan with versions", async () => {
      for (const who of ["admin", "owner"]) {
        const res = await req(ADMIN_API, undefined, { cookie: cookies[who] });
        expect(res.status, who).toBe(200);
        const { plans } = (await res.json()) as { plans: AdminPlanView[] };
        expect(plans.length).toBeGreaterThanOrEqual(6);
        expect(plans[0]).toHaveProperty("version");
        expect(plans[0]).toHaveProperty("stripeMonthlyPriceId");
      }
    });
  });

  describe("bad input names the field (400)", () => {
    const valid = {
      id: "student",
      name: "Student",
      tier: "basic",
      monthlyPriceCents: 500,
      yearlyPriceCents: 5000,
    };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["no name", { ...valid, name: undefined }, "name"],
      ["bad id", { ...valid, id: "Not A Slug" }, "id"],
      ["unknown tier", { ...valid, tier: "gold" }, "tier"],
      ["unknown kind", { ...valid, kind: "family" }, "kind"],
      ["currency of 2 letters", { ...valid, currency: "us" }, "currency"],
      ["negative price", { ...valid, monthlyPriceCents: -1 }, "monthlyPriceCents"],
      ["fractional cents", { ...valid, yearlyPriceCents: 10.5 }, "yearlyPriceCents"],
      ["price too high", { ...valid, monthlyPriceCents: 10_000_001 }, "monthlyPriceCents"],
      ["price as text", { ...valid, monthlyPriceCents: "19" }, "monthlyPriceCents"],
      ["no seats", { ...valid, minSeats: 0 }, "minSeats"],
      ["max below min", { ...valid, minSeats: 3, maxSeats: 2 }, "maxSeats"],
      ["not a Stripe price", { ...valid, stripeMonthlyPriceId: "prod_123" }, "stripeMonthlyPriceId"],
      [
        "too many features",
        { ...valid, features: Array.from({ length: 11 }, (_, i) => `f${i}`) },
        "features",
      ],
      ["a long feature", { ...valid, features: ["x".repeat(121)] }, "features.0"],
      ["a free-tier plan with a price", { ...valid, tier: "free" }, "monthlyPriceCents"],
      ["an unknown field", { ...valid, archivedAt: "2026-01-01T00:00:00.000Z" }, "archivedAt"],
    ];
    for (const [name, body, field] of cases) {
      it(name, async () => {
        const res = await asAdmin(ADMIN_API, body);
        expect(res.status).toBe(400);
        const { error } = await res.json();
        expect(error.code).toBe("BAD_USER_INPUT");
        expect(Object.keys(error.field ?? {})).toContain(field);
      });
    }

    it("a body that is not JSON, and a patch without a version", async () => {
      expect((await asAdmin(ADMIN_API, "{nope")).status).toBe(400);
      const res = await asAdmin(`${ADMIN_API}/pro`, { monthlyPriceCents: 100 }, { method: "PATCH" });
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toHaveProperty("version");
    });

    it("the free plan stays free", async () => {
      const free = (await server.runtime.services.plans.get("free"))!;
      const version = (await (await asAdmin(ADMIN_API)).json()).plans.find(
        (p: AdminPlanView) => p.id === "free",
      ).version as number;
      const priced = await asAdmin(
        `${ADMIN_API}/free`,
        { version, monthlyPriceCents: 100 },
        { method: "PATCH" },
      );
      expect(priced.status).toBe(400);
      expect((await priced.json()).error.field).toHaveProperty("monthlyPriceCents");
      const retiered = await asAdmin(`${ADMIN_API}/free`, { version, tier: "pro" }, { method: "PATCH" });
      expect(retiered.status).toBe(400);
      const archived = await asAdmin(`${ADMIN_API}/free`, undefined, { method: "DELETE" });
      expect(archived.status).toBe(409);
      expect(await server.runtime.services.plans.get("free")).toEqual(free);
    });
  });

  describe("writes", () => {
    it("creates a plan (201), refuses a second with the same id (409) and audits it", async () => {
      const body = {
        id: "student",
        name: "Student",
        tier: "basic",
        description: "Basic at a student price.",
        currency: "USD",
        monthlyPriceCents: 500,
        yearlyPriceCents: 5000,
        stripeMonthlyPriceId: "price_student_m",
        features: ["Everything in Basic", "Proof of enrolment needed"],
      };
      const res = await asAdmin(ADMIN_API, body);
      expect(res.status).toBe(201);
      const plan = (await res.json()) as AdminPlanView;
      expect(plan).toMatchObject({
        id: "student",
        currency: "usd",
        kind: "individual",
        perSeat: false,
        minSeats: 1,
        maxSeats: null,
        archived: false,
        version: 1,
        yearlySavingCents: 1000,
        yearlySavingPercent: 17,
      });
      expect((await asAdmin(ADMIN_API, body)).status).toBe(409);
      const audit = await auditRows("plan_created", "student");
      expect(audit).toHaveLength(1);
      expect(audit[0]!.targetType).toBe("plan");
      expect(JSON.parse(audit[0]!.details!)).toMatchObject({
        planId: "student",
        fields: { name: "Student" },
      });
      const publicPlans = (await (await req("/api/plans")).json()).plans as PlanView[];
      expect(publicPlans.map((p) => p.id)).toContain("student");
    });

    it("updates at the version read, refuses a stale one (409 STALE_VERSION) and audits what changed", async () => {
      const before = (await (await asAdmin(ADMIN_API)).json()).plans.find(
        (p: AdminPlanView) => p.id === "basic",
      ) as AdminPlanView;
      const res = await asAdmin(
        `${ADMIN_API}/basic`,
        { version: before.version, monthlyPriceCents: 1100, description: before.description },
        { method: "PATCH" },
      );
      expect(res.status).toBe(200);
      const after = (await res.json()) as AdminPlanView;
      expect(after.monthlyPriceCents).toBe(1100);
      expect(after.version).toBe(before.version + 1);

      const stale = await asAdmin(
        `${ADMIN_API}/basic`,
        { version: before.version, monthlyPriceCents: 1, name: "Lost" },
        { method: "PATCH" },
      );
      expect(stale.status).toBe(409);
      expect((await stale.json()).error.code).toBe("STALE_VERSION");
      expect((await server.runtime.services.plans.get("basic"))!.monthlyPriceCents).toBe(1100);

      const audit = await auditRows("plan_updated", "basic");
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actorId).toBeTruthy();
      expect(JSON.parse(audit[0]!.details!)).toEqual({
        planId: "basic",
        changes: { monthlyPriceCents: { from: before.monthlyPriceCents, to: 1100 } },
      });
      expect((await req("/api/plans")).status).toBe(200);
      const shown = ((await (await req("/api/plans")).json()).plans as PlanView[]).find(
        (p) => p.id === "basic",
      );
      expect(shown?.monthlyPriceCents).toBe(1100);
    });

    it("a patch of an unknown plan is 404", async () => {
      const res = await asAdmin(`${ADMIN_API}/nope`, { version: 1, name: "X" }, { method: "PATCH" });
      expect(res.status).toBe(404);
    });

    it("archives (no longer offered, still readable by id) and restores, each audited", async () => {
      const archived = await asAdmin(`${ADMIN_API}/student`, undefined, { method: "DELETE" });
      expect(archived.status).toBe(200);
      expect(((await archived.json()) as AdminPlanView).archived).toBe(true);
      const offered = ((await (await req("/api/plans")).json()).plans as PlanView[]).map((p) => p.id);
      expect(offered).not.toContain("student");
      expect((await server.runtime.services.plans.get("student"))?.archived).toBe(true);
      const all = ((await (await asAdmin(ADMIN_API)).json()).plans as AdminPlanView[]).map((p) => p.id);
      expect(all).toContain("student");

      const restored = await asAdmin(`${ADMIN_API}/student/restore`, {});
      expect(restored.status).toBe(200);
      expect(((await restored.json()) as AdminPlanView).archived).toBe(false);
      expect(((await (await req("/api/plans")).json()).plans as PlanView[]).map((p) => p.id)).toContain(
        "student",
      );
      expect(await auditRows("plan_archived", "student")).toHaveLength(1);
      expect(await auditRows("plan_restored", "student")).toHaveLength(1);
    });

    it("the cheapest plan for a tier follows the offered plans", async () => {
      const plans = server.runtime.services.plans;
      expect((await plans.cheapestFor("Pro"))?.plan.id).toBe("pro");
      expect((await plans.cheapestFor("Basic"))?.plan.id).toBe("student");
      const ent = await plans.cheapestFor("Enterprise");
      expect(ent?.plan.id).toBe("enterprise");
      expect(ent?.unlocks.tier).toBe("enterprise");
    });
  });
});
