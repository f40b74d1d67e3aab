import { describe, expect, it } from "vitest";
import {
  adminScopeOrgs,
  BUSINESS_GROUP,
  CONTENT_MANAGER_GROUP,
  GROUP_PRECEDENCE,
  isOrgAdminGroup,
  isOrgGroup,
  isPlatformAdmin,
  orgSlugFromGroup,
  orgSlugsFromGroups,
  parseGroups,
  sortGroupsByPrecedence,
  tierFromGroups,
} from "./groups.ts";
import type { AuthTier } from "./tiers.ts";

describe("GROUP_PRECEDENCE", () => {
  it("matches spec §6", () => {
    expect(GROUP_PRECEDENCE).toEqual({
      "individual-free": 0,
      "individual-basic": 1,
      "individual-pro": 2,
      "individual-legend": 3,
      "app-owner": 4,
      "app-admin": 5,
    });
    expect(Object.isFrozen(GROUP_PRECEDENCE)).toBe(true);
  });

  it("names the special groups", () => {
    expect(CONTENT_MANAGER_GROUP).toBe("ContentManager");
    expect(BUSINESS_GROUP).toBe("Business");
  });
});

describe("organisation groups", () => {
  it.each([
    ["org-acme", true, false, "acme"],
    ["org-acme-admin", true, true, "acme"],
    ["org-big-co", true, false, "big-co"],
    ["org-big-co-admin", true, true, "big-co"],
    ["org-admin", true, false, "admin"],
    ["org-x-admin", true, true, "x"],
    ["org-", false, false, null],
    ["org--admin", true, false, "-admin"],
    ["Org-acme", false, false, null],
    ["organisation", false, false, null],
    ["individual-pro", false, false, null],
    ["app-admin", false, false, null],
    ["org-acme-admins", true, false, "acme-admins"],
    ["my-org-acme-admin", false, false, null],
  ] as Array<[string, boolean, boolean, string | null]>)(
    "%s: org %s, org admin %s, slug %j",
    (g, org, admin, slug) => {
      expect(isOrgGroup(g)).toBe(org);
      expect(isOrgAdminGroup(g)).toBe(admin);
      expect(orgSlugFromGroup(g)).toBe(slug);
    },
  );

  it("collects distinct slugs", () => {
    expect(orgSlugsFromGroups(["org-acme", "Business", "org-acme-admin", "org-zeta"])).toEqual([
      "acme",
      "zeta",
    ]);
    expect(orgSlugsFromGroups(["individual-pro"])).toEqual([]);
  });
});

describe("sortGroupsByPrecedence", () => {
  it("orders known groups by precedence value, unknown ones after in original order", () => {
    const input = ["Business", "app-admin", "org-acme", "individual-pro", "app-owner", "individual-free"];
    expect(sortGroupsByPrecedence(input)).toEqual([
      "individual-free",
      "individual-pro",
      "app-owner",
      "app-admin",
      "Business",
      "org-acme",
    ]);
    // Input untouched.
    expect(input[0]).toBe("Business");
  });

  it("does not treat inherited object keys as known groups", () => {
    expect(sortGroupsByPrecedence(["toString", "individual-legend"])).toEqual([
      "individual-legend",
      "toString",
    ]);
  });

  it("handles empty input", () => {
    expect(sortGroupsByPrecedence([])).toEqual([]);
  });
});

describe("parseGroups", () => {
  it.each([
    [
      ["a", "b"],
      ["a", "b"],
    ],
    [
      ["a", " b ", "", "a"],
      ["a", "b"],
    ],
    ["a b", ["a", "b"]],
    ["a,b", ["a", "b"]],
    ["a, b  ,c", ["a", "b", "c"]],
    ["  ", []],
    ["", []],
    [undefined, []],
    [null, []],
    [42, []],
    [
      ["a", 3, null, "b"],
      ["a", "b"],
    ],
  ] as Array<[unknown, string[]]>)("parseGroups(%j) → %j", (input, out) => {
    expect(parseGroups(input)).toEqual(out);
  });
});

describe("tierFromGroups (spec §6, highest wins)", () => {
  const cases: Array<[string[], AuthTier]> = [
    [[], "Visitor"],
    [["individual-free"], "Free"],
    [["individual-basic"], "Basic"],
    [["individual-pro"], "Pro"],
    [["individual-legend"], "Enterprise"],
    [["org-acme"], "Enterprise"],
    [["org-acme-admin"], "Enterprise"],
    [["individual-free", "individual-pro"], "Pro"],
    [["individual-pro", "individual-basic"], "Pro"],
    [["individual-basic", "org-acme"], "Enterprise"],
    [["individual-free", "individual-basic"], "Basic"],
    // Name segments, case-insensitive.
    [["pro"], "Pro"],
    [["Pro"], "Pro"],
    [["team_pro"], "Pro"],
    [["Basic"], "Basic"],
    [["FREE"], "Free"],
    [["free-pro"], "Pro"],
    // Groups that merely contain the letters grant nothing.
    [["approvers"], "Visitor"],
    [["products"], "Visitor"],
    [["freelancers"], "Visitor"],
    [["basics-course"], "Visitor"],
    // Staff and special groups carry no plan.
    [["app-owner"], "Visitor"],
    [["app-admin"], "Visitor"],
    [["ContentManager"], "Visitor"],
    [["Business"], "Visitor"],
    [["individual-legendary"], "Visitor"],
    [["org-"], "Visitor"],
  ];
  it.each(cases)("%j → %s", (groups, tier) => {
    expect(tierFromGroups(groups)).toBe(tier);
  });
});

describe("admin scope", () => {
  it("platform admins manage every organisation", () => {
    expect(adminScopeOrgs(["app-admin"])).toBeNull();
    expect(adminScopeOrgs(["app-owner", "org-acme-admin"])).toBeNull();
    expect(isPlatformAdmin(["org-acme-admin"])).toBe(false);
  });
  it("organisation admins manage only their own organisations", () => {
    expect(adminScopeOrgs(["org-acme", "org-acme-admin", "Business"])).toEqual(["acme"]);
    expect(adminScopeOrgs(["org-acme", "org-beta-admin", "org-gamma-admin"])).toEqual(["beta", "gamma"]);
    expect(adminScopeOrgs(["individual-pro", "ContentManager"])).toEqual([]);
  });
});
