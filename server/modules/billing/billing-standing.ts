/**
 * Who is asking a billing operation: a signed-in person (visitors → 401; API keys and service
 * tokens → 403: a subscription belongs to a person) with their organisation and whether they
 * administer it (`org-<slug>-admin`, with the organisation as their tenant).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { AppError, ForbiddenError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { adminGroup, memberGroup, type OrganizationsRepo } from "../organizations/organizations.repo.ts";

export interface Standing {
  userId: string;
  email: string;
  name: string;
  org: { id: string; slug: string; name: string } | null;
  isOrgAdmin: boolean;
}

export async function standingOfActor(
  db: Kysely<DB>,
  orgs: OrganizationsRepo,
  actor: Actor,
): Promise<Standing> {
  if (actor.kind === "api-key" || actor.kind === "service") {
    throw new ForbiddenError(
      "Subscriptions belong to a person: use a signed-in session or an ID token, not an API key or service token.",
    );
  }
  if (actor.kind !== "user" || !actor.userId)
    throw new AppError("UNAUTHENTICATED", "Sign in to manage your plan.");
  const user = await db
    .selectFrom("user")
    .select(["id", "email", "name"])
    .where("id", "=", actor.userId)
    .executeTakeFirst();
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to manage your plan.");
  const slugs = actor.groups
    .filter((g) => g.startsWith("org-") && !g.endsWith("-admin"))
    .map((g) => g.slice(4));
  let org: Standing["org"] = null;
  let isOrgAdmin = false;
  for (const slug of slugs) {
    const row = await orgs.getBySlug(slug);
    if (!row) continue;
    if (actor.tenantId && row.id !== actor.tenantId) continue;
    org = { id: row.id, slug: row.slug, name: row.name };
    isOrgAdmin = actor.groups.includes(adminGroup(slug)) && actor.groups.includes(memberGroup(slug));
    break;
  }
  return { userId: user.id, email: user.email, name: user.name, org, isOrgAdmin };
}
