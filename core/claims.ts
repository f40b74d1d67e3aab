/**
 * Identity claims → the client-side user context and the reduced access context
 * (spec §3 "Client-side user context", "Identity claims read"; §4 auth status; §8 'No valid tokens').
 */
import { SHORT_USER_ID_LENGTH } from "./constants.ts";
import { BUSINESS_GROUP, parseGroups, tierFromGroups } from "./groups.ts";
import { permissionsFromRoles, type RoutingRole, rolesFromGroups, routingRoles } from "./roles.ts";
import { pendingStaffRoles } from "./staff-mfa.ts";
import { type AuthTier, parseTier, type Tier, tierFromAuthTier } from "./tiers.ts";

export type Claims = Record<string, unknown>;

export type AuthStatus = "visitor" | "authenticated" | "admin";
export type AccountType = "individual" | "business";

export interface CustomAttributes {
  tenantId: string | null;
  tenantRole: string | null;
  domain: string | null;
  indAdmin: string | null;
  userType: string | null;
  orgRole: string | null;
  orgName: string | null;
  subscriptionStatus: string | null;
  lastLogin: string | null;
}

export interface SessionInfo {
  sessionId: string;
  /** epoch ms */
  issuedAt: number;
  /** epoch ms */
  expiresAt: number;
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  /** epoch ms */
  lastRotatedAt: number;
  rotationIntervalMs: number;
}

export interface UserContext {
  authStatus: AuthStatus;
  userId: string | null;
  username: string | null;
  email: string | null;
  fullName: string | null;
  phoneNumber: string | null;
  /** `phone_number_verified`: false for a number given at sign-up and not yet verified by SMS; null when unknown. */
  phoneNumberVerified: boolean | null;
  groups: string[];
  roles: string[];
  pricingTier: AuthTier;
  permissions: string[];
  claims: Claims;
  customAttributes: CustomAttributes;
  accountType: AccountType | null;
  session: SessionInfo | null;
  environment: string;
  featureFlags: Record<string, boolean>;
  /**
   * Staff roles this account holds but may not use until it enrols a second factor
   * (core/staff-mfa.ts); they are NOT in `roles`. Absent or empty: nothing is waiting.
   */
  mfaPendingRoles?: string[];
  /**
   * True for the neutral user of an audience render (core/audience.ts): the personal fields are
   * placeholders, and the browser asks for the reader's own context after it loads.
   */
  audience?: true;
}

/**
 * The reduced context used for route and content checks (spec §3: isAuthenticated, tier, roles,
 * userId), plus the permissions, groups and account type some checks need.
 *
 * `roles` holds the routing roles (SuperUser, AdminUser, ContentManager) followed by the raw roles
 * (User, Admin, SuperAdmin, ContentCreator, Editor, ContentManager), without duplicates:
 * - route rules (`rolesAllowed`) and the sidebar test routing roles;
 * - content `rolesRequired` and `routeGuard({ roles })` match either kind, so content can require
 *   "Editor" or "AdminUser" alike.
 */
export interface AccessContext {
  isAuthenticated: boolean;
  /** The plan in the content reading; null for a visitor (checks then count it as Free). */
  tier: Tier | null;
  roles: string[];
  userId: string | null;
  permissions: string[];
  groups: string[];
  accountType: AccountType | null;
}

/** Spec §8: building a context without an ID token (no `sub`) fails with this error. */
export class NoValidTokensError extends Error {
  readonly code = "NO_VALID_TOKENS";
  constructor(message = "No valid tokens") {
    super(message);
    this.name = "NoValidTokensError";
  }
}

export const TOKEN_MIN_REMAINING_MS = 60_000;
export const DEFAULT_TOKEN_EXPIRY_MS = 3_600_000;
export const DEFAULT_ENVIRONMENT = "production";

/** Claim keys read for each custom attribute, first readable wins (snake_case, then camelCase). */
export const CUSTOM_ATTRIBUTE_CLAIMS: Readonly<Record<keyof CustomAttributes, readonly string[]>> =
  Object.freeze({
    tenantId: ["custom:tenant_id", "custom:tenantId"],
    tenantRole: ["custom:tenant_role", "custom:tenantRole"],
    domain: ["custom:domain"],
    indAdmin: ["custom:ind_admin", "custom:indAdmin"],
    userType: ["custom:user_type", "custom:userType"],
    orgRole: ["custom:org_role", "custom:orgRole"],
    orgName: ["custom:org_name", "custom:orgName"],
    subscriptionStatus: ["custom:subscription_status", "custom:subscriptionStatus"],
    lastLogin: ["custom:last_login", "custom:lastLogin"],
  });

