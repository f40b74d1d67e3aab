/**
 * Admin scopes (docs/decisions/009-admin-scopes.md): every admin operation and every admin screen
 * says which scope it needs, and one pure function decides whether an actor holds it.
 *
 * - `platform`: the whole installation — platform administrators only (app-admin, app-owner);
 * - `owner`: the installation's running configuration (system settings and feature flags) — the
 *   platform owner only (app-owner, the SuperAdmin role of spec §6);
 * - `organisation`: one organisation's own members and figures — an organisation admin
 *   (`org-<slug>-admin`) for its organisations, a platform administrator for every one;
 * - `moderation`: the platform's comments and review queue (/moderate) — content managers
 *   (the ContentManager group) and platform administrators, never organisation admins.
 *
 * Spec §6 gives organisation admins the Admin role (and so the admin:* and user:manage
 * permissions); the scope is what keeps them inside their organisation. Deny by default: an
 * unknown operation or scope is refused.
 */
import { APP_OWNER_GROUP, adminScopeOrgs, CONTENT_MANAGER_GROUP, isPlatformAdmin } from "./groups.ts";
import { hasPermission, type Permission } from "./roles.ts";

export const ADMIN_SCOPES = ["platform", "owner", "organisation", "moderation"] as const;
export type AdminScope = (typeof ADMIN_SCOPES)[number];

/** True when `groups` hold `scope` (see the file comment); anything else is false. */
export function hasAdminScope(groups: readonly string[], scope: AdminScope): boolean {
  if (!Array.isArray(groups)) return false;
  if (scope === "platform") return isPlatformAdmin(groups);
  if (scope === "owner") return groups.includes(APP_OWNER_GROUP);
  if (scope === "organisation") return isPlatformAdmin(groups) || (adminScopeOrgs(groups) ?? []).length > 0;
  if (scope === "moderation") return isPlatformAdmin(groups) || groups.includes(CONTENT_MANAGER_GROUP);
  return false;
}

/** Who a scope is for, worded for people (403 messages and screens). */
export const ADMIN_SCOPE_HOLDERS: Readonly<Record<AdminScope, string>> = Object.freeze({
  platform: "a platform administrator (app-admin or app-owner)",
  owner: "the platform owner (app-owner)",
  organisation: "an organisation administrator or a platform administrator",
  moderation: "a content manager or a platform administrator",
});

export interface AdminOperation {
  scope: AdminScope;
  /** The permission the operation needs on top of the scope. */
  permission: Permission;
  /** What it does, for messages and the docs. */
  label: string;
}

/**
 * Every admin operation of the REST API and the admin screens, with its scope. Service
 * credentials, repositories and installation diagnostics are platform-wide; unlocking an account
 * and an organisation's own figures are organisation-scoped (the operation then limits itself to
 * the organisations `adminAccess` returns).
 */
