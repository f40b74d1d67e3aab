/**
 * The content library's administration (issue 14, /admin/content; docs/api/admin-content.md):
 * the featured items and their order, the categories (create, edit, order, hide/show) and the
 * collections (content items of type `collection` whose members are `related`). Access: the
 * `content.admin` operation (platform administrators holding content:manage), checked before
 * anything is read; API keys and service tokens are refused.
 *
 * - Featured order is curation, not content: it is written in one transaction (featured and
 *   featuredOrder of every item concerned, no new content version) after checking that the
 *   featured list is still the one the administrator saw (`version`, a digest of the list:
 *   409 STALE_VERSION otherwise). The content revision goes up, so every process drops its
 *   cached pages (decision 005).
 * - Categories are written here (content_category belongs to this module); duplicate slugs are
 *   409 naming `slug`, bad fields 400 naming the field. Hidden categories (`isActive` false)
 *   leave readers' navigation and listings; their items stay readable under their own rules.
 * - Collections go through the content operations every channel uses (create, update and the
 *   workflow's transitions): an administrator without content:publish cannot publish, hide or
 *   change a published collection (decision 017), and is told so.
 *
 * Every write is one audit row with the actor, the target and what changed.
 */
import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { z } from "zod";
import {
  adminAccess,
  canPublishContent,
  TIERS,
  type Tier,
  type WorkflowState,
  workflowStateOf,
} from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import {
  BadInputError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  StaleVersionError,
  UnauthenticatedError,
} from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import type { Content } from "./content.repo.ts";
import { createContentRepo } from "./content.repo.ts";
import type { ContentService } from "./content.service.ts";
import { type ContentCategory, createContentCategoryRepo } from "./content-category.repo.ts";
import { bumpContentRevision } from "./content-revision.ts";
import type { ContentStudioService } from "./content-studio.service.ts";
import { SECTIONS } from "./sections.ts";

export interface ContentAdminDeps {
  db: Kysely<DB>;
  contents: ContentService;
  studio: ContentStudioService;
  /** Called after every write: this process reads the content revision and drops stale pages. */
  changed?: () => Promise<void>;
}

/** One item as the admin lists show it (featured list, collection members, the picker). */
export interface AdminContentRef {
  id: string;
  slug: string;
  title: string;
  type: string;
  state: WorkflowState;
  tier: string;
  section: string | null;
  publishedAt: string | null;
}

export interface FeaturedList {
  /** The list's digest: send it back with a new order (a different one → 409 STALE_VERSION). */
  version: string;
  items: (AdminContentRef & { featuredOrder: number | null })[];
}

export interface AdminCategory {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  section: string | null;
  /** The section of its published items (what readers see when `section` is null). */
  itemsSection: string | null;
  defaultTier: Tier | null;
  icon: string | null;
  isActive: boolean;
  sortOrder: number;
  /** Items filed under it (every state). */
  itemCount: number;
  updatedAt: string;
}

export interface CategoryList {
  /** The order's digest: send it back with a new order. */
  version: string;
  items: AdminCategory[];
}

export interface AdminCollection {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  tier: string;
  state: WorkflowState;
  version: number;
  publishedAt: string | null;
  /** Members in order; a slug that no longer exists is listed as missing. */
  members: (AdminContentRef | { slug: string; missing: true })[];
  editUrl: string;
  publicUrl: string;
}

const PICKER_LIMIT = 20;
const COLLECTIONS_LIMIT = 200;
const SECTION_SLUGS = SECTIONS.map((s) => s.slug) as [string, ...string[]];

/** The 400 of a zod parse: the first problem, naming its field. */
function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const problem = "unknown field (it cannot be set here)";
    throw new BadInputError(`${issue.keys.join(", ")}: ${problem}`, {
      field: Object.fromEntries(issue.keys.map((k) => [k, problem])),
    });
  }
  const field = issue.path.map(String).join(".") || "body";
  const problem = issue.code === "invalid_type" && issue.input === undefined ? "required" : issue.message;
  throw new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
}

