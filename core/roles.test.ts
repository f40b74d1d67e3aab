import { describe, expect, it } from "vitest";
import {
  hasAnyPermission,
  hasAnyRole,
  hasPermission,
  isContentManagerOrAbove,
  isRole,
  PERMISSIONS_BY_ROLE,
  permissionsFromRoles,
  ROLES,
  type RoutingRole,
  rolesFromGroups,
  routingRoles,
} from "./roles.ts";

describe("rolesFromGroups", () => {
  const cases: Array<[string[], string[]]> = [
    [[], ["User"]],
    [["individual-pro"], ["User"]],
    [["app-owner"], ["User", "Admin", "SuperAdmin"]],
    [["app-admin"], ["User", "Admin"]],
    [["org-acme-admin"], ["User", "Admin"]],
    [["org-acme"], ["User"]],
    [
      ["org-acme", "org-acme-admin", "Business"],
      ["User", "Admin"],
    ],
    [["ContentCreator"], ["User", "ContentCreator"]],
    [["Editor"], ["User", "Editor"]],
    [["ContentManager"], ["User", "ContentManager"]],
    [
      ["ContentManager", "app-admin"],
      ["User", "Admin", "ContentManager"],
    ],
    [
      ["app-owner", "app-admin"],
      ["User", "Admin", "SuperAdmin"],
    ],
    [
      ["Editor", "ContentCreator", "app-owner", "ContentManager"],
      ["User", "Admin", "SuperAdmin", "ContentCreator", "Editor", "ContentManager"],
    ],
    // Group names are exact.
    [["contentmanager", "APP-OWNER", "editor", "Admin", "SuperAdmin"], ["User"]],
  ];
  it.each(cases)("%j → %j", (groups, roles) => {
    expect(rolesFromGroups(groups)).toEqual(roles);
  });

  it("isRole accepts exactly the six role names", () => {
    expect(ROLES).toEqual(["User", "Admin", "SuperAdmin", "ContentCreator", "Editor", "ContentManager"]);
    expect(isRole("Editor")).toBe(true);
    expect(isRole("SuperUser")).toBe(false);
    expect(isRole("editor")).toBe(false);
  });
});

describe("permissions", () => {
  it("grants per role as documented", () => {
    expect(PERMISSIONS_BY_ROLE).toEqual({
      User: [],
      Admin: ["admin:read", "admin:write", "content:manage", "user:manage"],
      SuperAdmin: ["*"],
      ContentCreator: ["content:create", "content:edit"],
      Editor: ["content:create", "content:edit", "content:publish"],
      ContentManager: ["content:manage", "content:create", "content:edit", "content:publish"],
    });
  });

  it.each([
    [["User"], []],
    [
      ["User", "Admin"],
      ["admin:read", "admin:write", "content:manage", "user:manage"],
    ],
    [
      ["User", "Admin", "SuperAdmin"],
      ["*", "admin:read", "admin:write", "content:manage", "user:manage"],
    ],
    [["SuperAdmin"], ["*"]],
    [["ContentCreator"], ["content:create", "content:edit"]],
    [["Editor"], ["content:create", "content:edit", "content:publish"]],
    [
      ["ContentCreator", "Editor"],
      ["content:create", "content:edit", "content:publish"],
    ],
    [["ContentManager"], ["content:manage", "content:create", "content:edit", "content:publish"]],
    [
      ["Admin", "ContentManager"],
      [
        "admin:read",
        "admin:write",
        "content:manage",
        "user:manage",
        "content:create",
        "content:edit",
        "content:publish",
      ],
    ],
    [["AdminUser", "SuperUser", "Owner"], []],
  ] as Array<[string[], string[]]>)("permissionsFromRoles(%j) → %j", (roles, perms) => {
    expect(permissionsFromRoles(roles)).toEqual(perms);
  });

  it("hasPermission matches exactly or through '*'", () => {
    expect(hasPermission(["content:edit"], "content:edit")).toBe(true);
    expect(hasPermission(["content:edit"], "content:publish")).toBe(false);
    expect(hasPermission(["content:edit"], "content")).toBe(false);
    expect(hasPermission(["content:*"], "content:edit")).toBe(false);
    expect(hasPermission(["*"], "user:manage")).toBe(true);
    expect(hasPermission(["*"], "anything:at-all")).toBe(true);
    expect(hasPermission([], "content:edit")).toBe(false);
  });

  it("hasAnyPermission / hasAnyRole need at least one match and never pass an empty list", () => {
    expect(hasAnyPermission(["content:edit"], ["user:manage", "content:edit"])).toBe(true);
    expect(hasAnyPermission(["content:edit"], ["user:manage"])).toBe(false);
    expect(hasAnyPermission(["*"], [])).toBe(false);
    expect(hasAnyRole(["User", "Editor"], ["Admin", "Editor"])).toBe(true);
    expect(hasAnyRole(["User"], ["Admin"])).toBe(false);
    expect(hasAnyRole(["User"], [])).toBe(false);
  });
});

describe("routingRoles", () => {
  const cases: Array<[string[], string[], RoutingRole[]]> = [
    [["User"], [], []],
    [["User", "Admin", "SuperAdmin"], ["app-owner"], ["SuperUser", "AdminUser"]],
    [["User", "Admin"], ["app-admin"], ["AdminUser"]],
    [["User", "ContentManager"], ["ContentManager"], ["ContentManager"]],
    // The group alone is enough, and so is the role alone.
    [["User"], ["ContentManager"], ["ContentManager"]],
    [["User", "ContentManager"], [], ["ContentManager"]],
    [["User", "Editor", "ContentCreator"], ["Editor", "ContentCreator"], []],
    [["User", "Admin", "SuperAdmin", "ContentManager"], [], ["SuperUser", "AdminUser", "ContentManager"]],
    [["SuperAdmin"], [], ["SuperUser"]],
  ];
  it.each(cases)("roles %j, groups %j → %j", (roles, groups, out) => {
    expect(routingRoles(roles, groups)).toEqual(out);
  });

  it("isContentManagerOrAbove recognises the three management routing roles", () => {
    expect(isContentManagerOrAbove(["ContentManager"])).toBe(true);
    expect(isContentManagerOrAbove(["AdminUser"])).toBe(true);
    expect(isContentManagerOrAbove(["SuperUser"])).toBe(true);
    expect(isContentManagerOrAbove(["User", "Admin", "Editor"])).toBe(false);
  });
});
