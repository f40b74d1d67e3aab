/**
 * The content rules every channel applies, in one file:
 *
 * 1. Visibility of unpublished items (`isVisible`, `visibleSql`): published items are visible to
 *    everyone; unpublished ones (drafts, in review, archived) also to actors who may see
 *    unpublished content (core `canSeeUnpublishedContent`: content writers). Pages, REST, GraphQL,
 *    body links and comments apply it; reader-facing lists (feeds, sitemap, home, sections,
 *    categories, search results, related items, course lessons) ask for published items only.
 * 2. "May read the body" (`content-projection.ts` `mayReadBody`, core `canAccessContent`) and its
 *    SQL form `readableBy` below, used by search and comments.
 *
 * "Readable by this actor" in SQL: core's `canAccessContent` (core/access.ts) as a where-expression
 * over a content table alias, used wherever a query must keep only what the reader may read
 * (search bodies, comment lists and counts). Kept equal to core by `readable-sql.int.test.ts`.
 *
 * - The item's `tier` is one the reader reaches (`tiersAtOrBelow`; a visitor counts as Free), read
 *   like `parseTier` (case-insensitive, "business" = Enterprise, empty = Free). A value that cannot
 *   be read requires Enterprise (fail closed, decision 003): only an Enterprise reader passes it.
 *   (SQL `trim` strips spaces only; a value padded with other white space reads as unreadable.)
 * - `rolesRequired` is empty, or holds a role the reader holds. The column is canonical JSON
 *   (`["A","B"]`, written by the content repository): a role is an element exactly when `[` or `,`
 *   followed by its JSON string occurs. Anything unexpected reads as "no access".
 */
import { type RawBuilder, sql } from "kysely";
import { canSeeUnpublishedContent, PUBLISHED_STATUS } from "../../../core/index.ts";
import { type Tier, tierSpellings, tiersAtOrBelow } from "../../../core/tiers.ts";
import type { Dialect } from "../../db/dialect.ts";
import type { Actor } from "../actor.ts";

/** True when the actor sees unpublished items too (content writers). */
export function seesUnpublished(actor: Actor): boolean {
  return canSeeUnpublishedContent(actor.access);
}

/** The visibility rule for one row: published, or the actor sees unpublished items. */
export function isVisible<T extends { status: string }>(actor: Actor, item: T | null | undefined): item is T {
  return !!item && (item.status === PUBLISHED_STATUS || seesUnpublished(actor));
}

/**
 * The visibility rule in SQL over a content table (alias or table name; unqualified when
 * omitted): null when the actor sees every status, else "status is published".
 * `notAnIndexKey` (SQLite): the term filters rows but offers no index, so a look-up by another
 * key keeps that key's index instead of the equally ranked (status, publishedAt) index.
 */
export function visibleSql(
  actor: Actor,
  alias?: string,
  options: { notAnIndexKey?: boolean } = {},
): RawBuilder<boolean> | null {
  if (seesUnpublished(actor)) return null;
  const column = sql.ref(alias ? `${alias}.status` : "status");
  return options.notAnIndexKey
    ? sql<boolean>`+${column} = ${PUBLISHED_STATUS}`
    : sql<boolean>`${column} = ${PUBLISHED_STATUS}`;
}

export interface ReaderAccess {
  tier: Tier | null;
  roles: readonly string[];
}

export function readableBy(access: ReaderAccess, dialect: Dialect, alias = "c"): RawBuilder<boolean> {
  const tiers = tiersAtOrBelow(access.tier);
  const spellings = ["", ...tiers.flatMap(tierSpellings)];
  const tierOk = tiers.includes("Enterprise")
    ? sql`1 = 1`
    : sql`coalesce(lower(trim(${sql.ref(`${alias}.tier`)})), '') in (${sql.join(spellings)})`;
  const rolesColumn = sql.ref(`${alias}.rolesRequired`);
  const needles = access.roles.flatMap((r) => [`[${JSON.stringify(r)}`, `,${JSON.stringify(r)}`]);
  const roleChecks = needles.map((n) =>
    dialect === "postgres" ? sql`strpos(${rolesColumn}, ${n}) > 0` : sql`instr(${rolesColumn}, ${n}) > 0`,
  );
  const rolesOk = roleChecks.length
    ? sql`(${rolesColumn} = '[]' or ${sql.join(roleChecks, sql` or `)})`
    : sql`${rolesColumn} = '[]'`;
  return sql<boolean>`(${tierOk} and ${rolesOk})`;
}
