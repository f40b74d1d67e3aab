/**
 * What the users admin API returns (docs/api/admin-users.md): the list rows, the user page and the
 * query the list accepts. Datetimes are ISO-8601 UTC strings.
 */
import { z } from "zod";

export const USER_TIERS = ["free", "basic", "pro", "enterprise"] as const;
export type UserTier = (typeof USER_TIERS)[number];
export const USER_STATUSES = ["active", "suspended", "locked", "unverified"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_SORTS = ["name", "email", "created", "lastLogin"] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const ADMIN_USERS_LIMIT = 25;
/** The special `group` filter value matching any organisation administrator. */
export const ORG_ADMIN_FILTER = "org-admin";

const text = (max: number) => z.string().trim().max(max);

export const userListQuerySchema = z.strictObject({
  q: text(200).optional(),
  tier: z.enum(USER_TIERS).optional(),
  group: text(120).min(1).optional(),
  status: z.enum(USER_STATUSES).optional(),
  organisation: text(120).min(1).optional(),
  mfa: z.enum(["on", "off"]).optional(),
  sort: z.enum(USER_SORTS).optional(),
  dir: z.enum(["asc", "desc"]).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

export interface AdminUserRow {
  id: string;
  name: string;
  email: string;
  username: string | null;
  createdAt: string;
  lastLoginAt: string | null;
  /** The effective tier, as identity computes it (own and organisation subscriptions, else groups). */
  tier: UserTier | null;
  groups: string[];
  organisations: string[];
  status: UserStatus;
  mfa: boolean;
}

export interface AdminUserPage {
  items: AdminUserRow[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

export interface LockoutEvent {
  at: string;
  action: string;
  ip: string | null;
  details: Record<string, unknown> | null;
}

export interface AdminUserDetail {
  profile: {
    id: string;
    name: string;
    displayName: string | null;
    email: string;
    emailVerified: boolean;
    username: string | null;
    phoneNumber: string | null;
    accountType: string | null;
    createdAt: string;
    lastLoginAt: string | null;
    isActive: boolean;
  };
  status: UserStatus;
  tier: UserTier | null;
  /** Where the tier comes from: a subscription row, the groups, or nothing. */
  tierSource: { kind: "subscription"; subscriptionId: string } | { kind: "groups" } | { kind: "none" };
  groups: string[];
  roles: string[];
  organisations: { slug: string; name: string; admin: boolean }[];
  subscriptions: {
    id: string;
    planId: string | null;
    tier: string;
    status: string;
    source: string | null;
    organisation: string | null;
    startedAt: string | null;
    periodEnd: string | null;
    expiresAt: string | null;
    canceledAt: string | null;
    createdAt: string;
  }[];
  invoices: {
    id: string;
    number: string;
    status: string;
    amountCents: number;
    currency: string;
    description: string;
    createdAt: string;
    paidAt: string | null;
  }[];
  sessions: {
    id: string;
    createdAt: string;
    lastActiveAt: string;
    expiresAt: string;
    ipAddress: string | null;
    userAgent: string | null;
  }[];
  lockout: {
    locked: boolean;
    lockedUntil: string | null;
    /** Failed attempts counted now on the account's keys. */
    failures: number;
    /** Why: the failed sign-ins, refused codes and lockouts recorded for this account, newest first. */
    events: LockoutEvent[];
  };
  mfa: { enabled: boolean; verifiedApp: boolean; pendingStaffRoles: string[] };
  apiKeys: {
    id: string;
    name: string;
    prefix: string;
    scopes: string[];
    createdAt: string;
    expiresAt: string | null;
    lastUsedAt: string | null;
    revokedAt: string | null;
  }[];
  securityEvents: {
    id: string;
    at: string;
    action: string;
    actorId: string | null;
    ip: string | null;
    details: Record<string, unknown> | null;
  }[];
  /** What the caller may do here (the server checks every action again). */
  can: {
    manage: boolean;
    delete: boolean;
    plan: boolean;
    /** Groups the caller may add now, and those it may remove. */
    addGroups: string[];
    removeGroups: string[];
  };
}
