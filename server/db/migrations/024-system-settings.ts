/**
 * System settings (issue 14, /super-admin/system-config).
 * - `system_setting`: one row per setting an owner changed (key, JSON value, who and when, the
 *   settings revision that wrote it). Settings without a row take their catalogue default
 *   (core/system-settings.ts).
 * - `system_setting_revision`: one row whose counter goes up on every settings write. It is the
 *   optimistic version of PATCH /api/admin/settings, and every app process polls it (a
 *   primary-key read, like `content_revision`) to reload the settings without a restart.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("system_setting")
      .addColumn("key", "text", (c) => c.primaryKey().notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addColumn("updatedBy", "text")
      .addColumn("version", t.bigint, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable("system_setting_revision")
      .addColumn("id", "integer", (c) => c.primaryKey().notNull())
      .addColumn("revision", t.bigint, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.insertInto("system_setting_revision").values({ id: 1, revision: 0 }).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("system_setting_revision").execute();
    await db.schema.dropTable("system_setting").execute();
  },
};
