/**
 * The studio's content operations (decision 017), for content writers only: the editor's view of
 * an item (every field, the body source, the actions this actor may take), workflow transitions
 * with who and when, the history of transitions, saved versions with a readable diff and restore,
 * the slug check, and bulk actions over the same operations. Saves themselves are the content
 * service's create and update (`content.service.ts`), shared with GraphQL.
 */
import { diffLines } from "diff";
import type { Kysely } from "kysely";
import { z } from "zod";
import {
  canWriteContent,
  decideWorkflowTransition,
  isWorkflowAction,
  parseTier,
  WORKFLOW_ACTIONS,
  type WorkflowAction,
  type WorkflowState,
  workflowStateOf,
} from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { BadInputError, ForbiddenError, isAppError, NotFoundError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { type Actor, requireUser } from "../actor.ts";
import { accountNamesByIds, displayNamesByIds } from "../users/display-names.ts";
import { type Content, type ContentWriteHooks, createContentRepo } from "./content.repo.ts";
import type { ContentService } from "./content.service.ts";
import { createContentBodies } from "./content-bodies.ts";
import {
  createContentHistoryRepo,
  type StoredVersion,
  type StoredWorkflowEvent,
  snapshotOf,
  VERSIONED_FIELDS,
} from "./content-history.repo.ts";
import { viewContent } from "./content-projection.ts";
import { decideOrThrow, explainConflict } from "./content-saves.ts";
import type {
  BulkAction,
  BulkResult,
  SlugCheck,
  StudioItem,
  StudioRow,
  VersionDiff,
  VersionSnapshot,
  VersionSummary,
  WorkflowEvent,
} from "./studio.types.ts";
import { BULK_ACTIONS } from "./studio.types.ts";
import { toStudioRow } from "./studio-row.ts";

export interface ContentStudioDeps {
  db: Kysely<DB>;
  storage?: ObjectStore;
  hooks?: ContentWriteHooks;
  logger?: { warn(details: object, message: string): void };
  now?: () => number;
  /** The saves (create, update), shared with the other channels. */
  contents: ContentService;
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NOTES_MAX = 5000;

export const transitionSchema = z.strictObject({
  action: z.string().refine(isWorkflowAction, `expected one of ${WORKFLOW_ACTIONS.join(", ")}`),
  version: z.number().int().min(1),
  at: z.string().max(100).nullable().optional(),
  notes: z.string().max(NOTES_MAX, `at most ${NOTES_MAX} characters`).nullable().optional(),
});

export const bulkSchema = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1, "choose at least one item").max(100, "at most 100 items"),
  action: z.enum(BULK_ACTIONS, { message: `expected one of ${BULK_ACTIONS.join(", ")}` }),
  value: z.string().max(200).optional(),
});

/** The first problem of a zod parse as a 400 naming its field. */
function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const problem = "unknown field (it cannot be set)";
    throw new BadInputError(`${issue.keys.join(", ")}: ${problem}`, {
      field: Object.fromEntries(issue.keys.map((k) => [k, problem])),
    });
  }
  const field = issue.path.map(String).join(".") || "body";
  const problem = issue.code === "invalid_type" && issue.input === undefined ? "required" : issue.message;
  throw new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
}

