/**
 * `media_object`: the registry of uploaded media (decision 011). The server chooses each object's
 * key (under `media/`); structured data references media by id (`media:<id>`), never by key.
 * - `ownerId`: who registered it (null once that user is deleted); an owner may reference it,
 *   and so may platform admins.
 * - `visibility`: "public" (spec §6: media/ is readable by signed-in users and guests; links are
 *   still only signed for readers of the item that names it).
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("media_object")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("ownerId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("contentType", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("visibility", "text", (c) => c.notNull().defaultTo("public"))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("media_object_ownerId_idx").on("media_object").column("ownerId").execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("media_object").execute();
  },
};