/** A non-empty trimmed string claim, else null. */
function readString(claims: Claims, key: string): string | null {
  const v = claims[key];
  if (typeof v !== "string") return null;
  const t = v.trim();
  return t === "" ? null : t;
}

/** A boolean claim (true/false, or the strings "true"/"false" as Cognito sends them), else null. */
function readBoolean(claims: Claims, key: string): boolean | null {
  const v = claims[key];
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  return null;
}

/** Custom attributes are strings in the user pool; numbers and booleans are accepted and stringified. */
function readAttribute(claims: Claims, keys: readonly string[]): string | null {
  for (const key of keys) {
    const v = claims[key];
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    if (typeof v === "boolean") return String(v);
    const s = readString(claims, key);
    if (s !== null) return s;
  }
  return null;
}

export function readCustomAttributes(claims: Claims): CustomAttributes {
  const out = {} as CustomAttributes;
  for (const key of Object.keys(CUSTOM_ATTRIBUTE_CLAIMS) as (keyof CustomAttributes)[]) {
    out[key] = readAttribute(claims, CUSTOM_ATTRIBUTE_CLAIMS[key]);
  }
  return out;
}

/** "individual" or "business" (case-insensitive, trimmed), anything else → null. */
export function parseAccountType(value: unknown): AccountType | null {
  if (typeof value !== "string") return null;
  const v = value.trim().toLowerCase();
  return v === "individual" || v === "business" ? v : null;
}

/**
 * Pricing tier from claims (spec §6): `custom:tier`, else `custom:subscription_tier` (each read with
 * `parseTier`, so an unreadable value falls through to the next source), else derived from the groups.
 * May be Visitor when nothing says otherwise; `buildUserContext` raises that to Free for a signed-in user.
 */
export function pricingTierFromClaims(
  claims: Claims,
  groups: readonly string[] = parseGroups(claims["cognito:groups"]),
): AuthTier {
  return (
    parseTier(claims["custom:tier"]) ??
    parseTier(claims["custom:subscription_tier"]) ??
    tierFromGroups(groups)
  );
}

function fullNameFrom(claims: Claims): string | null {
  const name = readString(claims, "name");
  if (name !== null) return name;
  const parts = [readString(claims, "given_name"), readString(claims, "family_name")].filter(
    (p): p is string => p !== null,
  );
  return parts.length > 0 ? parts.join(" ") : null;
}

export interface BuildUserContextOptions {
  session?: SessionInfo | null;
  environment?: string;
  featureFlags?: Record<string, boolean>;
}

/**
 * Builds the user context from ID-token claims.
 * - Throws `NoValidTokensError` ('No valid tokens') when there is no non-empty string `sub`.
 * - pricingTier: see `pricingTierFromClaims`; a signed-in user with no tier information at all is Free
 *   (Visitor is reserved for people who are not signed in).
 * - roles from groups, permissions from roles (see roles.ts).
 * - authStatus: "admin" when the roles include Admin, otherwise "authenticated".
 * - username: preferred_username, else cognito:username, else username.
 * - fullName: name, else given_name and family_name joined by a space.
 */
export function buildUserContext(claims: Claims, options: BuildUserContextOptions = {}): UserContext {
  const userId = claims && typeof claims === "object" ? readString(claims, "sub") : null;
  if (userId === null) throw new NoValidTokensError();
  const groups = parseGroups(claims["cognito:groups"]);
  const roles = rolesFromGroups(groups);
  const derived = pricingTierFromClaims(claims, groups);
  return {
    authStatus: roles.includes("Admin") ? "admin" : "authenticated",
    userId,
    username:
      readString(claims, "preferred_username") ??
      readString(claims, "cognito:username") ??
      readString(claims, "username"),
    email: readString(claims, "email"),
    fullName: fullNameFrom(claims),
    phoneNumber: readString(claims, "phone_number"),
    phoneNumberVerified: readBoolean(claims, "phone_number_verified"),
    groups,
    roles,
    pricingTier: derived === "Visitor" ? "Free" : derived,
    permissions: permissionsFromRoles(roles),
    claims: { ...claims },
    customAttributes: readCustomAttributes(claims),
    accountType: parseAccountType(claims["custom:account_type"]),
    session: options.session ?? null,
    environment: options.environment ?? DEFAULT_ENVIRONMENT,
    featureFlags: { ...(options.featureFlags ?? {}) },
    mfaPendingRoles: pendingStaffRoles(claims),
  };
}

