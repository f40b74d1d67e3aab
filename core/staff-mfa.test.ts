import { describe, expect, it } from "vitest";
import { buildUserContext, toAccessContext } from "./claims.ts";
import {
  isStaffGroup,
  MFA_PENDING_ROLES_CLAIM,
  pendingStaffRoles,
  staffRolesOf,
  withholdStaffRights,
} from "./staff-mfa.ts";

describe("staff groups need a second factor", () => {
  it("every group that grants a role beyond User is a staff group; plan and member groups are not", () => {
    for (const g of [
      "app-owner",
      "app-admin",
      "org-acme-admin",
      "ContentManager",
      "Editor",
      "ContentCreator",
    ]) {
      expect(isStaffGroup(g), g).toBe(true);
    }
    for (const g of ["individual-free", "individual-pro", "individual-legend", "org-acme", "Business", "x"]) {
      expect(isStaffGroup(g), g).toBe(false);
    }
  });

  it("the staff roles of groups: routing roles first, then raw roles, never User", () => {
    expect(staffRolesOf(["app-owner"])).toEqual(["SuperUser", "AdminUser", "Admin", "SuperAdmin"]);
    expect(staffRolesOf(["individual-pro", "ContentManager"])).toEqual(["ContentManager"]);
    expect(staffRolesOf(["org-acme", "org-acme-admin", "Business"])).toEqual(["AdminUser", "Admin"]);
    expect(staffRolesOf(["individual-free"])).toEqual([]);
  });

  it("withheld claims build a plain user: no staff role, permission or org-admin standing, same tier", () => {
    const claims = {
      sub: "u1",
      "cognito:groups": ["org-acme", "org-acme-admin", "Business", "ContentManager"],
      "custom:tier": "business",
      "custom:orgRole": "admin",
    };
    const withheld = withholdStaffRights(claims);
    expect(withheld["cognito:groups"]).toEqual(["org-acme", "Business"]);
    expect(withheld["custom:orgRole"]).toBe("member");
    const context = buildUserContext(withheld);
    expect(context.roles).toEqual(["User"]);
    expect(context.permissions).toEqual([]);
    expect(context.authStatus).toBe("authenticated");
    expect(context.pricingTier).toBe("Enterprise");
    expect(context.mfaPendingRoles).toEqual(["AdminUser", "ContentManager", "Admin"]);
    expect(toAccessContext(context).roles).toEqual(["User"]);
    // The full claims still give the rights (the server decides which of the two applies).
    expect(buildUserContext(claims).roles).toContain("Admin");
    expect(buildUserContext(claims).mfaPendingRoles).toEqual([]);
  });

  it("claims without staff groups are returned as they are", () => {
    const claims = { sub: "u2", "cognito:groups": ["individual-pro"] };
    expect(withholdStaffRights(claims)).toBe(claims);
  });

  it("the pending-roles claim grants nothing and unknown words in it are dropped", () => {
    const context = buildUserContext({ sub: "u3", [MFA_PENDING_ROLES_CLAIM]: "SuperUser Hacker Admin" });
    expect(context.roles).toEqual(["User"]);
    expect(context.mfaPendingRoles).toEqual(["SuperUser", "Admin"]);
    expect(pendingStaffRoles({ [MFA_PENDING_ROLES_CLAIM]: 42 })).toEqual([]);
  });
});
