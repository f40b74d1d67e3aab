/**
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
import { type Tier, tierSpellings, tiersAtOrBelow } from "../../../core/tiers.ts";
import type { Dialect } from "../../db/dialect.ts";

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
