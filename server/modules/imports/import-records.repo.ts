/**
 * `import_record` (migration 045): what an import made from which source item.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { nowIso } from "../../db/values.ts";
import type { ImportSource, RecordKind } from "./import.types.ts";

export interface ImportRecord {
  source: string;
  kind: string;
  sourceKey: string;
  targetId: string;
  checksum: string | null;
  importedAt: string;
  updatedAt: string;
}

export const recordKey = (kind: RecordKind, sourceKey: string) => `${kind}\u0000${sourceKey}`;

export function createImportRecordsRepo(db: Kysely<DB>) {
  return {
    /** Every record of one importer, by `recordKey(kind, sourceKey)`. */
    async all(source: ImportSource): Promise<Map<string, ImportRecord>> {
      const rows = await db.selectFrom("import_record").selectAll().where("source", "=", source).execute();
      return new Map(rows.map((r) => [recordKey(r.kind as RecordKind, r.sourceKey), r]));
    },

    /** Records (or re-points) what `sourceKey` became. */
    async put(
      source: ImportSource,
      kind: RecordKind,
      sourceKey: string,
      targetId: string,
      checksum: string | null,
    ): Promise<void> {
      const at = nowIso();
      await db
        .insertInto("import_record")
        .values({ source, kind, sourceKey, targetId, checksum, importedAt: at, updatedAt: at })
        .onConflict((oc) =>
          oc.columns(["source", "kind", "sourceKey"]).doUpdateSet({ targetId, checksum, updatedAt: at }),
        )
        .execute();
    },
  };
}
