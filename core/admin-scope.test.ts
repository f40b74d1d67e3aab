import { describe, expect, it } from "vitest";
import { ADMIN_OPERATIONS, type AdminOperationName, adminAccess, hasAdminScope } from "./admin-scope.ts";
import { flattenRoutes } from "./routes.ts";
import { PERSONA_NAMES, PERSONAS } from "./test-personas.ts";

/**
 * Written by hand (decision 009). Columns: visitor, free, basic, pro, enterprise, business
 * (org-acme-admin), manager, admin (app-admin), owner (app-owner), writer (ContentCreator).
 * A = allowed, U = sign in (401), M = missing permission (403), S = missing scope (403).
 */
const EXPECTED: Record<AdminOperationName, string> = {
  "service-credentials.list": "U M M M M S M A A M",
  "service-credentials.create": "U M M M M S M A A M",
  "service-credentials.revoke": "U M M M M S M A A M",
  "repositories.manage": "U M M M M S M A A M",
  "diagnostics.read": "U M M M M S M A A M",
  "plans.manage": "U M M M M S M A A M",
  "settings.read": "U M M M M S M A A M",
  "settings.manage": "U M M M M S M S A M",
  "audit.read": "U M M M M S M A A M",
  "subscriptions.manage": "U M M M M S M A A M",
  "webhooks.manage": "U M M M M S M A A M",
  "operations.read": "U M M M M S M S A M",
  "database.check": "U M M M M S M S A M",
  "database.backup": "U M M M M S M S A M",
  "analytics.read": "U M M M M S M A A M",
  "content.admin": "U M M M M S S A A M",
  "users.unlock": "U M M M M A M A A M",
  "organisation.figures": "U M M M M A M A A M",
  "users.read": "U M M M M A M A A M",
  "users.manage": "U M M M M A M A A M",
  "users.groups": "U M M M M A M A A M",
  "users.delete": "U M M M M S M A A M",
  "security.read": "U M M M M S M S A M",
  "security.sessions.revoke": "U M M M M S M S A M",
  "security.lockouts.clear": "U M M M M S M S A M",
  "service-credentials.rotate": "U M M M M S M S A M",
};

const code = (d: ReturnType<typeof adminAccess>) =>
  d.kind === "allowed" ? "A" : d.reason === "auth" ? "U" : d.reason === "permission" ? "M" : "S";

describe("adminAccess: every admin operation × every persona", () => {
  it("the table covers every operation", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(ADMIN_OPERATIONS).sort());
  });
  for (const [operation, row] of Object.entries(EXPECTED)) {
    PERSONA_NAMES.forEach((persona, i) => {
      it(`${operation} for ${persona} → ${row.split(" ")[i]}`, () => {
        expect(code(adminAccess(operation as AdminOperationName, PERSONAS[persona]))).toBe(row.split(" ")[i]);
      });
    });
  }

  it("gives an organisation admin its own organisations, a platform admin every one", () => {
    expect(adminAccess("users.unlock", PERSONAS.business)).toEqual({
      kind: "allowed",
      scope: "organisation",
      orgs: ["acme"],
    });
    expect(adminAccess("users.unlock", PERSONAS.admin)).toMatchObject({ kind: "allowed", orgs: null });
  });

  it("explains a missing platform scope", () => {
    const d = adminAccess("service-credentials.create", PERSONAS.business);
    expect(d).toMatchObject({ kind: "denied", reason: "scope" });
    expect(d.kind === "denied" && d.message).toMatch(/platform administrator/);
  });

  it("refuses unknown operations and forged inputs (deny by default)", () => {
    expect(adminAccess("nope" as AdminOperationName, PERSONAS.owner).kind).toBe("denied");
    expect(adminAccess("toString" as AdminOperationName, PERSONAS.owner).kind).toBe("denied");
    expect(hasAdminScope(["app-admin"], "everything" as "platform")).toBe(false);
    expect(hasAdminScope("app-admin" as unknown as string[], "platform")).toBe(false);
    // "*" permissions alone do not give a scope: the groups decide.
    const star = { isAuthenticated: true, groups: [], permissions: ["*"] };
    expect(adminAccess("service-credentials.list", star).kind).toBe("denied");
  });
});

describe("hasAdminScope", () => {
  it.each([
    [[], false, false],
    [["org-acme"], false, false],
    [["org-acme", "org-acme-admin"], false, true],
    [["org--admin"], false, false],
    [["app-admin"], true, true],
    [["app-owner"], true, true],
    [["ContentManager"], false, false],
  ])("%j → platform %s, organisation %s", (groups, platform, organisation) => {
    expect(hasAdminScope(groups, "platform")).toBe(platform);
    expect(hasAdminScope(groups, "organisation")).toBe(organisation);
  });
});

describe("the route registry declares a scope on every admin screen", () => {
  it("every /admin and /super-admin route has one; super-admin screens are platform", () => {
    const admin = flattenRoutes().filter((r) => r.category === "admin" || r.category === "super-admin");
    expect(admin.length).toBeGreaterThan(0);
    for (const route of admin) expect(route.adminScope, route.path).toBeDefined();
    for (const route of admin.filter((r) => r.category === "super-admin")) {
      expect(route.adminScope, route.path).toBe("platform");
    }
    expect(
      admin
        .filter((r) => r.adminScope === "organisation")
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/admin", "/admin/users", "/admin/users/:userId"]);
  });
});
