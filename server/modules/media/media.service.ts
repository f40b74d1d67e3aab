/**
 * Uploaded media (decision 011): content writers register an upload, the server chooses its key
 * under `media/` and hands back a signed PUT link (checked against the storage path rules), and
 * structured data then names the object as `media:<id>`. Only the media's owner (or a platform
 * admin) may reference it in new structured data.
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { canWriteContent } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { ForbiddenError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { signObjectPut, storageActorOf } from "../../storage/sign-object.ts";
import { type Actor, requireUser } from "../actor.ts";
import { parseInput } from "../content/content.schemas.ts";

/** The media types accepted, and the extension each one's key gets. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  "video/mp4": "mp4",
  "video/webm": "webm",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "text/vtt": "vtt",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

/** The largest media object, in bytes (the local store's upload limit). */
export const MEDIA_MAX_BYTES = 25 * 1024 * 1024;

export interface MediaObject {
  id: string;
  key: string;
  ownerId: string | null;
  contentType: string;
  size: number;
  visibility: string;
  createdAt: string;
}

export const mediaRef = (id: string) => `media:${id}`;

const uploadSchema = z.strictObject({
  contentType: z.enum(Object.keys(MEDIA_TYPES) as [string, ...string[]], {
    message: `expected one of ${Object.keys(MEDIA_TYPES).join(", ")}`,
  }),
  size: z.number().int().min(1, "at least 1 byte").max(MEDIA_MAX_BYTES, `at most ${MEDIA_MAX_BYTES} bytes`),
});

export interface MediaServiceDeps {
  db: Kysely<DB>;
  storage?: ObjectStore;
  now?: () => number;
}

export function createMediaService(deps: MediaServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  const fromRow = (row: {
    id: string;
    key: string;
    ownerId: string | null;
    contentType: string;
    size: number | string;
    visibility: string;
    createdAt: string;
  }): MediaObject => ({ ...row, size: Number(row.size) });

  async function insert(ownerId: string | null, contentType: string, size: number): Promise<MediaObject> {
    const id = uuidv7();
    const row = {
      id,
      key: `media/${id}.${MEDIA_TYPES[contentType]}`,
      ownerId,
      contentType,
      size,
      visibility: "public",
      createdAt: new Date(now()).toISOString(),
    };
    await db.insertInto("media_object").values(row).execute();
    return row;
  }

  return {
    /**
     * Registers an upload for a content writer: the server picks the key under media/ and signs
     * a PUT link for it (1 hour, never past the session), checked against the path rules.
     */
    async createUpload(
      actor: Actor,
      input: unknown,
    ): Promise<{ media: MediaObject; uploadUrl: string; expiresAt: Date }> {
      const userId = requireUser(actor);
      if (!canWriteContent(actor.access)) {
        throw new ForbiddenError(
          "only content creators, editors, content managers and admins may upload media",
        );
      }
      const fields = parseInput(uploadSchema, input, "input");
      if (!deps.storage) throw new ForbiddenError("no object storage is configured");
      const media = await insert(userId, fields.contentType, fields.size);
      const link = await signObjectPut(
        deps.storage,
        storageActorOf(actor.access, actor.tenantId),
        media.key,
        {
          contentType: media.contentType,
        },
      );
      return { media, uploadUrl: link.url, expiresAt: link.expiresAt };
    },

    /** Stores `bytes` and registers them for `ownerId` (the seed and server-side imports). */
    async store(ownerId: string | null, contentType: string, bytes: Uint8Array): Promise<MediaObject> {
      if (!deps.storage) throw new Error("no object storage is configured");
      if (!MEDIA_TYPES[contentType]) throw new Error(`unsupported media type ${contentType}`);
      const media = await insert(ownerId, contentType, bytes.byteLength);
      await deps.storage.put(media.key, bytes, { contentType, metadata: { mediaId: media.id } });
      return media;
    },

    async getMany(ids: readonly string[]): Promise<Map<string, MediaObject>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("media_object")
        .selectAll()
        .where("id", "in", [...ids])
        .execute();
      return new Map(rows.map((r) => [r.id, fromRow(r)]));
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;

/** May `actor` reference `media` in structured data it writes? Its owner or a platform admin. */
export function mayUseMedia(actor: Actor, media: MediaObject): boolean {
  return actor.platformAdmin || (actor.userId !== null && media.ownerId === actor.userId);
}
