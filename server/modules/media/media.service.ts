/**
 * Uploaded media (decision 011). The studio streams files through `upload` (type sniffed from the
 * bytes, size limits per kind, image size read from the header, nothing left behind on failure);
 * `createUpload` registers an upload and hands back a signed PUT link instead (GraphQL). The server
 * chooses every key under `media/`; content names media as `media:<id>`. Only the media's owner (or
 * a platform admin) may reference it in new structured data, and the library lists what the actor
 * may use.
 */
import { type Kysely, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { canWriteContent } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import {
  BadInputError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { signObjectGet, signObjectPut, storageActorOf } from "../../storage/sign-object.ts";
import { type Actor, requireUser } from "../actor.ts";
import { parseInput } from "../content/content.schemas.ts";
import { displayNamesByIds } from "../users/display-names.ts";
import type { MediaItem, MediaKind } from "./media.types.ts";
import { type ImageSize, readImageSize, sniffType } from "./media-sniff.ts";

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
  "image/gif": "gif",
};

/** The largest object a signed PUT link registers, in bytes (the local store's link limit). */
export const MEDIA_MAX_BYTES = 25 * 1024 * 1024;

/** The kind of media a content type is. */
export function mediaKindOf(contentType: string): MediaKind {
  if (contentType.startsWith("image/")) return "image";
  if (contentType === "text/vtt") return "captions";
  if (contentType.startsWith("audio/")) return "audio";
  return "video";
}

/** The types the studio's upload takes (its sniffer recognises each of them). */
export const UPLOAD_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "video/mp4",
  "video/webm",
  "text/vtt",
] as const;

const MiB = 1024 * 1024;

/**
 * Upload limits per kind (decision 011): images 10 MiB (a large photo as a JPEG or WebP),
 * captions 1 MiB (hours of subtitles), video 100 MiB (a few minutes of 1080p web video; the
 * local store serves objects from memory, so longer films belong on a video host).
 */
export const UPLOAD_LIMITS: Readonly<Record<Exclude<MediaKind, "audio">, number>> = {
  image: 10 * MiB,
  captions: 1 * MiB,
  video: 100 * MiB,
};

const KIND_NOUN: Record<MediaKind, string> = {
  image: "Images",
  captions: "Caption files",
  video: "Videos",
  audio: "Audio files",
};

/** The first bytes read before anything is stored: enough for the sniffer and a JPEG's frame header. */
const HEAD_BYTES: Record<Exclude<MediaKind, "audio">, number> = {
  image: 512 * 1024,
  // Captions are read whole first: they must be UTF-8 text from end to end.
  captions: UPLOAD_LIMITS.captions + 1,
  video: 64 * 1024,
};

export interface MediaObject {
  id: string;
  key: string;
  ownerId: string | null;
  contentType: string;
  size: number;
  visibility: string;
  createdAt: string;
}

/** A media row with the library's details (migration 022). */
export interface MediaRecord extends MediaObject {
  kind: MediaKind;
  fileName: string | null;
  width: number | null;
  height: number | null;
  alt: string | null;
}

export const mediaRef = (id: string) => `media:${id}`;

/**
 * The stable address of a media file, for any reader: it answers with a short-lived signed link
 * to the object (media are public by id, decision 011), so rendered bodies can be cached.
 */
export const mediaFileUrl = (id: string) => `/api/media/${id}/file`;

/** What the renderer needs to show a `media:<id>` image. */
export interface MediaDisplay {
  url: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
  alt: string | null;
}

/** The media of several ids as the renderer shows them (unknown ids are absent). */
export type MediaLookup = (ids: readonly string[]) => Promise<Map<string, MediaDisplay>>;

/** A streamed upload as the HTTP layer hands it over. */
export interface UploadInput {
  /** The Content-Type the client declared (it must agree with the sniffed bytes). */
  contentType: string;
  /** The file's name on the uploader's computer (X-File-Name), if sent. */
  fileName: string | null;
  alt: string | null;
  /** Content-Length, when the client declared one. */
  declaredBytes: number | null;
  body: AsyncIterable<Uint8Array> | null;
}

const uploadSchema = z.strictObject({
  contentType: z.enum(Object.keys(MEDIA_TYPES) as [string, ...string[]], {
    message: `expected one of ${Object.keys(MEDIA_TYPES).join(", ")}`,
  }),
  size: z.number().int().min(1, "at least 1 byte").max(MEDIA_MAX_BYTES, `at most ${MEDIA_MAX_BYTES} bytes`),
});

