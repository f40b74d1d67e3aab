import { describe, expect, it } from "vitest";
import { canAccessStoragePath, type StorageAction, type StorageActor } from "./storage-access.ts";

const persona = (groups: string[], userId: string | null, tier: StorageActor["tier"], tenantId?: string) => ({
  groups,
  userId,
  tier,
  tenantId: tenantId ?? null,
});

const P = {
  visitor: persona([], null, null),
  free: persona(["individual-free"], "u-free", "Free"),
  basic: persona(["individual-basic"], "u-basic", "Basic"),
  pro: persona(["individual-pro"], "u-pro", "Pro"),
  enterprise: persona(["individual-legend"], "u-ent", "Enterprise"),
  member: persona(["org-acme"], "u-member", "Enterprise", "acme"),
  orgAdmin: persona(["org-acme-admin"], "u-orgadmin", "Enterprise"),
  other: persona(["org-globex"], "u-other", "Enterprise", "globex"),
  admin: persona(["app-admin"], "u-admin", "Free"),
  owner: persona(["app-owner"], "u-owner", "Free"),
} satisfies Record<string, StorageActor>;
type Persona = keyof typeof P;
const PERSONAS = Object.keys(P) as Persona[];
const ACTIONS: StorageAction[] = ["read", "write", "delete"];

/** [key, who may read, who may write, who may delete]; admin and owner are implied everywhere. */
const TABLE: Array<[string, Persona[], Persona[], Persona[]]> = [
  [
    "media/logo.png",
    ["visitor", "free", "basic", "pro", "enterprise", "member", "orgAdmin", "other"],
    ["free", "basic", "pro", "enterprise", "member", "orgAdmin", "other"],
    [],
  ],
  ["private/u-free/notes.md", ["free"], ["free"], ["free"]],
  ["private/u-pro/a/b.txt", ["pro"], ["pro"], ["pro"]],
  ["individual/u-basic/avatar.png", ["basic"], ["basic"], ["basic"]],
  ["individual/u-visitor/x.txt", [], [], []],
  ["content/free/intro.md", ["free", "basic", "pro", "enterprise", "member", "orgAdmin", "other"], [], []],
  ["content/basic/lesson.md", ["basic", "pro", "enterprise", "member", "orgAdmin", "other"], [], []],
  ["content/pro/deep.md", ["pro", "enterprise", "member", "orgAdmin", "other"], [], []],
  ["content/enterprise/secret.md", [], [], []],
  ["content/platinum/x.md", [], [], []],
  ["tenant/acme/shared/handbook.pdf", ["member", "orgAdmin"], ["orgAdmin"], ["orgAdmin"]],
  ["tenant/acme/uploads/file.csv", ["member", "orgAdmin"], ["member", "orgAdmin"], ["orgAdmin"]],
  ["tenant/globex/shared/x.txt", ["other"], [], []],
  ["tenant/acme/other/x.txt", [], [], []],
  ["system/health-check.txt", [], [], []],
  ["avatars/u-free.png", [], [], []],
];

describe("canAccessStoragePath (spec §6 storage access by path)", () => {
  for (const [key, read, write, del] of TABLE) {
    const allowed: Record<StorageAction, Persona[]> = { read, write, delete: del };
    for (const who of PERSONAS) {
      for (const action of ACTIONS) {
        const expected = who === "admin" || who === "owner" || allowed[action].includes(who);
        it(`${who} ${action} ${key} → ${expected}`, () => {
          expect(canAccessStoragePath(P[who], key, action)).toBe(expected);
        });
      }
    }
  }

  it("denies invalid keys to everyone, admins included", () => {
    for (const key of [
      "",
      "../etc/passwd",
      "media/../private/u-free/x",
      "/media/x",
      "media\\x",
      "media//x",
      "media/%2e%2e/x",
    ]) {
      for (const who of PERSONAS) {
        for (const action of ACTIONS) expect(canAccessStoragePath(P[who], key, action)).toBe(false);
      }
    }
  });

  it("denies bare folders and prefix look-alikes", () => {
    expect(canAccessStoragePath(P.visitor, "media", "read")).toBe(false);
    expect(canAccessStoragePath(P.free, "private/u-free", "read")).toBe(false);
    expect(canAccessStoragePath(P.free, "private/u-free-2/x.txt", "read")).toBe(false);
    expect(canAccessStoragePath(P.free, "content/free", "read")).toBe(false);
    expect(canAccessStoragePath(P.member, "tenant/acme/shared", "read")).toBe(false);
    expect(canAccessStoragePath(P.visitor, "mediafoo/x.png", "read")).toBe(false);
    expect(canAccessStoragePath(P.pro, "content/constructor/x.md", "read")).toBe(false);
  });

  it("treats a signed-in user without a tier as Free, a visitor as nothing", () => {
    const noTier = persona([], "u-x", null);
    expect(canAccessStoragePath(noTier, "content/free/a.md", "read")).toBe(true);
    expect(canAccessStoragePath(noTier, "content/basic/a.md", "read")).toBe(false);
    expect(canAccessStoragePath(P.visitor, "content/free/a.md", "read")).toBe(false);
    expect(canAccessStoragePath({ ...P.visitor, tier: "Enterprise" }, "content/pro/a.md", "read")).toBe(
      false,
    );
  });

  it("does not let a visitor claim a tenant", () => {
    expect(canAccessStoragePath(persona([], null, null, "acme"), "tenant/acme/shared/x.txt", "read")).toBe(
      false,
    );
    expect(
      canAccessStoragePath(persona(["org-acme"], null, null), "tenant/acme/uploads/x.txt", "write"),
    ).toBe(false);
  });

  it("refuses unknown actions", () => {
    expect(canAccessStoragePath(P.admin, "media/x.png", "list" as StorageAction)).toBe(false);
  });
});
