/**
 * The management table of the content studio (`/content`, `GET /api/studio/content`): every item
 * in every workflow state, for content writers only (core `canWriteContent`), filtered, searched
 * and sorted in SQL with a keyset cursor, with counts per workflow state for the same filters.
 *
 * The workflow state of a row is `workflowStateOf(row)` (core/content-workflow.ts). In SQL it is
 * one CASE expression built from the same tables, so the `state` filter, the counts and the
 * state shown on each row always agree, including rows written before the workflow (no
 * `workflowStatus`) and rows whose `workflowStatus` disagrees with their stored `status`.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import {
  canWriteContent,
  STATUS_BY_WORKFLOW_STATE,
  type StoredContentStatus,
  WORKFLOW_STATES,
  type WorkflowState,
  workflowStateOf,
} from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { ForbiddenError } from "../../errors.ts";
import { type Actor, requireUser } from "../actor.ts";
import { displayNamesByIds } from "../users/display-names.ts";
import { CONTENT_STATUSES } from "./content.schemas.ts";
import type { StudioList, StudioRow } from "./studio.types.ts";
import {
  encodeStudioCursor,
  parseStudioListQuery,
  type StudioDirection,
  type StudioListQuery,
} from "./studio-list-query.ts";
import { toStudioRow } from "./studio-row.ts";

export type { StudioListQuery } from "./studio-list-query.ts";

/**
 * The SQL form of `workflowStateOf(row)`: a stored workflowStatus that matches `status` wins. The
 * states and statuses are this module's constants, written as literals so that the expression is
 * the same text wherever it appears (PostgreSQL matches a GROUP BY expression by its text).
 */
function stateSql(): RawBuilder<WorkflowState> {
  const status = sql.ref("status");
  const ws = sql.ref("workflowStatus");
  const byWorkflowStatus = WORKFLOW_STATES.map(
    (state) =>
      sql`when ${status} = ${sql.lit(STATUS_BY_WORKFLOW_STATE[state])} and ${ws} = ${sql.lit(state)} then ${sql.lit(state)}`,
  );
  // Otherwise the state read from `status` alone (what core answers without a workflowStatus).
  const byStatus = (CONTENT_STATUSES as readonly StoredContentStatus[]).map(
    (s) =>
      sql`when ${status} = ${sql.lit(s)} then ${sql.lit(workflowStateOf({ status: s, workflowStatus: null }))}`,
  );
  const fallback = workflowStateOf({ status: null, workflowStatus: null });
  return sql<WorkflowState>`(case ${sql.join([...byWorkflowStatus, ...byStatus], sql` `)} else ${sql.lit(fallback)} end)`;
}

/** Larger than any epoch in milliseconds: items never published sort last in both directions. */
const NEVER_PUBLISHED_ASC = 8_640_000_000_000_000;
const NEVER_PUBLISHED_DESC = -1;

function sortSql(query: Pick<StudioListQuery, "sort" | "dir">): RawBuilder<string | number> {
  switch (query.sort) {
    case "title":
      return sql<string>`lower(${sql.ref("title")})`;
    case "created":
      return sql<number>`${sql.ref("createdEpoch")}`;
    case "published":
      return sql<number>`coalesce(${sql.ref("publishedEpoch")}, ${sql.lit(
        query.dir === "asc" ? NEVER_PUBLISHED_ASC : NEVER_PUBLISHED_DESC,
      )})`;
    case "updated":
      return sql<number>`${sql.ref("updatedEpoch")}`;
  }
}

/** `%text%` with LIKE's wildcards (and the escape character) taken literally. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The filters except `state` (the counts are per state for these). */
function filterConditions(query: StudioListQuery, actor: Actor): RawBuilder<boolean>[] {
  const out: RawBuilder<boolean>[] = [];
  const eq = (column: string, value: string) => out.push(sql<boolean>`${sql.ref(column)} = ${value}`);
  if (query.section) eq("section", query.section);
  if (query.category) eq("categorySlug", query.category);
  if (query.tier) eq("tier", query.tier);
  if (query.type) eq("type", query.type);
  if (query.author) eq("authorId", query.author === "me" ? (actor.userId ?? "") : query.author);
  if (query.q) {
    const pattern = containsPattern(query.q);
    // SQLite has no default LIKE escape character: it is named for both dialects.
    const like = (column: RawBuilder<unknown>) => sql<boolean>`lower(${column}) like ${pattern} escape '\\'`;
    out.push(
      sql<boolean>`(${like(sql`${sql.ref("title")}`)} or ${like(sql`${sql.ref("slug")}`)} or ${like(
        sql`coalesce(${sql.ref("excerpt")}, '')`,
      )})`,
    );
  }
  return out;
}

