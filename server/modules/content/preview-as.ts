/**
 * The reader a content writer previews an item as (`?previewAs=` on the public page). The page's
 * body rule (tier, required roles, the video gate) is decided for this synthetic reader, while
 * visibility (drafts, scheduled items) still uses the real actor: the writer sees exactly what that
 * reader would see, of an item the writer may see.
 *
 * Only writers get a preview: for anyone else `previewReaderFor` answers null and the page reads
 * as their own view, so the parameter never grants anything.
 */
import { canWriteContent, routingRoles, type UserContext, visitorContext } from "../../../core/index.ts";
import {
  type PreviewAudience,
  parsePreviewAudience,
  previewAudienceLabel,
} from "../../../core/preview-as.ts";
import { type Actor, visitorActor } from "../actor.ts";

/**
 * Not a user id: the synthetic reader must not match any stored row (likes, progress, storage
 * paths of a real user).
 */
const PREVIEW_READER_ID = "preview-reader";

export interface PreviewAs {
  audience: PreviewAudience;
  /** The reader the body rule is decided for. */
  reader: Actor;
  /** "a Pro reader", for the banner. */
  label: string;
}

/**
 * The reader to render for, when `actor` may preview (a content writer) and `value` names an
 * audience; null otherwise (the page is then the actor's own view).
 */
export function previewReaderFor(actor: Actor, value: string | null | undefined): PreviewAs | null {
  if (actor.kind !== "user" || !canWriteContent(actor.access)) return null;
  const audience = parsePreviewAudience(value);
  if (!audience) return null;
  return { audience, reader: readerActor(actor, audience), label: previewAudienceLabel(audience) };
}

/** A signed-in reader with a plan and perhaps one role, and no permissions or groups at all. */
function readerActor(actor: Actor, audience: PreviewAudience): Actor {
  if (audience.kind === "visitor") return visitorActor(actor.context.environment);
  const tier = audience.kind === "tier" ? audience.tier : "Free";
  const raw = audience.kind === "role" ? ["User", audience.role] : ["User"];
  const roles = [...new Set([...routingRoles(raw, []), ...raw])];
  // Signed links for the reader end with the writer's session, as theirs would with their own.
  const context: UserContext = {
    ...visitorContext(actor.context.environment),
    authStatus: "authenticated",
    userId: PREVIEW_READER_ID,
    roles: raw,
    pricingTier: tier,
    session: actor.context.session,
  };
  return {
    kind: "user",
    auth: actor.auth,
    userId: PREVIEW_READER_ID,
    groups: [],
    roles,
    permissions: [],
    tier,
    tenantId: null,
    scopes: null,
    platformAdmin: false,
    adminOrgs: [],
    access: {
      isAuthenticated: true,
      tier,
      roles,
      userId: PREVIEW_READER_ID,
      permissions: [],
      groups: [],
      accountType: "individual",
    },
    context,
  };
}
