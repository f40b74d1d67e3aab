/**
 * Audience pages (decision 039): a signed-in reader's content page is the same for everyone of the
 * same audience (plan, roles, groups, organisation, flags) except a few personal parts (the
 * account chip's name, the status overlay's user id, the reader's own like, Save and course
 * progress). The server keeps one render per audience and page, made for the audience's neutral
 * user below, and the browser fills the personal parts from the reader's own requests.
 *
 * Two readers share a stored page only when their neutral contexts are equal in every field, so a
 * render can depend on nothing that differs between them: the personal fields are replaced by
 * neutral values before the render sees them.
 */
import { toAccessContext, type UserContext } from "./claims.ts";
import { canSeeUnpublishedContent } from "./data-rules.ts";
import { routingRoles } from "./roles.ts";

/** The user id of an audience render: never a real id (real ids hold no "~"). */
export const AUDIENCE_USER_ID = "~audience";

/**
 * Whether a signed-in context may be served a shared audience page: a reader (no staff routing
 * role, nothing unpublished to see, no staff role waiting for a second factor). Staff pages show
 * their own drafts, edit links and previews, and are always rendered for them.
 */
export function audiencePageEligible(context: UserContext): boolean {
  if (context.authStatus === "visitor" || !context.userId || context.audience) return false;
  const access = toAccessContext(context);
  if (!access.isAuthenticated || canSeeUnpublishedContent(access)) return false;
  if (routingRoles(context.roles, context.groups).length > 0) return false;
  return !(context.mfaPendingRoles && context.mfaPendingRoles.length > 0);
}

/**
 * The neutral user of a reader's audience: the reader's context with every personal field
 * replaced (id, names, e-mail, phone, session, raw claims, last sign-in), marked `audience`.
 */
export function audienceUserOf(context: UserContext): UserContext {
  return {
    ...context,
    userId: AUDIENCE_USER_ID,
    username: null,
    email: null,
    fullName: null,
    phoneNumber: null,
    phoneNumberVerified: null,
    claims: {},
    customAttributes: { ...context.customAttributes, lastLogin: null },
    session: null,
    audience: true,
  };
}

/**
 * The cache key of an audience: every field of the neutral user, in a fixed order (object keys
 * sorted at every level), so equal keys mean equal render inputs.
 */
export function audienceKeyOf(context: UserContext): string {
  return stableJson(audienceUserOf(context));
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