function emptyCustomAttributes(): CustomAttributes {
  return {
    tenantId: null,
    tenantRole: null,
    domain: null,
    indAdmin: null,
    userType: null,
    orgRole: null,
    orgName: null,
    subscriptionStatus: null,
    lastLogin: null,
  };
}

/** A fresh (mutable) visitor context. Visitors hold no roles (not even User) and no permissions. */
export function visitorContext(environment: string = DEFAULT_ENVIRONMENT): UserContext {
  return {
    authStatus: "visitor",
    userId: null,
    username: null,
    email: null,
    fullName: null,
    phoneNumber: null,
    phoneNumberVerified: null,
    groups: [],
    roles: [],
    pricingTier: "Visitor",
    permissions: [],
    claims: {},
    customAttributes: emptyCustomAttributes(),
    accountType: null,
    session: null,
    environment,
    featureFlags: {},
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The default context (spec §4: auth status visitor by default). Deeply frozen. */
export const VISITOR_CONTEXT: UserContext = deepFreeze(visitorContext());

/**
 * The reduced access context. A context counts as signed in when its status is not "visitor" and it
 * has a user id. A signed-in user without a plan counts as Free; a visitor has tier null.
 * `roles` = routing roles, then raw roles (see `AccessContext`).
 */
export function toAccessContext(ctx: UserContext): AccessContext {
  const isAuthenticated = ctx.authStatus !== "visitor" && typeof ctx.userId === "string" && ctx.userId !== "";
  const routing: RoutingRole[] = routingRoles(ctx.roles, ctx.groups);
  const roles: string[] = [];
  for (const r of [...routing, ...ctx.roles]) if (!roles.includes(r)) roles.push(r);
  return {
    isAuthenticated,
    tier: isAuthenticated ? (tierFromAuthTier(ctx.pricingTier) ?? "Free") : null,
    roles: isAuthenticated ? roles : [],
    userId: isAuthenticated ? ctx.userId : null,
    permissions: isAuthenticated ? [...ctx.permissions] : [],
    groups: isAuthenticated ? [...ctx.groups] : [],
    accountType: isAuthenticated ? ctx.accountType : null,
  };
}

/** Convenience for the server: claims straight to an access context (throws like `buildUserContext`). */
export function accessContextFromClaims(claims: Claims): AccessContext {
  return toAccessContext(buildUserContext(claims));
}

/** The access context of a visitor. Frozen. */
export const VISITOR_ACCESS_CONTEXT: AccessContext = deepFreeze(toAccessContext(visitorContext()));

/** True when the user is a business account in the "Business" group (spec §2 Business Hub). */
export function isBusinessMember(
  ctx: Pick<AccessContext, "isAuthenticated" | "accountType" | "groups">,
): boolean {
  return ctx.isAuthenticated && ctx.accountType === "business" && ctx.groups.includes(BUSINESS_GROUP);
}

/** Reads `exp` (seconds since the epoch; a number or a numeric string). Unreadable → null. */
function readExpSeconds(exp: unknown): number | null {
  if (typeof exp === "number") return Number.isFinite(exp) ? exp : null;
  if (typeof exp === "string" && exp.trim() !== "") {
    const n = Number(exp);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The effective expiry in epoch ms: exp × 1000, or now + 1 hour when exp is unreadable (spec §5). */
export function tokenExpiryMs(expSeconds: unknown, nowMs: number): number {
  const exp = readExpSeconds(expSeconds);
  return exp === null ? nowMs + DEFAULT_TOKEN_EXPIRY_MS : exp * 1000;
}

/** A token is usable when more than 60 s remain before its expiry (spec §5, §9). */
export function tokenUsable(expSeconds: unknown, nowMs: number): boolean {
  return tokenExpiryMs(expSeconds, nowMs) - nowMs > TOKEN_MIN_REMAINING_MS;
}

/** First 8 characters of a user id for the status overlay; "" when there is none. */
export function shortUserId(id: string | null | undefined): string {
  return typeof id === "string" ? id.slice(0, SHORT_USER_ID_LENGTH) : "";
}
