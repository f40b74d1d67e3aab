/**
 * The audit log's actions (`audit_log.action`): one table giving each known action its category
 * (security events vs admin, billing, content and account actions) and a readable label. The
 * /admin/logs screen and `GET /api/admin/audit` filter by category with it; an action missing
 * from the table is "other" and is labelled from its name.
 */

export const AUDIT_CATEGORIES = ["security", "admin", "billing", "organisation", "account", "other"] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

export const AUDIT_CATEGORY_LABELS: Readonly<Record<AuditCategory, string>> = Object.freeze({
  security: "Security events",
  admin: "Admin actions",
  billing: "Billing",
  organisation: "Organisations",
  account: "Account changes",
  other: "Other",
});

export interface AuditActionInfo {
  category: Exclude<AuditCategory, "other">;
  label: string;
}

/** Every action the code writes today (server/auth/security-audit.ts and the services). */
export const AUDIT_ACTIONS: Readonly<Record<string, AuditActionInfo>> = Object.freeze({
  // Sign-in and session security (SECURITY.md §19).
  sign_up: { category: "security", label: "Signed up" },
  sign_in: { category: "security", label: "Signed in" },
  sign_in_failure: { category: "security", label: "Sign-in failed" },
  password_check_failure: { category: "security", label: "Password check failed" },
  lockout: { category: "security", label: "Account locked out" },
  sign_out: { category: "security", label: "Signed out" },
  password_change: { category: "security", label: "Password changed" },
  password_reset: { category: "security", label: "Password reset" },
  session_revoked: { category: "security", label: "Session revoked" },
  session_expired: { category: "security", label: "Session expired" },
  device_mismatch: { category: "security", label: "Session used from another device" },
  mfa_enabled: { category: "security", label: "Two-factor sign-in turned on" },
  mfa_disabled: { category: "security", label: "Two-factor sign-in turned off" },
  mfa_failure: { category: "security", label: "Two-factor code refused" },
  backup_code_used: { category: "security", label: "Backup code used" },
  backup_codes_regenerated: { category: "security", label: "Backup codes regenerated" },
  phone_verified: { category: "security", label: "Phone number verified" },
  token_issued: { category: "security", label: "Token issued" },
  api_key_created: { category: "security", label: "API key created" },
  api_key_revoked: { category: "security", label: "API key revoked" },
  // Administration.
  admin_unlock: { category: "admin", label: "Account unlocked by an admin" },
  service_credential_created: { category: "admin", label: "Service credential created" },
  service_credential_revoked: { category: "admin", label: "Service credential revoked" },
  service_credential_rotated: { category: "admin", label: "Service credential secret rotated" },
  admin_session_revoked: { category: "admin", label: "Session revoked by an admin" },
  admin_lockout_cleared: { category: "admin", label: "Sign-in lock cleared by an admin" },
  user_created: { category: "admin", label: "User created" },
  user_deleted: { category: "admin", label: "User deleted" },
  user_groups_changed: { category: "admin", label: "User's groups changed" },
  user_suspended: { category: "admin", label: "User suspended" },
  user_reinstated: { category: "admin", label: "User reinstated" },
  user_mfa_reset: { category: "admin", label: "User's two-factor sign-in reset" },
  user_sessions_revoked: { category: "admin", label: "User's sessions revoked by an admin" },
  user_api_key_revoked: { category: "admin", label: "User's API key revoked by an admin" },
  plan_created: { category: "admin", label: "Plan created" },
  plan_updated: { category: "admin", label: "Plan updated" },
  plan_archived: { category: "admin", label: "Plan archived" },
  plan_restored: { category: "admin", label: "Plan restored" },
  database_integrity_checked: { category: "admin", label: "Database integrity checked" },
  database_backup_downloaded: { category: "admin", label: "Database backup downloaded" },
  featured_reordered: { category: "admin", label: "Featured content changed" },
  content_reviewed: { category: "admin", label: "Content marked reviewed" },
  category_created: { category: "admin", label: "Content category created" },
  category_updated: { category: "admin", label: "Content category changed" },
  category_reordered: { category: "admin", label: "Content categories reordered" },
  collection_created: { category: "admin", label: "Collection created" },
  collection_updated: { category: "admin", label: "Collection changed" },
  collection_hidden: { category: "admin", label: "Collection hidden" },
  collection_shown: { category: "admin", label: "Collection shown" },
  content_imported: { category: "admin", label: "Content imported" },
  webhook_endpoint_created: { category: "admin", label: "Webhook endpoint created" },
  webhook_endpoint_updated: { category: "admin", label: "Webhook endpoint changed" },
  webhook_endpoint_deleted: { category: "admin", label: "Webhook endpoint deleted" },
  webhook_secret_rotated: { category: "admin", label: "Webhook signing secret rotated" },
  // Comment moderation (/moderate).
  comment_approved: { category: "admin", label: "Comment approved by a moderator" },
  comment_hidden: { category: "admin", label: "Comment hidden by a moderator" },
  comment_removed: { category: "admin", label: "Comment removed by a moderator" },
  comment_reports_dismissed: { category: "admin", label: "Comment reports dismissed" },
  commenter_muted: { category: "admin", label: "Commenter muted" },
  commenter_banned: { category: "admin", label: "Commenter banned" },
  commenter_restriction_lifted: { category: "admin", label: "Commenter's mute or ban lifted" },
  // Subscriptions and billing.
  subscription_created: { category: "billing", label: "Subscription created" },
  subscription_updated: { category: "billing", label: "Subscription updated" },
  subscription_deleted: { category: "billing", label: "Subscription deleted" },
  entitlement_changed: { category: "billing", label: "Plan access changed" },
  // Administrators' subscription operations (/admin/subscriptions and the user page's plan card).
  subscription_granted: { category: "billing", label: "Plan granted by an admin" },
  subscription_extended: { category: "billing", label: "Subscription extended by an admin" },
  subscription_canceled: { category: "billing", label: "Subscription cancelled by an admin" },
  // Organisations.
  org_created: { category: "organisation", label: "Organisation created" },
  org_updated: { category: "organisation", label: "Organisation updated" },
  org_invite_sent: { category: "organisation", label: "Invitation sent" },
  org_invite_canceled: { category: "organisation", label: "Invitation cancelled" },
  org_member_joined: { category: "organisation", label: "Member joined" },
  org_member_removed: { category: "organisation", label: "Member removed" },
  // The reader's own account.
  profile_updated: { category: "account", label: "Profile updated" },
  avatar_updated: { category: "account", label: "Profile picture updated" },
  data_exported: { category: "account", label: "Data exported" },
  account_deleted: { category: "account", label: "Account deleted" },
});