export const libraryQuerySchema = z.strictObject({
  kind: z
    .enum(["image", "video", "captions", "audio"], { message: "expected image, video, captions or audio" })
    .optional(),
  q: z.string().trim().max(200, "at most 200 characters").optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(1, "expected at least 1")
    .max(100, "expected at most 100")
    .optional(),
});

const ALT_MAX = 500;
export const altSchema = z.strictObject({
  alt: z.string().trim().max(ALT_MAX, `at most ${ALT_MAX} characters`).nullable(),
});

/** A file name as shown in the library: no folders or control characters, at most 200 characters. */
export function cleanFileName(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // not percent-encoded: taken as it is
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  name = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return name ? name.slice(0, 200) : null;
}

const mib = (bytes: number) => `${bytes / MiB} MiB`;

const encodeCursor = (row: { createdAt: string; id: string }) =>
  Buffer.from(JSON.stringify([row.createdAt, row.id])).toString("base64url");

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "string" && typeof id === "string") return { createdAt, id };
  } catch {
    // refused below
  }
  throw new BadInputError("cursor: not a cursor of this list", {
    field: { cursor: "not a cursor of this list" },
  });
}

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
    kind: string;
    fileName: string | null;
    width: number | string | null;
    height: number | string | null;
    alt: string | null;
  }): MediaRecord => ({
    ...row,
    size: Number(row.size),
    kind: row.kind as MediaKind,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
  });

  const toItem = (row: MediaRecord, ownerName: string | null): MediaItem => ({
    id: row.id,
    ref: mediaRef(row.id),
    url: mediaFileUrl(row.id),
    kind: row.kind,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    alt: row.alt,
    fileName: row.fileName,
    createdAt: row.createdAt,
    ownerName,
  });

  async function itemsOf(rows: MediaRecord[]): Promise<MediaItem[]> {
    const names = await displayNamesByIds(
      db,
      rows.map((r) => r.ownerId),
    );
    return rows.map((r) => toItem(r, r.ownerId ? (names.get(r.ownerId) ?? null) : null));
  }

  function requireWriter(actor: Actor): string {
    const userId = requireUser(actor);
    if (!canWriteContent(actor.access)) {
      throw new ForbiddenError(
        "only content creators, editors, content managers and admins may upload and manage media",
      );
    }
    return userId;
  }

  async function insert(
    ownerId: string | null,
    contentType: string,
    size: number,
    details: {
      id?: string;
      fileName?: string | null;
      width?: number | null;
      height?: number | null;
      alt?: string | null;
    } = {},
  ): Promise<MediaRecord> {
    const id = details.id ?? uuidv7();
    const row: MediaRecord = {
      id,
      key: `media/${id}.${MEDIA_TYPES[contentType]}`,
      ownerId,
      contentType,
      size,
      visibility: "public",
      createdAt: new Date(now()).toISOString(),
      kind: mediaKindOf(contentType),
      fileName: details.fileName ?? null,
      width: details.width ?? null,
      height: details.height ?? null,
      alt: details.alt ?? null,
    };
    await db.insertInto("media_object").values(row).execute();
    return row;
  }

  async function find(id: string): Promise<MediaRecord | null> {
    const row = await db.selectFrom("media_object").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? fromRow(row) : null;
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
      const userId = requireWriter(actor);
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

    /**
     * Streams an upload to storage for a content writer. Before anything is stored: the declared
     * type must be one of UPLOAD_TYPES (415), the declared length within the kind's limit (413),
     * an image needs alt text (400 alt), and the first bytes must be what the type says (415
     * naming what they are) — an image's header must give its size. While streaming, going past
     * the limit stops the upload (413). The object is written whole or not at all, and the row
     * only once it is stored (a failed insert removes the object).
     */
    async upload(actor: Actor, input: UploadInput): Promise<MediaItem> {
      const ownerId = requireWriter(actor);
      const storage = deps.storage;
      if (!storage) throw new ForbiddenError("no object storage is configured");
      const declared = input.contentType.split(";")[0]!.trim().toLowerCase();
      if (declared === "image/svg+xml") {
        throw new UnsupportedMediaTypeError(
          "SVG images are not accepted: they can carry scripts. Upload a PNG, JPEG, WebP or GIF.",
          { field: { file: "SVG images are not accepted" } },
        );
      }
      if (!(UPLOAD_TYPES as readonly string[]).includes(declared)) {
        throw new UnsupportedMediaTypeError(
          `Content-Type ${declared || "(none)"} is not accepted: send one of ${UPLOAD_TYPES.join(", ")}.`,
          { field: { file: "type not accepted" } },
        );
      }
      const kind = mediaKindOf(declared) as keyof typeof UPLOAD_LIMITS;
      const limit = UPLOAD_LIMITS[kind];
      const tooLarge = () =>
        new PayloadTooLargeError(`${KIND_NOUN[kind]} are limited to ${mib(limit)}; this file is larger.`, {
          field: { file: `larger than ${mib(limit)}` },
        });
      if (input.declaredBytes !== null && input.declaredBytes > limit) throw tooLarge();
      const alt = input.alt?.trim() || null;
      if (kind === "image" && !alt) {
        throw new BadInputError("alt: describe the image for readers who cannot see it", {
          field: { alt: "alt text is required for images" },
        });
      }
      if (alt && alt.length > ALT_MAX) {
        throw new BadInputError(`alt: at most ${ALT_MAX} characters`, {
          field: { alt: `at most ${ALT_MAX} characters` },
        });
      }

      // The first bytes, read before anything is stored.
      const source = (input.body ?? (async function* () {})())[Symbol.asyncIterator]();
      const stop = () => source.return?.().catch(() => {});
      const head: Uint8Array[] = [];
      let received = 0;
      let ended = false;
      let size: ImageSize | null = null;
      try {
        while (received < HEAD_BYTES[kind]) {
          const next = await source.next();
          if (next.done) {
            ended = true;
            break;
          }
          received += next.value.byteLength;
          if (received > limit) throw tooLarge();
          head.push(next.value);
        }
        if (received === 0) {
          throw new BadInputError("file: the file is empty", { field: { file: "the file is empty" } });
        }
        const first = Buffer.concat(head);
        const found = sniffType(first);
        if (found.contentType !== declared) {
          const message =
            found.label === "SVG image"
              ? "The file is an SVG image, which is not accepted (SVG can carry scripts). Upload a PNG, JPEG, WebP or GIF."
              : `The file's content is ${found.contentType ? `a ${found.label} (${found.contentType})` : found.label}, but it was sent as ${declared}.`;
          throw new UnsupportedMediaTypeError(message, { field: { file: `content is ${found.label}` } });
        }
        size = kind === "image" ? readImageSize(declared, first) : null;
        if (kind === "image" && !size) {
          throw new BadInputError("file: the image's header does not give its width and height", {
            field: { file: "unreadable image header" },
          });
        }
        if (kind === "captions") {
          try {
            new TextDecoder("utf-8", { fatal: true }).decode(first);
          } catch {
            throw new BadInputError("file: WebVTT captions must be UTF-8 text", {
              field: { file: "not UTF-8 text" },
            });
          }
        }
      } catch (error) {
        await stop();
        throw error;
      }

      const id = uuidv7();
      const key = `media/${id}.${MEDIA_TYPES[declared]}`;
      async function* whole(): AsyncGenerator<Uint8Array> {
        yield* head;
        if (ended) return;
        for (let next = await source.next(); !next.done; next = await source.next()) {
          received += next.value.byteLength;
          if (received > limit) {
            await stop();
            throw tooLarge();
          }
          yield next.value;
        }
      }
      const stored = await storage.putStream(key, whole(), {
        contentType: declared,
        metadata: { mediaId: id },
      });
      try {
        const row = await insert(ownerId, declared, stored.size, {
          id,
          fileName: cleanFileName(input.fileName),
          width: size?.width ?? null,
          height: size?.height ?? null,
          alt,
        });
        return (await itemsOf([row]))[0]!;
      } catch (error) {
        await storage.delete(key).catch(() => {});
        throw error;
      }
    },

    /** Stores `bytes` and registers them for `ownerId` (the seed and server-side imports). */
    async store(
      ownerId: string | null,
      contentType: string,
      bytes: Uint8Array,
      details: { fileName?: string | null; alt?: string | null } = {},
    ): Promise<MediaObject> {
      if (!deps.storage) throw new Error("no object storage is configured");
      if (!MEDIA_TYPES[contentType]) throw new Error(`unsupported media type ${contentType}`);
      const size = contentType.startsWith("image/") ? readImageSize(contentType, bytes) : null;
      const media = await insert(ownerId, contentType, bytes.byteLength, {
        ...details,
        width: size?.width ?? null,
        height: size?.height ?? null,
      });
      await deps.storage.put(media.key, bytes, { contentType, metadata: { mediaId: media.id } });
      return media;
    },

    /**
     * The media library: what the actor may use (their own uploads; everything for platform
     * admins), newest first, by kind and by a search in file names and alt text, a page at a time.
     */
    async list(actor: Actor, query: unknown): Promise<{ items: MediaItem[]; nextCursor: string | null }> {
      const userId = requireWriter(actor);
      const q = parseInput(libraryQuerySchema, query, "query");
      const limit = q.limit ?? 24;
      let select = db.selectFrom("media_object").selectAll().where("visibility", "=", "public");
      if (!actor.platformAdmin) select = select.where("ownerId", "=", userId);
      if (q.kind) select = select.where("kind", "=", q.kind);
      if (q.q) {
        const pattern = `%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        select = select.where(
          sql<boolean>`(lower(coalesce("fileName", '')) like ${pattern} escape '\\' or lower(coalesce("alt", '')) like ${pattern} escape '\\')`,
        );
      }
      if (q.cursor) {
        const after = decodeCursor(q.cursor);
        select = select.where((eb) =>
          eb.or([
            eb("createdAt", "<", after.createdAt),
            eb.and([eb("createdAt", "=", after.createdAt), eb("id", "<", after.id)]),
          ]),
        );
      }
      const rows = (
        await select
          .orderBy("createdAt", "desc")
          .orderBy("id", "desc")
          .limit(limit + 1)
          .execute()
      ).map(fromRow);
      const page = rows.slice(0, limit);
      return {
        items: await itemsOf(page),
        nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    },

    /** One media item, for a content writer (an item's editor shows the media it names). */
    async get(actor: Actor, id: string): Promise<MediaItem> {
      requireWriter(actor);
      const row = mediaIdPattern.test(id) ? await find(id) : null;
      if (row?.visibility !== "public") throw new NotFoundError("media", id);
      return (await itemsOf([row]))[0]!;
    },

    /** Changes a media item's alt text (its owner or a platform admin); images keep one. */
    async update(actor: Actor, id: string, input: unknown): Promise<MediaItem> {
      requireWriter(actor);
      const fields = parseInput(altSchema, input, "input");
      const row = mediaIdPattern.test(id) ? await find(id) : null;
      if (!row || !mayUseMedia(actor, row)) throw new NotFoundError("media", id);
      const alt = fields.alt || null;
      if (row.kind === "image" && !alt) {
        throw new BadInputError("alt: describe the image for readers who cannot see it", {
          field: { alt: "alt text is required for images" },
        });
      }
      await db.updateTable("media_object").set({ alt }).where("id", "=", id).execute();
      return (await itemsOf([{ ...row, alt }]))[0]!;
    },

    /**
     * A short-lived signed link to a public media file for anyone (a guest's link: `media/` is
     * open to guests by the storage path rules), or null when there is no such media.
     */
    async fileLink(id: string): Promise<{ url: string; expiresAt: Date } | null> {
      if (!deps.storage || !mediaIdPattern.test(id)) return null;
      const row = await find(id);
      if (row?.visibility !== "public") return null;
      const guest = { groups: [], userId: null, tier: null, tenantId: null };
      return signObjectGet(deps.storage, guest, row.key, { expiresInS: FILE_LINK_S });
    },

    /** What the renderer shows for `media:<id>` references (see MediaLookup). */
    lookup: (async (ids) => {
      const wanted = ids.filter((id) => mediaIdPattern.test(id));
      if (wanted.length === 0) return new Map();
      const rows = await db
        .selectFrom("media_object")
        .select(["id", "kind", "width", "height", "alt", "visibility"])
        .where("id", "in", [...new Set(wanted)])
        .execute();
      return new Map(
        rows
          .filter((r) => r.visibility === "public")
          .map((r) => [
            r.id,
            {
              url: mediaFileUrl(r.id),
              kind: r.kind as MediaKind,
              width: r.width === null ? null : Number(r.width),
              height: r.height === null ? null : Number(r.height),
              alt: r.alt,
            },
          ]),
      );
    }) satisfies MediaLookup,

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

/** Lifetime of the signed link a media file's stable address redirects to (seconds). */
export const FILE_LINK_S = 3600;

const mediaIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type MediaService = ReturnType<typeof createMediaService>;

/** May `actor` reference `media` in structured data it writes? Its owner or a platform admin. */
export function mayUseMedia(actor: Actor, media: MediaObject): boolean {
  return actor.platformAdmin || (actor.userId !== null && media.ownerId === actor.userId);
}
