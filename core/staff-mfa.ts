/**
 * Staff rights need a second factor (docs/decisions/012-staff-mfa.md).
 *
 * A staff group is any group that grants a role beyond User: app-owner (SuperAdmin, Admin),
 * app-admin and `org-<slug>-admin` (Admin), ContentManager, Editor and ContentCreator. An account
 * holding one signs in normally, but until it has a verified authenticator app (TOTP) its claims
 * are projected WITHOUT its staff groups, so every check downstream (route guard, services, REST,
 * GraphQL, tokens issued meanwhile) sees a plain user. The withheld roles travel in one claim,
 * `custom:mfa_pending_roles`, only so that the UI can explain and lead to enrolment.
 */
import { parseGroups } from "./groups.ts";
import { rolesFromGroups, routingRoles } from "./roles.ts";

/** Claim naming the roles withheld until a second factor is enrolled (space-separated). */
export const MFA_PENDING_ROLES_CLAIM = "custom:mfa_pending_roles";

/** The query parameter of /settings that opens the enrolment with the staff explanation. */
export const ENROL_MFA_PATH = "/settings?enrol-mfa=1";

/** True when `group` grants a role beyond User (a staff group: it needs a second factor). */
export function isStaffGroup(group: string): boolean {
  return rolesFromGroups([group]).length > 1;
}

/** The staff groups among `groups`. */
export function staffGroupsOf(groups: readonly string[]): string[] {
  return groups.filter(isStaffGroup);
}

/**
 * The roles staff groups grant, as the access context lists them: routing roles (SuperUser,
 * AdminUser, ContentManager) first, then raw roles (Admin, SuperAdmin, Editor …), without User.
 */
export function staffRolesOf(groups: readonly string[]): string[] {
  const staff = staffGroupsOf(groups);
  if (staff.length === 0) return [];
  const raw = rolesFromGroups(staff).filter((r) => r !== "User");
  const out: string[] = [];
  for (const r of [...routingRoles(raw, staff), ...raw]) if (!out.includes(r)) out.push(r);
  return out;
}

/**
 * The claims of an account whose staff rights wait for a second factor: staff groups removed
 * from `cognito:groups`, an organisation admin shown as a member, and the withheld roles in
 * `custom:mfa_pending_roles`. Claims without staff groups come back unchanged.
 */
export function withholdStaffRights(claims: Record<string, unknown>): Record<string, unknown> {
  const groups = parseGroups(claims["cognito:groups"]);
  const pending = staffRolesOf(groups);
  if (pending.length === 0) return claims;
  const out: Record<string, unknown> = {
    ...claims,
    "cognito:groups": groups.filter((g) => !isStaffGroup(g)),
    [MFA_PENDING_ROLES_CLAIM]: pending.join(" "),
  };
  for (const key of ["custom:orgRole", "custom:org_role"]) {
    if (out[key] === "admin") out[key] = "member";
  }
  return out;
}

/** The withheld roles named by the claim (unknown words dropped; empty when none). */
export function pendingStaffRoles(claims: Record<string, unknown>): string[] {
  const value = claims[MFA_PENDING_ROLES_CLAIM];
  if (typeof value !== "string") return [];
  const known = new Set(
    staffRolesOf(["app-owner", "app-admin", "ContentManager", "Editor", "ContentCreator"]),
  );
  const out: string[] = [];
  for (const r of value.split(/\s+/)) if (known.has(r) && !out.includes(r)) out.push(r);
  return out;
}