const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);
const slugSchema = z
  .string({ message: "required" })
  .trim()
  .min(1, "required")
  .max(200, "at most 200 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "use lowercase letters, digits and single hyphens");
const tierSchema = z.enum(TIERS, { message: `expected one of ${TIERS.join(", ")}` });
const idList = (what: string) =>
  z
    .array(z.string().min(1).max(200), { message: `expected a list of ${what}` })
    .max(500, "at most 500 entries")
    .refine((ids) => new Set(ids).size === ids.length, "lists an entry twice");
const noteSchema = z.preprocess(
  blankToNull,
  z.string().trim().max(2000, "at most 2000 characters").nullish(),
);

const categoryFields = {
  slug: slugSchema,
  label: z.string({ message: "required" }).trim().min(1, "required").max(200, "at most 200 characters"),
  description: z.preprocess(blankToNull, z.string().trim().max(2000, "at most 2000 characters").nullish()),
  section: z.preprocess(
    blankToNull,
    z.enum(SECTION_SLUGS, { message: `expected one of ${SECTION_SLUGS.join(", ")}` }).nullish(),
  ),
  defaultTier: z.preprocess(blankToNull, tierSchema.nullish()),
  icon: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(100, "at most 100 characters")
      .regex(/^[a-z0-9-]+$/, "an icon name: lowercase letters, digits and hyphens")
      .nullish(),
  ),
  isActive: z.boolean({ message: "expected true or false" }).optional(),
};
export const categoryCreateSchema = z.strictObject(categoryFields);
export const categoryUpdateSchema = z.strictObject({
  ...categoryFields,
  slug: slugSchema.optional(),
  label: categoryFields.label.optional(),
});
export const orderSchema = z.strictObject({
  version: z.string({ message: "required" }).min(1, "required").max(100),
  ids: idList("ids"),
  note: noteSchema,
});
export const collectionCreateSchema = z.strictObject({
  title: z.string({ message: "required" }).trim().min(1, "required").max(300, "at most 300 characters"),
  slug: slugSchema,
  description: z.preprocess(blankToNull, z.string().trim().max(2000, "at most 2000 characters").nullish()),
  tier: tierSchema.default("Free"),
  section: categoryFields.section,
});
export const collectionUpdateSchema = z.strictObject({
  version: z.number({ message: "expected the version last read" }).int().min(1),
  title: collectionCreateSchema.shape.title.optional(),
  slug: slugSchema.optional(),
  description: collectionCreateSchema.shape.description,
  tier: tierSchema.optional(),
  section: categoryFields.section,
  members: idList("member slugs").optional(),
});
export const versionOnlySchema = z.strictObject({
  version: z.number({ message: "expected the version last read" }).int().min(1),
  note: noteSchema,
});
export const pickerSchema = z.strictObject({
  q: z.string().trim().max(200, "at most 200 characters").optional(),
  type: z.enum(["any", "collection", "not-collection"]).optional(),
});

/** The actor's user id when it may administer the content library; 401/403 otherwise. */
export function requireContentAdmin(actor: Actor): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in first.");
  if (actor.kind !== "user" || !actor.userId) {
    throw new ForbiddenError(
      "The content library is administered by a signed-in platform administrator; API keys and service tokens are refused.",
    );
  }
  const decision = adminAccess("content.admin", actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  return actor.userId;
}

const digest = (parts: readonly string[]) =>
  createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 20);

function refOf(item: Content): AdminContentRef {
  return {
    id: item.id,
    slug: item.slug,
    title: item.title,
    type: item.type,
    state: workflowStateOf(item),
    tier: item.tier,
    section: item.section,
    publishedAt: item.publishedAt,
  };
}

/** `rows` in the order of `ids`. */
function inOrder(ids: readonly { id: string }[], rows: readonly Content[]): Content[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [row] : [];
  });
}

const asTier = (value: string | null): Tier | null =>
  value !== null && (TIERS as readonly string[]).includes(value) ? (value as Tier) : null;

