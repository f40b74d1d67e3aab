/**
 * Applies an import plan (decision 036): users, categories, then content, each keyed by its source
 * item in `import_record` so that a second run updates what changed and leaves the rest alone.
 *
 * - Content is written through the content service every channel uses (`createItem`/`updateItem`):
 *   its validation, versions, workflow events, search indexing and cache revision all happen as
 *   for a save in the studio. The save's actor is the item's author with the operator's rights
 *   (the command line acts as the platform owner); the run itself is one audit row, `content_imported`,
 *   by the system (no actor) with `via`.
 * - A dry run reads everything and writes nothing: the report says what would be created, updated,
 *   left unchanged or skipped.
 * - A bad item (broken front matter, a slug taken by other content or by another item of the same
 *   run, an unknown tier, a save the content rules refuse) is reported as skipped with its reason;
 *   the others go on. A missing image is a warning on its item: the image is dropped to its alt
 *   text and the item is imported.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import { APP_OWNER_GROUP, buildUserContext } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { isAppError } from "../../errors.ts";
import { type Actor, actorForCredential } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { createContentRepo } from "../content/content.repo.ts";
import type { ContentService } from "../content/content.service.ts";
import { createContentCategoryRepo } from "../content/content-category.repo.ts";
import { type MediaService, mediaFileUrl } from "../media/media.service.ts";
import { sniffType } from "../media/media-sniff.ts";
import { createSubscriptionsRepo } from "../subscriptions/subscriptions.repo.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import type {
  ImageRef,
  ImportAction,
  ImportPlan,
  ImportReport,
  RecordKind,
  ReportEntry,
} from "./import.types.ts";
import { createImportRecordsRepo, type ImportRecord, recordKey } from "./import-records.repo.ts";
import { findImages, rewriteImages } from "./markdown-images.ts";

export interface ImportDeps {
  db: Kysely<DB>;
  contents: ContentService;
  media: Pick<MediaService, "store">;
}

export interface ImportOptions {
  dryRun: boolean;
  /** The author of items that name none (or one that is not a user here). */
  defaultAuthorId: string;
  /** Where the run came from, for the audit row ("cli"). */
  via: string;
  progress?: (label: string, done: number, total: number | null) => void;
}

