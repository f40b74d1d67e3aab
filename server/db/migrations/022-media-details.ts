/**
 * The media library of the content studio (decision 011): what each upload is and how to show it.
 * - `kind`: "image", "video", "captions" or "audio", from the sniffed content type (rows from
 *   before are given theirs from `contentType`).
 * - `fileName`: the name the file had on the uploader's computer (shown in the library, never
 *   part of the key); `width`/`height`: an image's pixel size read from its header; `alt`: an
 *   image's text alternative (required for images uploaded through the studio).
 * - The library lists newest first and pages by (createdAt, id): one index, both dialects.
 */
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("media_object")
      .addColumn("kind", "text", (c) => c.notNull().defaultTo("video"))
      .execute();
    for (const column of ["fileName", "alt"]) {
      await db.schema.alterTable("media_object").addColumn(column, "text").execute();
    }
    for (const column of ["width", "height"]) {
      await db.schema.alterTable("media_object").addColumn(column, "integer").execute();
    }
    await sql`UPDATE media_object SET kind = CASE
        WHEN "contentType" LIKE 'image/%' THEN 'image'
        WHEN "contentType" = 'text/vtt' THEN 'captions'
        WHEN "contentType" LIKE 'audio/%' THEN 'audio'
        ELSE 'video' END`.execute(db);
    await db.schema
      .createIndex("media_object_createdAt_id_idx")
      .on("media_object")
      .columns(["createdAt", "id"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("media_object_createdAt_id_idx").execute();
    for (const column of ["height", "width", "alt", "fileName", "kind"]) {
      await db.schema.alterTable("media_object").dropColumn(column).execute();
    }
  },
};
