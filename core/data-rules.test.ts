import { describe, expect, it } from "vitest";
import { buildUserContext, toAccessContext, VISITOR_ACCESS_CONTEXT } from "./claims.ts";
import {
  canManageContentCatalog,
  canPublishContent,
  canSeeUnpublishedContent,
  canWriteContent,
} from "./data-rules.ts";
import { PERSONAS } from "./test-personas.ts";

const withGroups = (groups: string[]) =>
  toAccessContext(buildUserContext({ sub: `u-${groups.join("-")}`, "cognito:groups": groups }));

describe("content data rules", () => {
  it.each([
    // persona, write, publish, see drafts, manage categories/items
    ["visitor", false, false, false, false],
    ["free", false, false, false, false],
    ["pro", false, false, false, false],
    ["enterprise", false, false, false, false],
    ["business", false, false, false, false], // org admin: Admin only for its tenant
    ["manager", true, true, true, false],
    ["admin", true, false, true, true], // Admin has content:manage, not content:publish
    ["owner", true, true, true, true],
  ] as const)("%s: write %s, publish %s, drafts %s, catalog %s", (name, write, publish, drafts, catalog) => {
    const ctx = PERSONAS[name];
    expect(canWriteContent(ctx)).toBe(write);
    expect(canPublishContent(ctx)).toBe(publish);
    expect(canSeeUnpublishedContent(ctx)).toBe(drafts);
    expect(canManageContentCatalog(ctx)).toBe(catalog);
  });

  it("ContentCreator writes but does not publish; Editor publishes", () => {
    expect(canWriteContent(withGroups(["ContentCreator"]))).toBe(true);
    expect(canPublishContent(withGroups(["ContentCreator"]))).toBe(false);
    expect(canPublishContent(withGroups(["Editor"]))).toBe(true);
    expect(canManageContentCatalog(withGroups(["Editor"]))).toBe(false);
  });

  it("a context with content roles but no permissions or groups (service credential) writes nothing", () => {
    const svc = {
      ...VISITOR_ACCESS_CONTEXT,
      isAuthenticated: true,
      roles: ["User", "ContentCreator", "Editor", "ContentManager"],
      permissions: [],
      groups: [],
    };
    expect(canWriteContent(svc)).toBe(false);
    expect(canPublishContent(svc)).toBe(false);
    expect(canManageContentCatalog(svc)).toBe(false);
  });

  it("unauthenticated contexts never pass, whatever they claim", () => {
    const forged = { ...VISITOR_ACCESS_CONTEXT, permissions: ["*"], groups: ["app-owner"] };
    expect(canWriteContent(forged)).toBe(false);
    expect(canManageContentCatalog(forged)).toBe(false);
  });
});
