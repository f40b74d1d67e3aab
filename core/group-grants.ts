/**
 * Who may grant or remove which group (spec §6, issue 14 /admin/users): one pure rule used by the
 * users admin service (the server enforces it) and by the user page (which only explains it).
 *
 * - app-owner and app-admin: only the platform owner (app-owner) grants or removes them;
 * - individual-* tiers, ContentManager / ContentCreator / Editor, Business and any organisation
 *   group: platform administrators (app-admin, app-owner);
 * - an organisation administrator (`org-<slug>-admin`) changes only `org-<slug>` and
 *   `org-<slug>-admin` of its own organisations, and only for members of those organisations
 *   (the service makes every other user invisible to it);
 * - nobody removes their own last administrator group (an admin cannot lock themselves out), and
 *   the last app-owner of the installation keeps app-owner.
 * Deny by default: an unknown group name is refused.
 */
import {
  APP_ADMIN_GROUP,
  APP_OWNER_GROUP,
  adminScopeOrgs,
  BUSINESS_GROUP,
  CONTENT_CREATOR_GROUP,
  CONTENT_MANAGER_GROUP,
  EDITOR_GROUP,
  GROUP_PRECEDENCE,
  isOrgAdminGroup,
  isOrgGroup,
  isPlatformAdmin,
  orgSlugFromGroup,
} from "./groups.ts";

export const PLATFORM_ADMIN_GROUPS = [APP_OWNER_GROUP, APP_ADMIN_GROUP] as const;
export const STAFF_GROUPS = [CONTENT_MANAGER_GROUP, CONTENT_CREATOR_GROUP, EDITOR_GROUP] as const;

export type GroupChange = "add" | "remove";

export interface GrantSubject {
  userId: string;
  groups: readonly string[];
}

export interface GrantContext {
  /** How many users hold app-owner now (the last one keeps it). */
  ownerCount: number;
}

export type GrantDecision = { ok: true } | { ok: false; message: string };

const refuse = (message: string): GrantDecision => ({ ok: false, message });

/** Groups this rule knows: tiers, platform admin, staff, Business and organisation groups. */
export function isKnownGroup(group: string): boolean {
  if (typeof group !== "string" || group.length === 0 || group.length > 120) return false;
  return (
    Object.hasOwn(GROUP_PRECEDENCE, group) ||
    (STAFF_GROUPS as readonly string[]).includes(group) ||
    group === BUSINESS_GROUP ||
    isOrgGroup(group)
  );
}

/** The groups that make a holder an administrator (platform or organisation). */
export function isAdminGroup(group: string): boolean {
  return (PLATFORM_ADMIN_GROUPS as readonly string[]).includes(group) || isOrgAdminGroup(group);
}

/**
 * May `actor` add `group` to / remove it from `target`? `context.ownerCount` is the number of
 * app-owners right now. See the file comment for the rules.
 */
export function canChangeGroup(
  actor: GrantSubject,
  target: GrantSubject,
  group: string,
  change: GroupChange,
  context: GrantContext,
): GrantDecision {
  if (!isKnownGroup(group)) return refuse(`"${String(group)}" is not a group that can be granted.`);
  if (change === "add" && target.groups.includes(group)) return refuse(`The user already has ${group}.`);
  if (change === "remove" && !target.groups.includes(group))
    return refuse(`The user does not have ${group}.`);

  const self = actor.userId === target.userId;
  if (change === "remove" && self && isAdminGroup(group)) {
    const left = actor.groups.filter((g) => g !== group && isAdminGroup(g));
    if (left.length === 0) {
      return refuse("You cannot remove your own last administrator group: ask another administrator.");
    }
  }
  if (change === "remove" && group === APP_OWNER_GROUP && context.ownerCount <= 1) {
    return refuse("The installation's last owner keeps app-owner: make someone else owner first.");
  }

  if ((PLATFORM_ADMIN_GROUPS as readonly string[]).includes(group)) {
    return actor.groups.includes(APP_OWNER_GROUP)
      ? { ok: true }
      : refuse(`Only the platform owner (app-owner) may grant or remove ${group}.`);
  }
  if (isPlatformAdmin(actor.groups)) return { ok: true };

  const orgs = adminScopeOrgs(actor.groups) ?? [];
  const slug = orgSlugFromGroup(group);
  if (slug !== null && orgs.includes(slug)) {
    const member = target.groups.some((g) => orgs.includes(orgSlugFromGroup(g) ?? ""));
    return member
      ? { ok: true }
      : refuse("Organisation administrators change groups only for their own organisation's members.");
  }
  return refuse(
    orgs.length > 0
      ? `Organisation administrators may change only their own organisation's groups, not ${group}.`
      : `Only a platform administrator may grant or remove ${group}.`,
  );
}

/**
 * May `actor` act on `target`'s account at all (sessions, MFA, API keys, suspend, delete)? The
 * accounts of platform administrators are managed by the owner only; nobody suspends or deletes
 * themselves (`selfAllowed` false).
 */
export function canManageAccount(
  actor: GrantSubject,
  target: GrantSubject,
  selfAllowed: boolean,
): GrantDecision {
  if (actor.userId === target.userId && !selfAllowed) {
    return refuse("You cannot do this to your own account.");
  }
  if (
    isPlatformAdmin(target.groups) &&
    actor.userId !== target.userId &&
    !actor.groups.includes(APP_OWNER_GROUP)
  ) {
    return refuse("Only the platform owner (app-owner) manages a platform administrator's account.");
  }
  return { ok: true };
}