/** Image types stored from a source, and their largest size (the studio's image limit). */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The save's actor: the author, with the operator's (platform owner's) rights. */
export function importActor(userId: string, email: string): Actor {
  return actorForCredential({
    kind: "session",
    context: buildUserContext({
      sub: userId,
      email,
      "cognito:groups": [APP_OWNER_GROUP],
      "custom:tier": "enterprise",
    }),
    scopes: null,
  });
}

function describe(error: unknown): string {
  if (isAppError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

interface LoadedImage {
  ref: string;
  file: string | null;
  bytes: Uint8Array | null;
  hash: string | null;
  contentType: string | null;
  /** Why it cannot be used (missing, not an image, too large). */
  problem: string | null;
}

async function loadImage(image: ImageRef): Promise<LoadedImage> {
  const base = { ref: image.ref, file: image.file, bytes: null, hash: null, contentType: null };
  if (!image.file) return { ...base, problem: `missing image ${image.ref}` };
  try {
    const info = await stat(image.file);
    if (!info.isFile()) return { ...base, problem: `missing image ${image.ref}` };
    if (info.size > IMAGE_MAX_BYTES) return { ...base, problem: `image ${image.ref} is larger than 10 MiB` };
    const bytes = new Uint8Array(await readFile(image.file));
    const sniffed = sniffType(bytes.subarray(0, 512));
    if (!sniffed.contentType || !IMAGE_TYPES.has(sniffed.contentType)) {
      return { ...base, problem: `image ${image.ref} is not a PNG, JPEG, WebP or GIF (${sniffed.label})` };
    }
    return { ...base, bytes, hash: sha256(bytes), contentType: sniffed.contentType, problem: null };
  } catch {
    return { ...base, problem: `missing image ${image.ref}` };
  }
}

export async function runImport(
  deps: ImportDeps,
  plan: ImportPlan,
  options: ImportOptions,
): Promise<ImportReport> {
  const { db } = deps;
  const { dryRun } = options;
  const records = createImportRecordsRepo(db);
  const known = await records.all(plan.source);
  const users = createUsersRepo(db);
  const categories = createContentCategoryRepo(db);
  const contentRepo = createContentRepo(db);
  const entries: ReportEntry[] = [...plan.unreadable];
  const record = (kind: RecordKind, key: string): ImportRecord | undefined => known.get(recordKey(kind, key));
  const remember = async (kind: RecordKind, key: string, targetId: string, checksum: string | null) => {
    await records.put(plan.source, kind, key, targetId, checksum);
    known.set(recordKey(kind, key), {
      source: plan.source,
      kind,
      sourceKey: key,
      targetId,
      checksum,
      importedAt: "",
      updatedAt: "",
    });
  };
  const total = plan.users.length + plan.categories.length + plan.contents.length;
  let done = 0;
  const tick = (label: string) => options.progress?.(label, ++done, total);

  // Users (authors and members): made once; an existing account is never changed.
  const userIds = new Map<string, { id: string | null; email: string }>();
  const defaultAuthor = await users.getById(options.defaultAuthorId);
  if (!defaultAuthor) throw new Error(`the default author ${options.defaultAuthorId} is not a user`);
  const groupsReady = new Set<string>();
  async function ensureGroup(name: string) {
    if (groupsReady.has(name)) return;
    const found = await db.selectFrom("group").select("name").where("name", "=", name).executeTakeFirst();
    if (!found) await users.ensureGroups([{ name }]);
    groupsReady.add(name);
  }
  for (const candidate of plan.users) {
    tick("users");
    const email = candidate.email.trim().toLowerCase();
    const base = { kind: "user" as const, source: candidate.sourceKey, name: email };
    if (candidate.problems.length) {
      entries.push({ ...base, action: "skipped", reason: candidate.problems.join("; "), id: null });
      continue;
    }
    const existing = await users.getByEmail(email);
    if (existing) {
      userIds.set(email, { id: existing.id, email });
      const ours = record("user", candidate.sourceKey)?.targetId === existing.id;
      if (!dryRun && !ours) await remember("user", candidate.sourceKey, existing.id, null);
      entries.push({
        ...base,
        action: "unchanged",
        id: existing.id,
        ...(ours ? {} : { warnings: ["already a user here: the account is left as it is"] }),
      });
      continue;
    }
    if (dryRun) {
      userIds.set(email, { id: null, email });
      entries.push({ ...base, action: "created", id: null });
      continue;
    }
    try {
      const created = await users.create({ name: candidate.name || email, email, bio: candidate.bio });
      for (const group of candidate.groups) await ensureGroup(group);
      if (candidate.groups.length) await users.addAll(created.id, candidate.groups);
      if (candidate.tier && candidate.tier !== "Free") {
        await createSubscriptionsRepo(db).create({
          userId: created.id,
          tier: candidate.tier.toLowerCase(),
          status: "active",
          source: `import:${plan.source}`,
          startedAt: new Date(),
        });
      }
      await createAuditRepo(db).append({
        action: "user_created",
        actorId: null,
        targetType: "user",
        targetId: created.id,
        details: {
          via: options.via,
          import: plan.source,
          groups: candidate.groups,
          tier: candidate.tier ?? "Free",
        },
      });
      await remember("user", candidate.sourceKey, created.id, null);
      userIds.set(email, { id: created.id, email });
      entries.push({ ...base, action: "created", id: created.id });
    } catch (error) {
      entries.push({ ...base, action: "skipped", reason: describe(error), id: null });
    }
  }

  // Categories: made or updated from the source (folders, _category_.json, _index.md).
  const categoriesMade = new Set<string>();
  for (const candidate of plan.categories) {
    tick("categories");
    const base = { kind: "category" as const, source: candidate.sourceKey, name: candidate.slug };
    const checksum = sha256(
      JSON.stringify([
        candidate.slug,
        candidate.label,
        candidate.description,
        candidate.section,
        candidate.defaultTier,
      ]),
    );
    const rec = record("category", candidate.sourceKey);
    const mine = rec ? await categories.getById(rec.targetId) : null;
    const bySlug = await categories.getBySlug(candidate.slug);
    try {
      if (mine && mine.slug === candidate.slug) {
        if (rec?.checksum === checksum) {
          entries.push({ ...base, action: "unchanged", id: mine.id });
        } else {
          if (!dryRun) {
            await categories.update(mine.id, {
              label: candidate.label,
              description: candidate.description,
              section: candidate.section,
              defaultTier: candidate.defaultTier,
            });
            await remember("category", candidate.sourceKey, mine.id, checksum);
          }
          entries.push({ ...base, action: "updated", id: mine.id });
        }
        categoriesMade.add(candidate.slug);
      } else if (bySlug) {
        // A category of this hub (or of another import) with this slug: items are filed under it.
        entries.push({
          ...base,
          action: "unchanged",
          id: bySlug.id,
          warnings: ["a category with this slug already exists here: items are filed under it as it is"],
        });
        categoriesMade.add(candidate.slug);
      } else {
        let id: string | null = null;
        if (!dryRun) {
          const last = await db
            .selectFrom("content_category")
            .select(db.fn.max("sortOrder").as("max"))
            .executeTakeFirst();
          const created = await categories.create({
            slug: candidate.slug,
            label: candidate.label,
            description: candidate.description,
            section: candidate.section,
            defaultTier: candidate.defaultTier,
            isActive: true,
            sortOrder: Number(last?.max ?? 0) + 10,
          });
          id = created.id;
          await remember("category", candidate.sourceKey, created.id, checksum);
        }
        entries.push({ ...base, action: "created", id });
        categoriesMade.add(candidate.slug);
      }
    } catch (error) {
      entries.push({ ...base, action: "skipped", reason: describe(error), id: null });
    }
  }

  // Content: slugs used twice in this run are refused for every item after the first.
  const firstWithSlug = new Map<string, string>();
  const duplicateOf = new Map<string, string>();
  for (const c of plan.contents) {
    if (c.problems.length) continue;
    const first = firstWithSlug.get(c.slug);
    if (first === undefined) firstWithSlug.set(c.slug, c.label);
    else duplicateOf.set(c.sourceKey, first);
  }
  const mediaByHash = new Map<string, string>();
  for (const [, rec] of known) if (rec.kind === "media") mediaByHash.set(rec.sourceKey, rec.targetId);

  async function storeImage(image: LoadedImage, ownerId: string, alt: string | null): Promise<string> {
    const hash = image.hash!;
    const existing = mediaByHash.get(hash);
    if (existing) {
      const row = await db
        .selectFrom("media_object")
        .select("id")
        .where("id", "=", existing)
        .executeTakeFirst();
      if (row) return existing;
    }
    const stored = await deps.media.store(ownerId, image.contentType!, image.bytes!, {
      fileName: image.file ? path.basename(image.file) : null,
      alt,
    });
    await remember("media", hash, stored.id, null);
    mediaByHash.set(hash, stored.id);
    return stored.id;
  }

  for (const candidate of plan.contents) {
    tick("content");
    const base = { kind: "content" as const, source: candidate.label, name: candidate.slug };
    const skip = (reason: string) => entries.push({ ...base, action: "skipped", reason, id: null });
    if (candidate.problems.length) {
      skip(candidate.problems.join("; "));
      continue;
    }
    const dup = duplicateOf.get(candidate.sourceKey);
    if (dup !== undefined) {
      skip(`duplicate slug “${candidate.slug}”: ${dup} has it too`);
      continue;
    }
    const rec = record("content", candidate.sourceKey);
    const current = rec ? await contentRepo.getById(rec.targetId) : null;
    const holder = await db
      .selectFrom("content")
      .select(["id", "title"])
      .where("slug", "=", candidate.slug)
      .executeTakeFirst();
    if (holder && holder.id !== current?.id) {
      const ours = [...known.values()].some((r) => r.kind === "content" && r.targetId === holder.id);
      skip(
        ours
          ? `slug “${candidate.slug}” is already used by “${holder.title}”, imported from another item of this source`
          : `slug “${candidate.slug}” is already used by content not from this source (“${holder.title}”)`,
      );
      continue;
    }
    if (candidate.categorySlug && !categoriesMade.has(candidate.categorySlug)) {
      const exists = await categories.getBySlug(candidate.categorySlug);
      if (!exists) {
        skip(`category “${candidate.categorySlug}” does not exist here`);
        continue;
      }
    }
    const warnings = [...candidate.warnings];
    // The author: the one the source names when it is a user here, else the default author.
    let author: { id: string | null; email: string } = { id: defaultAuthor.id, email: defaultAuthor.email };
    if (candidate.author) {
      const key = candidate.author.trim().toLowerCase();
      const found =
        userIds.get(key) ??
        (await users.getByEmail(key).then((u) => (u ? { id: u.id, email: u.email } : null)));
      if (found) author = found;
      else
        warnings.push(`author ${candidate.author} is not a user here: ${defaultAuthor.email} is the author`);
    }
    // Images: the body's and the feature image, read (and hashed) before anything is decided.
    const refs = findImages(candidate.body).flatMap((ref) => {
      const image = candidate.resolveImage(ref);
      return image ? [image] : [];
    });
    const loaded = new Map<string, LoadedImage>();
    for (const image of refs) if (!loaded.has(image.ref)) loaded.set(image.ref, await loadImage(image));
    const feature =
      candidate.featuredImage && "ref" in candidate.featuredImage
        ? await loadImage(candidate.featuredImage)
        : null;
    for (const image of [...loaded.values(), ...(feature ? [feature] : [])]) {
      if (image.problem) warnings.push(image.problem);
    }
    const fields = {
      type: candidate.type,
      title: candidate.title,
      slug: candidate.slug,
      status: candidate.status,
      section: candidate.section,
      categorySlug: candidate.categorySlug,
      tier: candidate.tier,
      rolesRequired: candidate.rolesRequired,
      publishedAt: candidate.publishedAt,
      excerpt: candidate.excerpt,
      tags: candidate.tags,
      featured: candidate.featured,
      seoTitle: candidate.seoTitle,
      metaDescription: candidate.metaDescription,
      featuredImageAlt: candidate.featuredImageAlt,
    };
    const checksum = sha256(
      JSON.stringify({
        fields,
        body: candidate.body,
        author: author.id ?? author.email,
        images: [...loaded.values()].map((i) => [i.ref, i.hash]),
        feature: feature
          ? feature.hash
          : candidate.featuredImage && "url" in candidate.featuredImage
            ? candidate.featuredImage.url
            : null,
      }),
    );
    // The record keeps the digest and the item's version as the import left it ("<digest>@<version>").
    const [recordedDigest, recordedVersion] = (rec?.checksum ?? "").split("@");
    if (current && recordedDigest === checksum) {
      entries.push({
        ...base,
        action: "unchanged",
        id: current.id,
        ...(warnings.length ? { warnings } : {}),
      });
      continue;
    }
    if (current && recordedVersion !== undefined && recordedVersion !== String(current.version)) {
      // Edited here since the import (a new version): the hub's edit is kept, not overwritten.
      skip(
        `changed here since it was imported (version ${recordedVersion} → ${current.version}): not overwritten; delete it here to import it again`,
      );
      continue;
    }
    const action: ImportAction = current ? "updated" : "created";
    if (dryRun) {
      entries.push({ ...base, action, id: current?.id ?? null, ...(warnings.length ? { warnings } : {}) });
      continue;
    }
    try {
      if (!author.id) throw new Error(`author ${author.email} was not created`);
      const ids = new Map<string, string>();
      for (const image of loaded.values()) {
        if (!image.problem) ids.set(image.ref, await storeImage(image, author.id, null));
      }
      const body = rewriteImages(candidate.body, (ref) => {
        const image = loaded.get(ref);
        if (!image) return undefined; // not a local image: left as written
        const id = ids.get(ref);
        return id ? `media:${id}` : null;
      });
      let featuredImage: string | null = null;
      if (feature && !feature.problem) {
        featuredImage = mediaFileUrl(await storeImage(feature, author.id, candidate.featuredImageAlt));
      } else if (candidate.featuredImage && "url" in candidate.featuredImage) {
        featuredImage = candidate.featuredImage.url;
      }
      const input = { ...fields, featuredImage, body, bodyFormat: "markdown" as const };
      const actor = importActor(author.id, author.email);
      const saved = current
        ? await deps.contents.updateItem(actor, current.id, current.version, input, {
            note: `import from ${plan.source}`,
          })
        : await deps.contents.createItem(actor, input);
      await remember("content", candidate.sourceKey, saved.item.id, `${checksum}@${saved.item.version}`);
      entries.push({ ...base, action, id: saved.item.id, ...(warnings.length ? { warnings } : {}) });
    } catch (error) {
      skip(describe(error));
    }
  }

  const summary: Record<ImportAction, number> = { created: 0, updated: 0, unchanged: 0, skipped: 0 };
  for (const entry of entries) summary[entry.action] += 1;
  const report: ImportReport = { source: plan.source, path: plan.path, dryRun, summary, entries };
  if (!dryRun) {
    await createAuditRepo(db).append({
      action: "content_imported",
      actorId: null,
      targetType: "content",
      targetId: null,
      details: { via: options.via, import: plan.source, path: plan.path, ...summary },
    });
  }
  return report;
}
