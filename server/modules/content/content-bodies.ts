/**
 * Content bodies in object storage, written by the server only (decision 011): a body is stored
 * at its item's own key (`body-key.ts`), with size and checksum computed here, and follows the
 * item when its tier, category or slug changes (moved to the new key, the old object deleted), so
 * a body never stays under a lower tier's path. Rows are written first and the object second:
 * a failure in between leaves an item without a readable body, never a body under a foreign key.
 */
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { BadInputError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { contentBodyKeyOf, ownBodyKey } from "./body-key.ts";
import { type Content, type ContentWriteHooks, contentFromRow } from "./content.repo.ts";
import { MAX_BODY_BYTES } from "./content.schemas.ts";
import { bumpContentRevision } from "./content-revision.ts";

export interface ContentBodiesDeps {
  db: Kysely<DB>;
  /** Without a store (some tests), bodies cannot be written and moved bodies are dropped. */
  storage?: ObjectStore;
  hooks?: ContentWriteHooks;
  logger?: { warn(details: object, message: string): void };
}

export function createContentBodies(deps: ContentBodiesDeps) {
  const { db } = deps;

  /** Points the row at `body` (or at no body) without a version bump; tells the search index. */
  async function setBody(
    id: string,
    body: { key: string; size: number; checksum: string } | null,
  ): Promise<Content> {
    const row = await db
      .updateTable("content")
      .set({
        bodyS3Key: body?.key ?? null,
        bodySize: body?.size ?? null,
        bodyChecksum: body?.checksum ?? null,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await bumpContentRevision(db);
    await deps.hooks?.afterWrite?.({ kind: "upsert", id }, db);
    return contentFromRow(row);
  }

  function keyOf(item: Content): string {
    const key = contentBodyKeyOf(item);
    if (key === null) throw new BadInputError("input.slug: this item's fields make no valid body key");
    return key;
  }

  async function deleteQuietly(key: string, contentId: string): Promise<void> {
    try {
      await deps.storage?.delete(key);
    } catch (error) {
      deps.logger?.warn(
        { contentId, key, err: error instanceof Error ? error.message : String(error) },
        "old content body object could not be deleted",
      );
    }
  }

  return {
    /**
     * Stores `text` as `item`'s body at its own key and records size and checksum; `previous`
     * (the body's key before an update moved it) is deleted when it differs.
     */
    async write(item: Content, text: string, previous: string | null = ownBodyKey(item)): Promise<Content> {
      const bytes = new TextEncoder().encode(text);
      if (bytes.byteLength > MAX_BODY_BYTES) {
        throw new BadInputError(`input.body: at most ${MAX_BODY_BYTES} bytes`);
      }
      if (!deps.storage) throw new BadInputError("input.body: no object storage is configured");
      const key = keyOf(item);
      const checksum = createHash("sha256").update(bytes).digest("hex");
      await deps.storage.put(key, bytes, {
        contentType: "text/markdown; charset=utf-8",
        metadata: { checksum, contentId: item.id },
      });
      const updated = await setBody(item.id, { key, size: bytes.byteLength, checksum });
      if (previous && previous !== key) await deleteQuietly(previous, item.id);
      return updated;
    },

    /**
     * After an update: when the item's own key changed (tier, category or slug), its body moves
     * there and the old object is deleted. A stored key that is not the item's own is dropped.
     */
    async follow(before: Content, after: Content): Promise<Content> {
      const previous = ownBodyKey(before);
      if (!after.bodyS3Key) return after;
      const target = contentBodyKeyOf(after);
      if (after.bodyS3Key === target) return after;
      if (!previous || !deps.storage || target === null) {
        deps.logger?.warn({ contentId: after.id }, "content body left behind: not the item's own key");
        return setBody(after.id, null);
      }
      const object = await deps.storage.get(previous);
      if (!object) return setBody(after.id, null);
      await deps.storage.put(target, object.body, {
        contentType: object.properties.contentType,
        metadata: object.properties.metadata,
      });
      const moved = await setBody(after.id, {
        key: target,
        size: object.body.byteLength,
        checksum: after.bodyChecksum ?? createHash("sha256").update(object.body).digest("hex"),
      });
      await deleteQuietly(previous, after.id);
      return moved;
    },

    /**
     * The stored source of `item`'s body ("" when it has none or the object is missing), whoever
     * asks: callers decide who may read it (the studio: content writers).
     */
    async read(item: Content): Promise<string> {
      const key = ownBodyKey(item);
      if (!key || !deps.storage) return "";
      const object = await deps.storage.get(key);
      if (!object) {
        deps.logger?.warn({ contentId: item.id, key }, "content body object missing");
        return "";
      }
      return new TextDecoder().decode(object.body);
    },

    /** After a delete: the item's own body object goes too. */
    async removed(item: Content): Promise<void> {
      const key = ownBodyKey(item);
      if (key) await deleteQuietly(key, item.id);
    },
  };
}

export type ContentBodies = ReturnType<typeof createContentBodies>;
