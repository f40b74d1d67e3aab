/**
 * The order of content categories (issue 14, /admin/content): `content_category.sortOrder`, used
 * wherever categories are listed for readers (then label, then slug). Existing categories keep
 * the order they were shown in until now (by label): they are numbered 10, 20, 30… so that one
 * category can later move between two others without renumbering the rest.
 *
 * `content_category.section`: the section an administrator files the category under (null: the
 * section its published items are in, as before).
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("content_category")
      .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("content_category").addColumn("section", "text").execute();
    const rows = await db
      .selectFrom("content_category")
      .select(["id"])
      .orderBy("label")
      .orderBy("slug")
      .execute();
    let order = 0;
    for (const row of rows) {
      order += 10;
      await db.updateTable("content_category").set({ sortOrder: order }).where("id", "=", row.id).execute();
    }
    await db.schema
      .createIndex("content_category_sortOrder_idx")
      .on("content_category")
      .columns(["sortOrder", "label"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("content_category_sortOrder_idx").execute();
    await db.schema.alterTable("content_category").dropColumn("section").execute();
    await db.schema.alterTable("content_category").dropColumn("sortOrder").execute();
  },
};
