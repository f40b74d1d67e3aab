import { describe, expect, it } from "vitest";
import { canChangeGroup, canManageAccount, isKnownGroup } from "./group-grants.ts";

const owner = { userId: "owner", groups: ["app-owner"] };
const admin = { userId: "admin", groups: ["app-admin"] };
const orgAdmin = { userId: "biz", groups: ["org-acme", "org-acme-admin"] };
const reader = { userId: "reader", groups: ["individual-free"] };
const acmeMember = { userId: "member", groups: ["org-acme"] };
const one = { ownerCount: 1 };
const two = { ownerCount: 2 };

describe("canChangeGroup", () => {
  it("lets only the owner grant or remove app-owner and app-admin", () => {
    expect(canChangeGroup(owner, reader, "app-admin", "add", one).ok).toBe(true);
    expect(canChangeGroup(owner, reader, "app-owner", "add", one).ok).toBe(true);
    expect(canChangeGroup(admin, reader, "app-admin", "add", one).ok).toBe(false);
    expect(canChangeGroup(admin, reader, "app-owner", "add", one).ok).toBe(false);
    expect(canChangeGroup(admin, { userId: "x", groups: ["app-admin"] }, "app-admin", "remove", one).ok).toBe(
      false,
    );
    expect(canChangeGroup(owner, { userId: "x", groups: ["app-admin"] }, "app-admin", "remove", one).ok).toBe(
      true,
    );
    expect(canChangeGroup(orgAdmin, acmeMember, "app-admin", "add", one).ok).toBe(false);
  });

  it("lets platform admins grant tiers, staff roles, Business and organisation groups", () => {
    for (const group of [
      "individual-pro",
      "ContentManager",
      "ContentCreator",
      "Editor",
      "Business",
      "org-acme",
      "org-globex-admin",
    ]) {
      expect(canChangeGroup(admin, reader, group, "add", one)).toEqual({ ok: true });
    }
    expect(canChangeGroup(admin, reader, "individual-free", "remove", one).ok).toBe(true);
  });

  it("keeps organisation admins to their own organisation's groups and members", () => {
    expect(canChangeGroup(orgAdmin, acmeMember, "org-acme-admin", "add", one).ok).toBe(true);
    expect(canChangeGroup(orgAdmin, acmeMember, "org-acme", "remove", one).ok).toBe(true);
    expect(canChangeGroup(orgAdmin, acmeMember, "org-globex", "add", one).ok).toBe(false);
    expect(canChangeGroup(orgAdmin, acmeMember, "individual-pro", "add", one).ok).toBe(false);
    expect(canChangeGroup(orgAdmin, acmeMember, "ContentManager", "add", one).ok).toBe(false);
    expect(canChangeGroup(orgAdmin, reader, "org-acme", "add", one).ok).toBe(false);
    expect(canChangeGroup(reader, reader, "individual-pro", "add", one).ok).toBe(false);
  });

  it("refuses removing one's own last admin group and the last owner", () => {
    expect(canChangeGroup(admin, admin, "app-admin", "remove", one).ok).toBe(false);
    expect(canChangeGroup(orgAdmin, orgAdmin, "org-acme-admin", "remove", one).ok).toBe(false);
    const both = { userId: "o2", groups: ["app-owner", "app-admin"] };
    expect(canChangeGroup(both, both, "app-admin", "remove", two).ok).toBe(true);
    expect(canChangeGroup(both, both, "app-owner", "remove", one).ok).toBe(false);
    expect(canChangeGroup(both, both, "app-owner", "remove", two).ok).toBe(true);
    expect(
      canChangeGroup(owner, { userId: "o3", groups: ["app-owner"] }, "app-owner", "remove", one).ok,
    ).toBe(false);
    expect(
      canChangeGroup(owner, { userId: "o3", groups: ["app-owner"] }, "app-owner", "remove", two).ok,
    ).toBe(true);
  });

  it("refuses unknown groups and no-op changes", () => {
    expect(isKnownGroup("hackers")).toBe(false);
    expect(canChangeGroup(owner, reader, "hackers", "add", one).ok).toBe(false);
    expect(canChangeGroup(owner, reader, "individual-free", "add", one).ok).toBe(false);
    expect(canChangeGroup(owner, reader, "individual-pro", "remove", one).ok).toBe(false);
  });
});

describe("canManageAccount", () => {
  it("keeps platform admins' accounts to the owner and refuses self where asked", () => {
    expect(canManageAccount(admin, reader, false).ok).toBe(true);
    expect(canManageAccount(admin, owner, false).ok).toBe(false);
    expect(canManageAccount(admin, { userId: "a2", groups: ["app-admin"] }, false).ok).toBe(false);
    expect(canManageAccount(owner, admin, false).ok).toBe(true);
    expect(canManageAccount(admin, admin, false).ok).toBe(false);
    expect(canManageAccount(admin, admin, true).ok).toBe(true);
    expect(canManageAccount(orgAdmin, acmeMember, false).ok).toBe(true);
  });
});