function known(action: string): AuditActionInfo | undefined {
  return Object.hasOwn(AUDIT_ACTIONS, action) ? AUDIT_ACTIONS[action] : undefined;
}

/** The category of an action; unknown actions are "other". */
export function auditCategory(action: string): AuditCategory {
  return known(action)?.category ?? "other";
}

/** A readable label: the table's, else the action name with separators as spaces ("role.change" → "Role change"). */
export function auditActionLabel(action: string): string {
  const info = known(action);
  if (info) return info.label;
  const words = action.replace(/[._:-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

/** The known actions of a category ("other" has none: it is every action not in the table). */
export function auditActionsOf(category: AuditCategory): string[] {
  return Object.entries(AUDIT_ACTIONS)
    .filter(([, info]) => info.category === category)
    .map(([action]) => action);
}

export function isAuditCategory(value: string): value is AuditCategory {
  return (AUDIT_CATEGORIES as readonly string[]).includes(value);
}

/**
 * The actions /super-admin/security lists as "recent security events" (sign-in failures, locks,
 * unlocks, MFA and password changes, session revocations, credential changes), and links to
 * /admin/logs filtered on.
 */
export const SECURITY_CONSOLE_ACTIONS: readonly string[] = Object.freeze([
  "sign_in_failure",
  "password_check_failure",
  "lockout",
  "admin_unlock",
  "admin_lockout_cleared",
  "mfa_enabled",
  "mfa_disabled",
  "mfa_failure",
  "backup_code_used",
  "backup_codes_regenerated",
  "password_change",
  "password_reset",
  "session_revoked",
  "admin_session_revoked",
  "device_mismatch",
  "api_key_created",
  "api_key_revoked",
  "service_credential_created",
  "service_credential_rotated",
  "service_credential_revoked",
]);
