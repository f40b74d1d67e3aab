/**
 * "Preview as": the readers a content writer may view an item as (the public page's
 * `?previewAs=` parameter and the studio's preview panel). Pure: the server builds the reader from
 * the audience (server/modules/content/preview-as.ts), the UI lists and names them.
 *
 * Spellings on the wire: "visitor", a plan ("Free", "Basic", "Pro", "Enterprise") or
 * "role:<Role>" (a signed-in holder of that role on the Free plan, so the role alone decides).
 */
import { isRole, ROLES, type Role } from "./roles.ts";
import { isTier, TIERS, type Tier } from "./tiers.ts";

export type PreviewAudience =
  | { kind: "visitor" }
  | { kind: "tier"; tier: Tier }
  | { kind: "role"; role: Role };

/** The query parameter on the public content page. */
export const PREVIEW_AS_PARAM = "previewAs";

const ROLE_PREFIX = "role:";

/** Reads a `previewAs` value; null when it is absent or names no reader. */
export function parsePreviewAudience(value: string | null | undefined): PreviewAudience | null {
  const v = (value ?? "").trim();
  if (v === "visitor") return { kind: "visitor" };
  if (isTier(v)) return { kind: "tier", tier: v };
  if (v.startsWith(ROLE_PREFIX)) {
    const role = v.slice(ROLE_PREFIX.length);
    if (isRole(role)) return { kind: "role", role };
  }
  return null;
}

/** The wire spelling of an audience (the inverse of `parsePreviewAudience`). */
export function previewAudienceValue(audience: PreviewAudience): string {
  switch (audience.kind) {
    case "visitor":
      return "visitor";
    case "tier":
      return audience.tier;
    case "role":
      return `${ROLE_PREFIX}${audience.role}`;
  }
}

const ROLE_NOUN: Readonly<Record<Role, string>> = Object.freeze({
  User: "a signed-in user",
  Admin: "an admin",
  SuperAdmin: "a super admin",
  ContentCreator: "a content creator",
  Editor: "an editor",
  ContentManager: "a content manager",
});

/** Who the audience is, as the banner says it: "a visitor", "a Pro reader", "an editor (Free plan)". */
export function previewAudienceLabel(audience: PreviewAudience): string {
  switch (audience.kind) {
    case "visitor":
      return "a visitor (not signed in)";
    case "tier":
      return audience.tier === "Enterprise" ? "an Enterprise reader" : `a ${audience.tier} reader`;
    case "role":
      return `${ROLE_NOUN[audience.role]} (Free plan)`;
  }
}

/** Every audience, in the order the pickers offer them: visitor, the plans, then the roles. */
export const PREVIEW_AUDIENCES: readonly PreviewAudience[] = Object.freeze([
  { kind: "visitor" },
  ...TIERS.map((tier) => ({ kind: "tier", tier }) as const),
  ...ROLES.filter((r) => r !== "User").map((role) => ({ kind: "role", role }) as const),
]);

/** A short name for a picker option: "Visitor", "Pro", "Role: Editor". */
export function previewAudienceOption(audience: PreviewAudience): string {
  switch (audience.kind) {
    case "visitor":
      return "Visitor (not signed in)";
    case "tier":
      return `${audience.tier} reader`;
    case "role":
      return `Role: ${audience.role}`;
  }
}
