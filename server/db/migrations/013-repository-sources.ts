/**
 * Repository sources (issue 6, decision 008): where a repository is read from and how its last
 * sync went.
 * - `sourceType`: "github" (REST API by owner/name, the default for rows from before) or "local"
 *   (a git repository under DATA_DIR/repositories).
 * - `localPath`: the local repository's folder, relative to DATA_DIR/repositories.
 * - `lastSyncError` / `lastSyncErrorAt`: the last failed sync's reason (cleared by a successful
 *   one); the cached rows stay as they were.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("github_repository")
      .addColumn("sourceType", "text", (c) => c.notNull().defaultTo("github"))
      .execute();
    await db.schema.alterTable("github_repository").addColumn("localPath", "text").execute();
    await db.schema.alterTable("github_repository").addColumn("lastSyncError", "text").execute();
    await db.schema.alterTable("github_repository").addColumn("lastSyncErrorAt", "text").execute();
  },
  async down(db: AnyDb) {
    for (const column of ["lastSyncErrorAt", "lastSyncError", "localPath", "sourceType"]) {
      await db.schema.alterTable("github_repository").dropColumn(column).execute();
    }
  },
};
