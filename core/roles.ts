/**
 * Roles, permissions and the derived routing roles (spec §6 "Roles and permissions").
 *
 * Staff roles and plan tiers are separate axes: no role raises a tier and no tier grants a role.
 */
import {
  APP_ADMIN_GROUP,
  APP_OWNER_GROUP,
  CONTENT_CREATOR_GROUP,
  CONTENT_MANAGER_GROUP,
  EDITOR_GROUP,
  isOrgAdminGroup,
} from "./groups.ts";

export const ROLES = ["User", "Admin", "SuperAdmin", "ContentCreator", "Editor", "ContentManager"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "admin:read",
  "admin:write",
  "content:manage",
  "user:manage",
  "content:create",
  "content:edit",
  "content:publish",
] as const;
export type Permission = (typeof PERMISSIONS)[number];
/** Matches every permission. */
export const ALL_PERMISSIONS = "*";

/**
 * Permissions granted by each role.
 * - SuperAdmin: "*" (everything).
 * - Admin: admin:read, admin:write, content:manage, user:manage (spec).
 * - ContentCreator: content:create, content:edit (spec).
 * - Editor: content:create, content:edit, content:publish (spec).
 * - ContentManager: content:manage, content:create, content:edit, content:publish. The spec gives the
 *   ContentManager group the management routes (/content, /create, /moderate) but lists no
 *   permissions for it; we give it everything an Editor has plus content:manage, the permission the
 *   management screens need, and none of the admin:* or user:manage permissions.
 * - User: nothing beyond being signed in.
 */
export const PERMISSIONS_BY_ROLE: Readonly<Record<Role, readonly string[]>> = Object.freeze({
  User: Object.freeze([]),
  Admin: Object.freeze(["admin:read", "admin:write", "content:manage", "user:manage"]),
  SuperAdmin: Object.freeze([ALL_PERMISSIONS]),
  ContentCreator: Object.freeze(["content:create", "content:edit"]),
  Editor: Object.freeze(["content:create", "content:edit", "content:publish"]),
  ContentManager: Object.freeze(["content:manage", "content:create", "content:edit", "content:publish"]),
});

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/**
 * Roles from groups (spec §6): everyone has User; app-owner adds Admin and SuperAdmin; app-admin or
 * any org-<slug>-admin group adds Admin; the groups "ContentCreator", "Editor" and "ContentManager"
 * add the role of the same name. The result is in `ROLES` order without duplicates.
 */
export function rolesFromGroups(groups: readonly string[]): string[] {
  const have = new Set<Role>(["User"]);
  for (const g of groups) {
    if (g === APP_OWNER_GROUP) {
      have.add("Admin");
      have.add("SuperAdmin");
    } else if (g === APP_ADMIN_GROUP || isOrgAdminGroup(g)) {
      have.add("Admin");
    } else if (g === CONTENT_CREATOR_GROUP) {
      have.add("ContentCreator");
    } else if (g === EDITOR_GROUP) {
      have.add("Editor");
    } else if (g === CONTENT_MANAGER_GROUP) {
      have.add("ContentManager");
    }
  }
  return ROLES.filter((r) => have.has(r));
}

/**
 * Union of the permissions of the given roles, without duplicates, in `ROLES` order then permission
 * order ("*" first when present). Unknown roles grant nothing.
 */
export function permissionsFromRoles(roles: readonly string[]): string[] {
  const out: string[] = [];
  for (const role of ROLES) {
    if (!roles.includes(role)) continue;
    for (const p of PERMISSIONS_BY_ROLE[role]) if (!out.includes(p)) out.push(p);
  }
  const star = out.indexOf(ALL_PERMISSIONS);
  if (star > 0) {
    out.splice(star, 1);
    out.unshift(ALL_PERMISSIONS);
  }
  return out;
}

/** True when `perms` holds `permission` exactly or holds "*". */
export function hasPermission(perms: readonly string[], permission: string): boolean {
  return perms.includes(ALL_PERMISSIONS) || perms.includes(permission);
}

/** True when `perms` satisfies at least one of `wanted` (an empty list is never satisfied). */
export function hasAnyPermission(perms: readonly string[], wanted: readonly string[]): boolean {
  return wanted.some((p) => hasPermission(perms, p));
}

/** True when `roles` holds at least one of `wanted` (an empty list is never satisfied). */
export function hasAnyRole(roles: readonly string[], wanted: readonly string[]): boolean {
  return wanted.some((r) => roles.includes(r));
}

export const ROUTING_ROLES = ["SuperUser", "AdminUser", "ContentManager"] as const;
export type RoutingRole = (typeof ROUTING_ROLES)[number];

/** Routing roles that open the management area (/content, /create, /moderate, sidebar search). */
export const CONTENT_MANAGER_AND_ABOVE: readonly RoutingRole[] = Object.freeze([
  "ContentManager",
  "AdminUser",
  "SuperUser",
]);

/**
 * Derived roles for routing and the sidebar (spec §6): SuperAdmin → SuperUser, Admin → AdminUser,
 * the ContentManager group (or the ContentManager role) → ContentManager. In `ROUTING_ROLES` order.
 * Routing roles do not imply each other: route rules list every routing role they accept.
 */
export function routingRoles(roles: readonly string[], groups: readonly string[]): RoutingRole[] {
  const out: RoutingRole[] = [];
  if (roles.includes("SuperAdmin")) out.push("SuperUser");
  if (roles.includes("Admin")) out.push("AdminUser");
  if (roles.includes("ContentManager") || groups.includes(CONTENT_MANAGER_GROUP)) out.push("ContentManager");
  return out;
}

/** Content managers and above: ContentManager, AdminUser or SuperUser. */
export function isContentManagerOrAbove(roles: readonly string[]): boolean {
  return hasAnyRole(roles, CONTENT_MANAGER_AND_ABOVE);
}