export const ADMIN_OPERATIONS = Object.freeze({
  "service-credentials.list": {
    scope: "platform",
    permission: "admin:read",
    label: "list service credentials",
  },
  "service-credentials.create": {
    scope: "platform",
    permission: "admin:write",
    label: "create service credentials",
  },
  "service-credentials.revoke": {
    scope: "platform",
    permission: "admin:write",
    label: "revoke service credentials",
  },
  "repositories.manage": { scope: "platform", permission: "admin:write", label: "manage repositories" },
  "diagnostics.read": {
    scope: "platform",
    permission: "admin:read",
    label: "see installation-wide figures and diagnostics",
  },
  "plans.manage": {
    scope: "platform",
    permission: "admin:write",
    label: "manage the plans and their prices",
  },
  "settings.read": {
    scope: "platform",
    permission: "admin:read",
    label: "see the system settings and feature flags",
  },
  "settings.manage": {
    scope: "owner",
    permission: "admin:write",
    label: "change the system settings and feature flags",
  },
  "audit.read": {
    scope: "platform",
    permission: "admin:read",
    label: "read the audit log",
  },
  "webhooks.manage": {
    scope: "platform",
    permission: "admin:write",
    label: "manage the webhook endpoints and their deliveries",
  },
  "subscriptions.manage": {
    scope: "platform",
    permission: "admin:write",
    label: "list, grant, extend and cancel every subscription",
  },
  "operations.read": {
    scope: "owner",
    permission: "admin:read",
    label: "see the app processes, background jobs, tables and migrations of the installation",
  },
  "database.check": {
    scope: "owner",
    permission: "admin:write",
    label: "run a database integrity check",
  },
  "database.backup": {
    scope: "owner",
    permission: "admin:write",
    label: "download a database backup",
  },
  "analytics.read": {
    scope: "platform",
    permission: "admin:read",
    label: "see the platform's analytics and overview figures",
  },
  "content.admin": {
    scope: "platform",
    permission: "content:manage",
    label: "manage the content library (featured order, categories, collections)",
  },
  "users.unlock": { scope: "organisation", permission: "user:manage", label: "unlock accounts" },
  "users.read": {
    scope: "organisation",
    permission: "admin:read",
    label: "list users and open a user's page",
  },
  "users.manage": {
    scope: "organisation",
    permission: "user:manage",
    label: "revoke sessions and API keys, reset MFA, suspend and reinstate users",
  },
  "users.groups": {
    scope: "organisation",
    permission: "user:manage",
    label: "change users' groups (core/group-grants.ts decides which)",
  },
  "users.delete": { scope: "platform", permission: "user:manage", label: "delete users with their data" },
  "organisation.figures": {
    scope: "organisation",
    permission: "admin:read",
    label: "see an organisation's own figures",
  },
  "security.read": {
    scope: "owner",
    permission: "admin:read",
    label: "see the platform's sessions, lockouts, MFA adoption and security events",
  },
  "security.sessions.revoke": {
    scope: "owner",
    permission: "admin:write",
    label: "revoke other people's sessions",
  },
  "security.lockouts.clear": {
    scope: "owner",
    permission: "admin:write",
    label: "clear sign-in lockouts across the platform",
  },
  "service-credentials.rotate": {
    scope: "owner",
    permission: "admin:write",
    label: "rotate service credential secrets",
  },
} satisfies Record<string, AdminOperation>);

export type AdminOperationName = keyof typeof ADMIN_OPERATIONS;

/** What `adminAccess` reads of an actor (core `AccessContext` has it). */
export interface AdminSubject {
  isAuthenticated: boolean;
  groups: readonly string[];
  permissions: readonly string[];
}

/**
 * - allowed: `orgs` are the organisations the operation may touch (null = every one);
 * - denied: "auth" (nobody signed in → 401), "permission" or "scope" (→ 403), with a message.
 */
export type AdminDecision =
  | { kind: "allowed"; scope: AdminScope; orgs: readonly string[] | null }
  | { kind: "denied"; reason: "auth" | "permission" | "scope"; message: string };

/**
 * The one decision for admin operations: signed in, holding the operation's permission, and
 * holding its scope. Unknown operations are refused.
 */
export function adminAccess(operation: AdminOperationName, subject: AdminSubject): AdminDecision {
  const op: AdminOperation | undefined = Object.hasOwn(ADMIN_OPERATIONS, operation)
    ? ADMIN_OPERATIONS[operation]
    : undefined;
  if (!op) return { kind: "denied", reason: "scope", message: "This is not an admin operation." };
  if (!subject?.isAuthenticated) return { kind: "denied", reason: "auth", message: "Sign in first." };
  if (!hasPermission(subject.permissions ?? [], op.permission)) {
    return {
      kind: "denied",
      reason: "permission",
      message: `You need the ${op.permission} permission to ${op.label}.`,
    };
  }
  if (!hasAdminScope(subject.groups ?? [], op.scope)) {
    return {
      kind: "denied",
      reason: "scope",
      message: `Only ${ADMIN_SCOPE_HOLDERS[op.scope]} may ${op.label}; organisation administrators manage only their own organisation.`,
    };
  }
  return { kind: "allowed", scope: op.scope, orgs: adminScopeOrgs(subject.groups) };
}