/** A stored value as text for the diff ("" for none). */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function createContentStudioService(deps: ContentStudioDeps) {
  const { db, contents } = deps;
  const repo = createContentRepo(db, deps.hooks);
  const bodies = createContentBodies(deps);
  const history = createContentHistoryRepo(db);
  const now = deps.now ?? Date.now;

  function requireWriter(actor: Actor): string {
    const userId = requireUser(actor);
    if (!canWriteContent(actor.access)) {
      throw new ForbiddenError("only content creators, editors, content managers and admins use the studio");
    }
    return userId;
  }

  /**
   * The item for a writer. Reads answer 404 to anyone else (the studio does not say what exists);
   * changes (`change`) answer 401 to visitors and 403 to other users, like every content write.
   */
  async function itemFor(
    actor: Actor,
    id: string,
    change = false,
  ): Promise<{ item: Content; userId: string }> {
    if (!change && (actor.kind !== "user" || !canWriteContent(actor.access))) {
      throw new NotFoundError("content", id);
    }
    const userId = requireWriter(actor);
    const item = await repo.getById(id);
    if (!item) throw new NotFoundError("content", id);
    return { item, userId };
  }

  /** The actions `actor` may take on an item in `state` now (inputs aside: a time, notes). */
  function actionsOf(actor: Actor, state: WorkflowState): WorkflowAction[] {
    const at = new Date(now());
    const later = new Date(at.getTime() + 3_600_000);
    return WORKFLOW_ACTIONS.filter(
      (action) =>
        decideWorkflowTransition(actor.access, state, { action, at: later, notes: "-", now: at }).allowed,
    );
  }

  async function studioItem(actor: Actor, item: Content, body: string): Promise<StudioItem> {
    const [bylines, accounts] = await Promise.all([
      displayNamesByIds(db, [item.authorId]),
      accountNamesByIds(db, [item.lastEditedBy]),
    ]);
    const state = workflowStateOf(item);
    return {
      ...viewContent(actor, item),
      state,
      body,
      actions: actionsOf(actor, state),
      authorName: item.authorId ? (bylines.get(item.authorId) ?? null) : null,
      lastEditedByName: item.lastEditedBy ? (accounts.get(item.lastEditedBy) ?? null) : null,
      publicUrl: `/content/${item.slug}`,
    };
  }

  async function studioRows(items: readonly Content[]): Promise<StudioRow[]> {
    const [names, labels] = await Promise.all([
      displayNamesByIds(
        db,
        items.map((i) => i.authorId),
      ),
      categoryLabels(items.flatMap((i) => (i.categorySlug ? [i.categorySlug] : []))),
    ]);
    return items.map((item) =>
      toStudioRow(item, {
        authorName: item.authorId ? (names.get(item.authorId) ?? null) : null,
        categoryLabel: item.categorySlug ? (labels.get(item.categorySlug) ?? null) : null,
      }),
    );
  }

  async function categoryLabels(slugs: string[]): Promise<Map<string, string>> {
    if (slugs.length === 0) return new Map();
    const rows = await db
      .selectFrom("content_category")
      .select(["slug", "label"])
      .where("slug", "in", [...new Set(slugs)])
      .execute();
    return new Map(rows.map((r) => [r.slug, r.label]));
  }

  async function toEvents(events: StoredWorkflowEvent[]): Promise<WorkflowEvent[]> {
    const names = await accountNamesByIds(
      db,
      events.map((e) => e.actorId),
    );
    return events.map((e) => ({
      id: e.id,
      action: e.action as WorkflowEvent["action"],
      from: e.fromState as WorkflowState,
      to: e.toState as WorkflowState,
      actorId: e.actorId,
      actorName: e.actorId ? (names.get(e.actorId) ?? null) : null,
      at: e.at,
      notes: e.notes,
      publishedAt: e.publishedAt,
    }));
  }

  async function toSummaries(versions: StoredVersion[]): Promise<VersionSummary[]> {
    const names = await accountNamesByIds(
      db,
      versions.map((v) => v.authorId),
    );
    return versions.map((v) => ({
      version: v.version,
      authorId: v.authorId,
      authorName: v.authorId ? (names.get(v.authorId) ?? null) : null,
      createdAt: v.createdAt,
      title: String(v.snapshot.fields.title ?? ""),
      note: v.note,
    }));
  }

  function readVersionNumber(value: unknown, field: string): number {
    const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
      const problem = "expected a version number (a positive whole number)";
      throw new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
    }
    return n;
  }

  async function storedVersion(item: Content, n: number, field: string): Promise<StoredVersion> {
    const found = await history.getVersion(item.id, n);
    if (!found) {
      const problem = `this item has no version ${n}`;
      throw new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
    }
    return found;
  }

  /** A workflow transition of the item at `version`, recorded with who, when and the notes. */
  async function transition(actor: Actor, id: string, input: unknown) {
    const { item: current, userId } = await itemFor(actor, id, true);
    const request = parseBody(transitionSchema, input);
    const action = request.action as WorkflowAction;
    const at = new Date(now());
    if (request.at !== undefined && request.at !== null && Number.isNaN(new Date(request.at).getTime())) {
      const problem = "expected an ISO-8601 date and time";
      throw new BadInputError(`at: ${problem}`, { field: { at: problem } });
    }
    const notes = request.notes?.trim() ? request.notes.trim() : null;
    const change = decideOrThrow(actor, workflowStateOf(current), { action, at: request.at, notes, now: at });
    const { row, event } = await inTransaction(db, async (trx) => {
      const updated = await createContentRepo(trx, deps.hooks).update(id, request.version, {
        status: change.status,
        workflowStatus: change.to,
        ...(change.publishedAt ? { publishedAt: change.publishedAt } : {}),
        ...(notes ? { reviewerNotes: notes } : {}),
        lastEditedBy: userId,
      });
      const stored = await createContentHistoryRepo(trx).addEvent({
        contentId: id,
        action,
        fromState: change.from,
        toState: change.to,
        actorId: userId,
        at: at.toISOString(),
        notes,
        publishedAt: change.publishedAt ? change.publishedAt.toISOString() : null,
      });
      return { row: updated, event: stored };
    }).catch(async (error) => {
      throw await explainConflict(db, id, error);
    });
    const [shownEvent] = await toEvents([event]);
    return { item: await studioItem(actor, row, await bodies.read(row)), event: shownEvent! };
  }

  return {
    /** The editor's view of an item (writers only: 404 for anyone else). */
    async get(actor: Actor, id: string): Promise<StudioItem> {
      const { item } = await itemFor(actor, id);
      return studioItem(actor, item, await bodies.read(item));
    },

    /** Creates an item over REST: a draft (the workflow moves through transitions). */
    async create(actor: Actor, input: unknown): Promise<StudioItem> {
      const saved = await contents.createItem(actor, input, { transitionsOnly: true });
      return studioItem(actor, saved.item, saved.body);
    },

    /** Saves fields and body at `version` over REST (`version` in the body). */
    async update(actor: Actor, id: string, input: unknown): Promise<StudioItem> {
      const { version, ...fields } = (typeof input === "object" && input !== null ? input : {}) as Record<
        string,
        unknown
      >;
      const saved = await contents.updateItem(actor, id, readVersionNumber(version, "version"), fields, {
        transitionsOnly: true,
      });
      return studioItem(actor, saved.item, saved.body);
    },

    transition,

    /** The item's workflow events, newest first. */
    async history(actor: Actor, id: string): Promise<WorkflowEvent[]> {
      const { item } = await itemFor(actor, id);
      return toEvents(await history.listEvents(item.id));
    },

    /** The item's saved versions, newest first. */
    async versions(actor: Actor, id: string): Promise<VersionSummary[]> {
      const { item } = await itemFor(actor, id);
      return toSummaries(await history.listVersions(item.id));
    },

    /** One saved version with its fields and body. */
    async version(
      actor: Actor,
      id: string,
      n: unknown,
    ): Promise<{ version: VersionSummary; snapshot: VersionSnapshot }> {
      const { item } = await itemFor(actor, id);
      const found = await storedVersion(item, readVersionNumber(n, "version"), "version");
      const [summary] = await toSummaries([found]);
      return { version: summary!, snapshot: found.snapshot };
    },

    /** What changed between two versions (`to` may be "current": the item as stored now). */
    async diff(actor: Actor, id: string, fromRaw: unknown, toRaw: unknown): Promise<VersionDiff> {
      const { item } = await itemFor(actor, id);
      const from = readVersionNumber(fromRaw, "from");
      const current = toRaw === undefined || toRaw === null || toRaw === "current";
      const to = current ? "current" : readVersionNumber(toRaw, "to");
      const before = (await storedVersion(item, from, "from")).snapshot;
      const after =
        to === "current"
          ? snapshotOf(item, await bodies.read(item))
          : (await storedVersion(item, to, "to")).snapshot;
      const fields = VERSIONED_FIELDS.flatMap((field) => {
        const b = shown(before.fields[field]);
        const a = shown(after.fields[field]);
        return a === b ? [] : [{ field, before: b, after: a }];
      });
      const body = diffLines(before.body, after.body).map((part) => ({
        op: part.added ? ("add" as const) : part.removed ? ("remove" as const) : ("same" as const),
        text: part.value,
      }));
      return { from, to, fields, body };
    },

    /**
     * Saves version `from`'s fields and body as a new version of the item (expected at `version`);
     * the workflow state, publication time and reviewer notes stay as they are.
     */
    async restore(actor: Actor, id: string, input: unknown): Promise<StudioItem> {
      const { item } = await itemFor(actor, id, true);
      const record = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
      const from = readVersionNumber(record.from, "from");
      const version = readVersionNumber(record.version, "version");
      const old = await storedVersion(item, from, "from");
      const fields: Record<string, unknown> = {};
      for (const field of VERSIONED_FIELDS) {
        if (Object.hasOwn(old.snapshot.fields, field)) fields[field] = old.snapshot.fields[field];
      }
      fields.body = old.snapshot.body;
      const saved = await contents.updateItem(actor, id, version, fields, {
        note: `Restored from version ${from}`,
      });
      return studioItem(actor, saved.item, saved.body);
    },

    /** Is `slug` free (for another item than `exclude`)? With the first free "slug-N" when not. */
    async checkSlug(actor: Actor, slug: string, exclude: string | null): Promise<SlugCheck> {
      requireWriter(actor);
      if (!SLUG_PATTERN.test(slug) || slug.length > 200) {
        return {
          slug,
          available: false,
          suggestion: null,
          error: "Use lowercase letters, digits and single hyphens (at most 200 characters).",
        };
      }
      const taken = await db
        .selectFrom("content")
        .select(["slug", "id"])
        .where((eb) => eb.or([eb("slug", "=", slug), eb("slug", "like", `${slug}-%`)]))
        .execute();
      const used = new Set(taken.filter((r) => r.id !== exclude).map((r) => r.slug));
      if (!used.has(slug)) return { slug, available: true, suggestion: null };
      let n = 2;
      while (used.has(`${slug}-${n}`)) n++;
      return { slug, available: false, suggestion: `${slug}-${n}` };
    },

    /**
     * One action over many items, each through the same operation as alone (at its current
     * version): a per-row result, one row's refusal never stops the others.
     */
    async bulk(actor: Actor, input: unknown): Promise<BulkResult[]> {
      requireWriter(actor);
      const { ids, action, value } = parseBody(bulkSchema, input);
      const fieldsFor = await bulkFields(action, value);
      const results: BulkResult[] = [];
      for (const id of [...new Set(ids)]) {
        try {
          const { item } = await itemFor(actor, id, true);
          const saved =
            action === "publish" || action === "archive"
              ? (await transition(actor, id, { action, version: item.version })).item
              : (await contents.updateItem(actor, id, item.version, fieldsFor!)).item;
          const row = await repo.getById(saved.id);
          results.push({ id, ok: true, item: (await studioRows([row ?? (saved as Content)]))[0] });
        } catch (error) {
          if (!isAppError(error)) throw error;
          results.push({ id, ok: false, error: { code: error.code, message: error.message } });
        }
      }
      return results;
    },

    rows: studioRows,
  };

  /** The fields a bulk change of category or tier writes (checked once for every row). */
  async function bulkFields(
    action: BulkAction,
    value: string | undefined,
  ): Promise<Record<string, unknown> | null> {
    if (action === "publish" || action === "archive") return null;
    if (action === "set_tier") {
      const tier = parseTier(value ?? "");
      if (!tier) {
        const problem = "expected a tier: Free, Basic, Pro or Enterprise";
        throw new BadInputError(`value: ${problem}`, { field: { value: problem } });
      }
      return { tier };
    }
    const category = value
      ? await db.selectFrom("content_category").selectAll().where("slug", "=", value).executeTakeFirst()
      : undefined;
    if (!category) {
      const problem = "no such category (it may have been deleted)";
      throw new BadInputError(`value: ${problem}`, { field: { value: problem } });
    }
    return {
      category: category.label,
      categoryId: category.id,
      categorySlug: category.slug,
      categoryTier: category.defaultTier ?? null,
    };
  }
}

export type ContentStudioService = ReturnType<typeof createContentStudioService>;
