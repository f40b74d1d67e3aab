/**
 * Media references in structured data (decision 011). Writers name media as https URLs or as
 * `media:<id>` of an uploaded object they may use; raw storage keys (`private/<user>/avatar.png`,
 * another item's `content/<tier>/…` body, even `media/…`) are refused on write, naming the field.
 */
import { BadInputError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { type MediaService, mayUseMedia } from "./media.service.ts";

/** A media reference: `media:` and a media object's id (a UUID). */
export const MEDIA_REF = /^media:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Fields whose string values are turned into links (player source, poster, captions, embeds). */
const LINK_FIELDS = new Set(["contentUrl", "thumbnailUrl", "embedUrl"]);

/** A value that names a storage object by key (or the app's raw object path). */
const STORAGE_KEY_LIKE = /^(?:media|private|individual|content|tenant|uploads)\/|^\/api\/objects\//i;

/** A value that names stored media by key or id (never published as it is). */
export function isStorageRef(value: string): boolean {
  return STORAGE_KEY_LIKE.test(value.trim()) || value.trim().toLowerCase().startsWith("media:");
}

/** The media id of a reference, or null. */
export function mediaIdOf(ref: string): string | null {
  return MEDIA_REF.exec(ref)?.[1] ?? null;
}

function walk(node: unknown, path: string, visit: (field: string, value: string, path: string) => void) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      walk(item, `${path}[${i}]`, visit);
    });
    return;
  }
  if (typeof node !== "object" || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}.${key}`;
    if (typeof value === "string") visit(key, value.trim(), at);
    else if (Array.isArray(value) && LINK_FIELDS.has(key)) {
      value.forEach((v, i) => {
        if (typeof v === "string") visit(key, v.trim(), `${at}[${i}]`);
        else walk(v, `${at}[${i}]`, visit);
      });
    } else walk(value, at, visit);
  }
}

/** The media ids a structured-data value references. */
export function mediaIdsIn(data: unknown): Set<string> {
  const ids = new Set<string>();
  walk(data, "structuredData", (_field, value) => {
    const id = mediaIdOf(value);
    if (id) ids.add(id);
  });
  return ids;
}

/**
 * Refuses structured data that names a storage object by key, a malformed or unknown media
 * reference, or media the actor may not use. Media already named by the item's `previous`
 * structured data stay usable (editing an item does not need to own its media).
 */
export async function checkStructuredDataMedia(
  actor: Actor,
  data: unknown,
  previous: unknown,
  media: MediaService,
): Promise<void> {
  if (data === null || data === undefined) return;
  const wanted = new Map<string, string>();
  walk(data, "input.structuredData", (field, value, path) => {
    if (value.toLowerCase().startsWith("media:")) {
      const id = mediaIdOf(value);
      if (!id) throw new BadInputError(`${path}: expected media:<id> of an uploaded media object`);
      if (!wanted.has(id)) wanted.set(id, path);
      return;
    }
    if (STORAGE_KEY_LIKE.test(value)) {
      throw new BadInputError(
        `${path}: storage keys cannot be named; upload the file (POST /api/media or uploadMedia) and reference it as media:<id>, or give an https URL`,
      );
    }
    if (LINK_FIELDS.has(field) && value !== "" && !/^https:\/\//i.test(value)) {
      throw new BadInputError(`${path}: expected an https URL or media:<id> of an uploaded media object`);
    }
  });
  if (wanted.size === 0) return;
  const kept = mediaIdsIn(previous);
  const found = await media.getMany([...wanted.keys()]);
  for (const [id, path] of wanted) {
    const object = found.get(id);
    if (!object) throw new BadInputError(`${path}: no uploaded media object media:${id}`);
    if (!kept.has(id) && !mayUseMedia(actor, object)) {
      throw new BadInputError(`${path}: media:${id} belongs to someone else; upload your own copy`);
    }
  }
}