export function createContentAdminService(deps: ContentAdminDeps) {
  const { db } = deps;
  const contentRepo = createContentRepo(db);
  const categories = createContentCategoryRepo(db);
  const audit = createAuditRepo(db);

  /** Every featured item (any state) in featured order: featuredOrder, then newest published. */
  async function featuredRows(executor: Kysely<DB>): Promise<Content[]> {
    const ids = await executor
      .selectFrom("content")
      .select("id")
      .where("featured", "=", true)
      .orderBy(sql`case when ${sql.ref("featuredOrder")} is null then 1 else 0 end`)
      .orderBy("featuredOrder", "asc")
      .orderBy("publishedAt", "desc")
      .orderBy("id", "desc")
      .limit(500)
      .execute();
    return inOrder(ids, await createContentRepo(executor).getManyByIds(ids.map((r) => r.id)));
  }

  const featuredVersion = (rows: readonly Content[]) =>
    digest(rows.map((r) => `${r.id}:${r.featuredOrder ?? ""}`));

  async function featuredList(): Promise<FeaturedList> {
    const rows = await featuredRows(db);
    return {
      version: featuredVersion(rows),
      items: rows.map((r) => ({ ...refOf(r), featuredOrder: r.featuredOrder })),
    };
  }

  async function categoryList(): Promise<CategoryList> {
    const [rows, counts, sections] = await Promise.all([
      categories.list({ includeInactive: true }),
      db
        .selectFrom("content")
        .select(["categorySlug", db.fn.countAll<number>().as("n")])
        .groupBy("categorySlug")
        .execute(),
      db
        .selectFrom("content")
        .select(["categorySlug", "section"])
        .where("status", "=", "published")
        .groupBy(["categorySlug", "section"])
        .execute(),
    ]);
    const bySlug = new Map(counts.map((c) => [c.categorySlug, Number(c.n)]));
    const sectionOf = new Map(sections.map((r) => [r.categorySlug, r.section]));
    return {
      version: digest(rows.map((c) => `${c.id}:${c.sortOrder}`)),
      items: rows.map((c) => adminCategory(c, bySlug.get(c.slug) ?? 0, sectionOf.get(c.slug) ?? null)),
    };
  }

  function adminCategory(c: ContentCategory, itemCount: number, itemsSection: string | null): AdminCategory {
    return {
      id: c.id,
      slug: c.slug,
      label: c.label,
      description: c.description,
      section: c.section,
      itemsSection,
      defaultTier: asTier(c.defaultTier),
      icon: c.icon,
      isActive: c.isActive,
      sortOrder: c.sortOrder,
      itemCount,
      updatedAt: c.updatedAt,
    };
  }

  async function categoryById(id: string): Promise<AdminCategory> {
    const found = (await categoryList()).items.find((c) => c.id === id);
    if (!found) throw new NotFoundError("content category", id);
    return found;
  }

  async function slugTaken(slug: string, except: string | null): Promise<void> {
    const other = await categories.getBySlug(slug);
    if (other && other.id !== except) {
      const problem = `already used by the category “${other.label}”`;
      throw new ConflictError(`slug: ${problem}`, { field: { slug: problem } });
    }
  }

  async function collectionOf(item: Content): Promise<AdminCollection> {
    const members = item.related.length
      ? await db.selectFrom("content").selectAll().where("slug", "in", item.related).execute()
      : [];
    const bySlug = new Map(
      (members.length ? await contentRepo.getManyByIds(members.map((m) => m.id)) : []).map((m) => [
        m.slug,
        m,
      ]),
    );
    return {
      id: item.id,
      slug: item.slug,
      title: item.title,
      description: item.excerpt,
      tier: item.tier,
      state: workflowStateOf(item),
      version: item.version,
      publishedAt: item.publishedAt,
      members: item.related.map((slug) => {
        const m = bySlug.get(slug);
        return m ? refOf(m) : { slug, missing: true as const };
      }),
      editUrl: `/content/${item.id}/edit`,
      publicUrl: `/collection/${item.slug}`,
    };
  }

  async function collectionRow(id: string): Promise<Content> {
    const item = await contentRepo.getById(id);
    if (item?.type !== "collection") throw new NotFoundError("collection", id);
    return item;
  }

  /** Publishing and hiding are the workflow's publishers' (decision 017): refused before any change. */
  function requirePublisher(actor: Actor, what: string): void {
    if (!canPublishContent(actor.access)) {
      throw new ForbiddenError(
        `${what} needs the content:publish permission (decision 017); ask an editor or the platform owner.`,
      );
    }
  }

  /** Member slugs that exist, are not the collection itself and are not collections (400 otherwise). */
  async function checkMembers(slugs: readonly string[], self: string): Promise<void> {
    if (slugs.includes(self)) {
      const problem = "a collection cannot contain itself";
      throw new BadInputError(`members: ${problem}`, { field: { members: problem } });
    }
    if (slugs.length === 0) return;
    const rows = await db
      .selectFrom("content")
      .select(["slug"])
      .where("slug", "in", [...slugs])
      .execute();
    const found = new Set(rows.map((r) => r.slug));
    const missing = slugs.filter((s) => !found.has(s));
    if (missing.length) {
      const problem = `no content item has the slug ${missing.map((s) => `“${s}”`).join(", ")}`;
      throw new BadInputError(`members: ${problem}`, { field: { members: problem } });
    }
  }

  return {
    async featured(actor: Actor): Promise<FeaturedList> {
      requireContentAdmin(actor);
      return featuredList();
    },

    /**
     * Makes `ids` the featured items in this order (every other item stops being featured), if
     * the featured list is still the one `version` describes.
     */
    async saveFeatured(actor: Actor, input: unknown): Promise<FeaturedList> {
      const actorId = requireContentAdmin(actor);
      const { version, ids, note } = parseBody(orderSchema, input);
      await inTransaction(db, async (trx) => {
        const current = await featuredRows(trx);
        if (featuredVersion(current) !== version) {
          throw new StaleVersionError(
            "The featured list was changed by someone else since you opened it; reload to see it, then make your change again.",
            { field: { version: "the featured list changed meanwhile" } },
          );
        }
        const found = ids.length
          ? await trx.selectFrom("content").select(["id"]).where("id", "in", ids).execute()
          : [];
        const known = new Set(found.map((r) => r.id));
        const unknown = ids.filter((id) => !known.has(id));
        if (unknown.length) {
          const problem = `no content item has the id ${unknown.join(", ")}`;
          throw new BadInputError(`ids: ${problem}`, { field: { ids: problem } });
        }
        const removed = current.filter((r) => !ids.includes(r.id)).map((r) => r.id);
        if (removed.length) {
          await trx
            .updateTable("content")
            .set({ featured: false, featuredOrder: null })
            .where("id", "in", removed)
            .execute();
        }
        for (const [i, id] of ids.entries()) {
          await trx
            .updateTable("content")
            .set({ featured: true, featuredOrder: i + 1 })
            .where("id", "=", id)
            .execute();
        }
        await bumpContentRevision(trx);
        const before = current.map((r) => r.id);
        await createAuditRepo(trx).append({
          action: "featured_reordered",
          actorId,
          targetType: "content",
          targetId: null,
          details: {
            before,
            after: ids,
            added: ids.filter((id) => !before.includes(id)),
            removed,
            ...(note ? { note } : {}),
          },
        });
      });
      await deps.changed?.();
      return featuredList();
    },

    /** Content items by title or slug for the pickers (every state), newest change first. */
    async pick(actor: Actor, query: unknown): Promise<AdminContentRef[]> {
      requireContentAdmin(actor);
      const { q, type } = parseBody(pickerSchema, query);
      let select = db.selectFrom("content").select("id");
      if (q) {
        const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        select = select.where((eb) =>
          eb.or([
            eb(sql`lower(${sql.ref("title")})`, "like", sql`${like} escape '\\'`),
            eb(sql`lower(${sql.ref("slug")})`, "like", sql`${like} escape '\\'`),
          ]),
        );
      }
      if (type === "collection") select = select.where("type", "=", "collection");
      if (type === "not-collection") select = select.where("type", "!=", "collection");
      const ids = await select.orderBy("updatedAt", "desc").orderBy("id").limit(PICKER_LIMIT).execute();
      return inOrder(ids, await contentRepo.getManyByIds(ids.map((r) => r.id))).map(refOf);
    },

    async categories(actor: Actor): Promise<CategoryList> {
      requireContentAdmin(actor);
      return categoryList();
    },

    async createCategory(actor: Actor, input: unknown): Promise<AdminCategory> {
      const actorId = requireContentAdmin(actor);
      const data = parseBody(categoryCreateSchema, input);
      await slugTaken(data.slug, null);
      const last = await db
        .selectFrom("content_category")
        .select(db.fn.max("sortOrder").as("max"))
        .executeTakeFirst();
      let created: ContentCategory;
      try {
        created = await categories.create({
          slug: data.slug,
          label: data.label,
          description: data.description ?? null,
          section: data.section ?? null,
          defaultTier: data.defaultTier ?? null,
          icon: data.icon ?? null,
          isActive: data.isActive ?? true,
          sortOrder: Number(last?.max ?? 0) + 10,
        });
      } catch (error) {
        if (error instanceof ConflictError) {
          const problem = "already used by another category";
          throw new ConflictError(`slug: ${problem}`, { field: { slug: problem }, cause: error });
        }
        throw error;
      }
      await audit.append({
        action: "category_created",
        actorId,
        targetType: "content_category",
        targetId: created.id,
        details: { slug: created.slug, label: created.label, isActive: created.isActive },
      });
      await deps.changed?.();
      return categoryById(created.id);
    },

    async updateCategory(actor: Actor, id: string, input: unknown): Promise<AdminCategory> {
      const actorId = requireContentAdmin(actor);
      const data = parseBody(categoryUpdateSchema, input);
      const current = await categories.getById(id);
      if (!current) throw new NotFoundError("content category", id);
      if (data.slug !== undefined) await slugTaken(data.slug, id);
      if (data.slug !== undefined && data.slug !== current.slug) {
        // Items carry their category's slug, and their bodies are stored under it (body-key.ts):
        // renaming a category that holds items would orphan them, so it is refused.
        const held = await db
          .selectFrom("content")
          .select(db.fn.countAll<number>().as("n"))
          .where("categorySlug", "=", current.slug)
          .executeTakeFirst();
        const n = Number(held?.n ?? 0);
        if (n > 0) {
          const problem = `${n === 1 ? "1 item is" : `${n} items are`} filed under “${current.slug}”: move them to another category first`;
          throw new ConflictError(`slug: ${problem}`, { field: { slug: problem } });
        }
      }
      const patch = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
      const changed = Object.keys(patch).filter(
        (k) => (current as unknown as Record<string, unknown>)[k] !== patch[k],
      );
      if (changed.length === 0) return categoryById(id);
      try {
        await categories.update(id, patch);
      } catch (error) {
        if (error instanceof ConflictError) {
          const problem = "already used by another category";
          throw new ConflictError(`slug: ${problem}`, { field: { slug: problem }, cause: error });
        }
        throw error;
      }
      await audit.append({
        action: "category_updated",
        actorId,
        targetType: "content_category",
        targetId: id,
        details: {
          changed,
          before: JSON.parse(
            JSON.stringify(
              Object.fromEntries(
                changed.map((k) => [k, (current as unknown as Record<string, unknown>)[k] ?? null]),
              ),
            ),
          ),
          after: JSON.parse(JSON.stringify(Object.fromEntries(changed.map((k) => [k, patch[k] ?? null])))),
        },
      });
      await deps.changed?.();
      return categoryById(id);
    },

    /** Puts every category in the order of `ids` (all of them, once each). */
    async orderCategories(actor: Actor, input: unknown): Promise<CategoryList> {
      const actorId = requireContentAdmin(actor);
      const { version, ids, note } = parseBody(orderSchema, input);
      await inTransaction(db, async (trx) => {
        const rows = await createContentCategoryRepo(trx).list({ includeInactive: true });
        if (digest(rows.map((c) => `${c.id}:${c.sortOrder}`)) !== version) {
          throw new StaleVersionError(
            "The categories were changed by someone else since you opened them; reload, then order them again.",
            { field: { version: "the categories changed meanwhile" } },
          );
        }
        const all = new Set(rows.map((c) => c.id));
        if (ids.length !== all.size || ids.some((id) => !all.has(id))) {
          const problem = "list every category exactly once";
          throw new BadInputError(`ids: ${problem}`, { field: { ids: problem } });
        }
        for (const [i, id] of ids.entries()) {
          await trx
            .updateTable("content_category")
            .set({ sortOrder: (i + 1) * 10 })
            .where("id", "=", id)
            .execute();
        }
        await bumpContentRevision(trx);
        await createAuditRepo(trx).append({
          action: "category_reordered",
          actorId,
          targetType: "content_category",
          targetId: null,
          details: { before: rows.map((c) => c.slug), after: ids, ...(note ? { note } : {}) },
        });
      });
      await deps.changed?.();
      return categoryList();
    },

    async collections(actor: Actor): Promise<AdminCollection[]> {
      requireContentAdmin(actor);
      const rows = await db
        .selectFrom("content")
        .select("id")
        .where("type", "=", "collection")
        .orderBy("title")
        .orderBy("id")
        .limit(COLLECTIONS_LIMIT)
        .execute();
      const items = inOrder(rows, await contentRepo.getManyByIds(rows.map((r) => r.id)));
      return Promise.all(items.map(collectionOf));
    },

    async collection(actor: Actor, id: string): Promise<AdminCollection> {
      requireContentAdmin(actor);
      return collectionOf(await collectionRow(id));
    },

    /** A new collection (a draft, through the content operations), with no members yet. */
    async createCollection(actor: Actor, input: unknown): Promise<AdminCollection> {
      const actorId = requireContentAdmin(actor);
      const data = parseBody(collectionCreateSchema, input);
      const saved = await deps.contents.createItem(
        actor,
        {
          type: "collection",
          title: data.title,
          slug: data.slug,
          excerpt: data.description ?? null,
          tier: data.tier,
          ...(data.section ? { section: data.section } : {}),
          related: [],
        },
        { transitionsOnly: true },
      );
      await audit.append({
        action: "collection_created",
        actorId,
        targetType: "content",
        targetId: saved.item.id,
        details: { slug: saved.item.slug, title: saved.item.title, tier: saved.item.tier },
      });
      await deps.changed?.();
      return collectionOf(saved.item);
    },

    /** Title, slug, description, tier, section and members (in order), at `version`. */
    async updateCollection(actor: Actor, id: string, input: unknown): Promise<AdminCollection> {
      const actorId = requireContentAdmin(actor);
      const data = parseBody(collectionUpdateSchema, input);
      const current = await collectionRow(id);
      if (data.members) await checkMembers(data.members, data.slug ?? current.slug);
      const fields: Record<string, unknown> = {};
      if (data.title !== undefined) fields.title = data.title;
      if (data.slug !== undefined) fields.slug = data.slug;
      if (data.description !== undefined) fields.excerpt = data.description;
      if (data.tier !== undefined) fields.tier = data.tier;
      if (data.section !== undefined) fields.section = data.section;
      if (data.members !== undefined) fields.related = data.members;
      const saved = await deps.contents.updateItem(actor, id, data.version, fields, {
        transitionsOnly: true,
      });
      await audit.append({
        action: "collection_updated",
        actorId,
        targetType: "content",
        targetId: id,
        details: {
          changed: Object.keys(fields),
          ...(data.members ? { membersBefore: current.related, membersAfter: data.members } : {}),
        },
      });
      await deps.changed?.();
      return collectionOf(saved.item);
    },

    /** Hides a collection from readers: the workflow's archive (publishers only). */
    async hideCollection(actor: Actor, id: string, input: unknown): Promise<AdminCollection> {
      const actorId = requireContentAdmin(actor);
      const { version, note } = parseBody(versionOnlySchema, input);
      const current = await collectionRow(id);
      if (current.status === "published" || workflowStateOf(current) === "scheduled") {
        requirePublisher(actor, "Hiding a published collection");
      }
      const { item } = await deps.studio.transition(actor, id, { action: "archive", version, notes: note });
      await audit.append({
        action: "collection_hidden",
        actorId,
        targetType: "content",
        targetId: id,
        details: { slug: item.slug, ...(note ? { note } : {}) },
      });
      await deps.changed?.();
      return collectionOf(await collectionRow(id));
    },

    /**
     * Shows a collection to readers: the workflow's publish (an archived one is restored to a
     * draft first, then published). Publishers only.
     */
    async showCollection(actor: Actor, id: string, input: unknown): Promise<AdminCollection> {
      const actorId = requireContentAdmin(actor);
      const { version, note } = parseBody(versionOnlySchema, input);
      const current = await collectionRow(id);
      requirePublisher(actor, "Showing a collection to readers");
      let at = version;
      if (workflowStateOf(current) === "archived") {
        at = (await deps.studio.transition(actor, id, { action: "restore", version: at, notes: note })).item
          .version;
      }
      const { item } = await deps.studio.transition(actor, id, {
        action: "publish",
        version: at,
        notes: note,
      });
      await audit.append({
        action: "collection_shown",
        actorId,
        targetType: "content",
        targetId: id,
        details: { slug: item.slug, ...(note ? { note } : {}) },
      });
      await deps.changed?.();
      return collectionOf(await collectionRow(id));
    },
  };
}

export type ContentAdminService = ReturnType<typeof createContentAdminService>;