const where = (conditions: readonly RawBuilder<boolean>[]) =>
  conditions.length ? sql<boolean>`${sql.join(conditions, sql` and `)}` : sql<boolean>`1 = 1`;

const emptyCounts = (): Record<WorkflowState, number> =>
  Object.fromEntries(WORKFLOW_STATES.map((s) => [s, 0])) as Record<WorkflowState, number>;

/** Writers only: a visitor is asked to sign in (401), anyone else is refused (403). */
function requireWriter(actor: Actor): void {
  if (actor.kind === "api-key" || actor.kind === "service") {
    throw new ForbiddenError(
      "The content studio is for signed-in content writers; API keys and service tokens cannot use it.",
    );
  }
  requireUser(actor);
  if (!canWriteContent(actor.access)) {
    throw new ForbiddenError(
      "Only content creators, editors, content managers and admins may manage content.",
    );
  }
}

export interface StudioListDeps {
  db: Kysely<DB>;
}

export function createContentStudioList(deps: StudioListDeps) {
  const { db } = deps;
  const state = stateSql();

  async function countsFor(conditions: readonly RawBuilder<boolean>[]) {
    const rows = await db
      .selectFrom("content")
      .select([state.as("state"), db.fn.countAll<number | string>().as("n")])
      .where(where(conditions))
      .groupBy(state)
      .execute();
    const counts = emptyCounts();
    for (const row of rows) counts[row.state as WorkflowState] = Number(row.n);
    return counts;
  }

  async function rowsFor(
    conditions: readonly RawBuilder<boolean>[],
    query: StudioListQuery,
  ): Promise<{ rows: StudioRowData[]; hasMore: boolean }> {
    const key = sortSql(query);
    const dir: StudioDirection = query.dir;
    const all = [...conditions];
    if (query.cursor) {
      const op = sql.raw(dir === "asc" ? ">" : "<");
      all.push(sql<boolean>`(${key}, ${sql.ref("id")}) ${op} (${query.cursor.key}, ${query.cursor.id})`);
    }
    const rows = await db
      .selectFrom("content")
      .select([
        "id",
        "slug",
        "title",
        "type",
        "status",
        "workflowStatus",
        "section",
        "categorySlug",
        "tier",
        "authorId",
        "updatedAt",
        "publishedAt",
        "version",
        key.as("sortKey"),
      ])
      .where(where(all))
      .orderBy(key, dir)
      .orderBy("id", dir)
      .limit(query.limit + 1)
      .execute();
    return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }

  async function toRows(rows: readonly StudioRowData[]): Promise<StudioRow[]> {
    const slugs = [...new Set(rows.flatMap((r) => (r.categorySlug ? [r.categorySlug] : [])))];
    const [authors, categories] = await Promise.all([
      displayNamesByIds(
        db,
        rows.map((r) => r.authorId),
      ),
      slugs.length
        ? db.selectFrom("content_category").select(["slug", "label"]).where("slug", "in", slugs).execute()
        : Promise.resolve([]),
    ]);
    const labelOf = new Map(categories.map((c) => [c.slug, c.label]));
    return rows.map((r) =>
      toStudioRow(r, {
        authorName: r.authorId ? (authors.get(r.authorId) ?? null) : null,
        categoryLabel: r.categorySlug ? (labelOf.get(r.categorySlug) ?? null) : null,
      }),
    );
  }

  return {
    /**
     * One page of the management table. `raw` holds the parameters as a URL carries them
     * (unknown names and bad values: 400 naming the parameter).
     */
    async listForStudio(actor: Actor, raw: Record<string, unknown>): Promise<StudioList> {
      requireWriter(actor);
      const query = parseStudioListQuery(raw);
      const filters = filterConditions(query, actor);
      const withState = query.state ? [...filters, sql<boolean>`${state} = ${query.state}`] : filters;
      const [counts, page] = await Promise.all([countsFor(filters), rowsFor(withState, query)]);
      const total = query.state ? counts[query.state] : Object.values(counts).reduce((sum, n) => sum + n, 0);
      const last = page.rows.at(-1);
      return {
        items: await toRows(page.rows),
        nextCursor:
          page.hasMore && last
            ? encodeStudioCursor({
                sort: query.sort,
                dir: query.dir,
                key: query.sort === "title" ? String(last.sortKey) : Number(last.sortKey),
                id: last.id,
              })
            : null,
        counts,
        total,
      };
    },
  };
}

export type StudioListService = ReturnType<typeof createContentStudioList>;

interface StudioRowData {
  id: string;
  slug: string;
  title: string;
  type: string;
  status: string;
  workflowStatus: string | null;
  section: string | null;
  categorySlug: string | null;
  tier: string;
  authorId: string | null;
  updatedAt: string;
  publishedAt: string | null;
  version: number;
  sortKey: string | number;
}
