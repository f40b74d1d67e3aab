/**
 * Content imports (decision 036): `import_record` remembers what an import made from which source
 * item, so running the same import again updates or leaves alone what it made before instead of
 * making it twice. One row per (source, kind, sourceKey):
 * - `source`: the importer ("ghost", "markdown");
 * - `kind`: what was made ("content", "user", "category", "media");
 * - `sourceKey`: the item in the source (a Ghost post id, a file's path inside the imported folder,
 *   an e-mail address, an image's SHA-256);
 * - `targetId`: the row it became; `checksum`: a digest of what was written, so an unchanged source
 *   item is recognised without rewriting it.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("import_record")
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("sourceKey", "text", (c) => c.notNull())
      .addColumn("targetId", "text", (c) => c.notNull())
      .addColumn("checksum", "text")
      .addColumn("importedAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("import_record_pk", ["source", "kind", "sourceKey"])
      .execute();
    await db.schema
      .createIndex("import_record_targetId_idx")
      .on("import_record")
      .columns(["kind", "targetId"])
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("import_record").execute();
  },
};
