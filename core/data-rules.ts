/**
 * Data rules of the content models (spec §6 "Data rules", tightened per DESIGN.md): who may write
 * Content, publish it, see unpublished items, and manage ContentCategory / ContentItem. Pure
 * functions over the access context; the services enforce them, the UI may use them to explain.
 *
 * - Content is written by ContentCreator, Editor, ContentManager (their content:create /
 *   content:edit permissions), SuperAdmin ("*"), and platform admins (app-admin: Admin's
 *   content:manage). An organisation admin also holds Admin (decision 003) but only for its own
 *   tenant: it gets no write access to the platform's content.
 * - Publishing (an item that is or becomes `published`) needs content:publish as well.
 * - Unpublished items are visible only to those who may write content.
 * - ContentCategory and ContentItem are written only by app-owner and app-admin.
 *
 * Service credentials carry content roles for reading (`content:read:all`) but no permissions and
 * no groups, so none of these rules ever lets one write.
 */
import type { AccessContext } from "./claims.ts";
import { isPlatformAdmin } from "./groups.ts";
import { hasAnyPermission, hasPermission } from "./roles.ts";

export const PUBLISHED_STATUS = "published";

type RuleContext = Pick<AccessContext, "isAuthenticated" | "permissions" | "groups">;

/** May create, edit and delete (unpublished) content. */
export function canWriteContent(ctx: RuleContext): boolean {
  if (!ctx.isAuthenticated) return false;
  if (hasAnyPermission(ctx.permissions, ["content:create", "content:edit"])) return true;
  return hasPermission(ctx.permissions, "content:manage") && isPlatformAdmin(ctx.groups);
}

/** May publish: set an item's status to published, or change or delete a published item. */
export function canPublishContent(ctx: RuleContext): boolean {
  return canWriteContent(ctx) && hasPermission(ctx.permissions, "content:publish");
}

/** Sees drafts and other unpublished items (everyone else sees published items only). */
export function canSeeUnpublishedContent(ctx: RuleContext): boolean {
  return canWriteContent(ctx);
}

/** May create, update and delete ContentCategory and ContentItem records. */
export function canManageContentCatalog(ctx: RuleContext): boolean {
  return ctx.isAuthenticated && isPlatformAdmin(ctx.groups);
}
