/**
 * Content, categories, content items, subscriptions and comments (spec §3), with an index for
 * every look-up the spec lists. Datetimes are ISO-8601 UTC text; epochs are bigint milliseconds;
 * JSON and string lists are text holding JSON.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);

    await db.schema
      .createTable("content_category")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("slug", "text", (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("defaultTier", "text")
      .addColumn("icon", "text")
      .addColumn("s3Prefix", "text")
      .addColumn("isActive", t.bool, t.boolNotNull(true))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("content_category_slug_uidx")
      .on("content_category")
      .column("slug")
      .unique()
      .execute();

    await db.schema
      .createTable("content")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("gid", "text")
      .addColumn("tenant", "text")
      .addColumn("type", "text", (c) => c.notNull().defaultTo("article"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("slug", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
      .addColumn("category", "text")
      .addColumn("categoryId", "text", (c) => c.references("content_category.id").onDelete("set null"))
      .addColumn("categorySlug", "text")
      .addColumn("categoryTier", "text")
      .addColumn("section", "text")
      .addColumn("taxon", "text")
      .addColumn("tier", "text", (c) => c.notNull().defaultTo("Free"))
      .addColumn("classification", "text")
      .addColumn("pii", t.bool, t.boolNotNull(false))
      .addColumn("retention", "text")
      .addColumn("isPublic", t.bool, t.boolNotNull(false))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addColumn("publishedAt", "text")
      .addColumn("eventTime", "text")
      .addColumn("createdEpoch", t.bigint, (c) => c.notNull())
      .addColumn("updatedEpoch", t.bigint, (c) => c.notNull())
      .addColumn("publishedEpoch", t.bigint)
      .addColumn("eventEpoch", t.bigint)
      .addColumn("bodyS3Key", "text")
      .addColumn("bodySize", t.bigint)
      .addColumn("bodyChecksum", "text")
      .addColumn("bodyFormat", "text", (c) => c.notNull().defaultTo("markdown"))
      .addColumn("excerpt", "text")
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("aliases", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("audience", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("related", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("seoKeywords", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("seoTitle", "text")
      .addColumn("metaDescription", "text")
      .addColumn("ogTitle", "text")
      .addColumn("ogDescription", "text")
      .addColumn("ogImage", "text")
      .addColumn("twitterCard", "text")
      .addColumn("schemaType", "text")
      .addColumn("canonicalUrl", "text")
      .addColumn("noindex", t.bool, t.boolNotNull(false))
      .addColumn("structuredData", "text")
      .addColumn("authorId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("lastEditedBy", "text")
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("viewCount", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("likeCount", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("shareCount", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("commentCount", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("featured", t.bool, t.boolNotNull(false))
      .addColumn("featuredOrder", "integer")
      .addColumn("featuredImage", "text")
      .addColumn("featuredImageAlt", "text")
      .addColumn("workflowStatus", "text")
      .addColumn("reviewerNotes", "text")
      .addColumn("templateId", "text")
      .addColumn("rolesRequired", "text", (c) => c.notNull().defaultTo("[]"))
      .execute();

    // The spec's look-ups. Lists ordered by publishedAt carry `id` as the last column: it is the
    // tie-breaker of the keyset cursor, so a page is one index range scan.
    const contentIndexes: [string, string[], boolean?][] = [
      ["content_slug_uidx", ["slug"], true],
      ["content_status_updatedAt_idx", ["status", "updatedAt", "id"]],
      ["content_categoryTier_publishedAt_idx", ["categoryTier", "publishedAt", "id"]],
      ["content_section_publishedAt_idx", ["section", "publishedAt", "id"]],
      ["content_tier_publishedAt_idx", ["tier", "publishedAt", "id"]],
      ["content_authorId_updatedAt_idx", ["authorId", "updatedAt", "id"]],
      // list endpoints: by category, featured, and everything
      ["content_categoryId_publishedAt_idx", ["categoryId", "publishedAt", "id"]],
      ["content_categorySlug_publishedAt_idx", ["categorySlug", "publishedAt", "id"]],
      ["content_featured_publishedAt_idx", ["featured", "publishedAt", "id"]],
      ["content_publishedAt_idx", ["publishedAt", "id"]],
    ];
    for (const [name, columns, unique] of contentIndexes) {
      const builder = db.schema.createIndex(name).on("content").columns(columns);
      await (unique ? builder.unique() : builder).execute();
    }

    await db.schema
      .createTable("content_item")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("contentId", "text", (c) => c.references("content.id").onDelete("cascade"))
      .addColumn("title", "text")
      .addColumn("slug", "text")
      .addColumn("tier", "text", (c) => c.notNull())
      .addColumn("tenant", "text")
      .addColumn("categoryId", "text", (c) => c.references("content_category.id").onDelete("set null"))
      .addColumn("category", "text")
      .addColumn("categorySlug", "text")
      .addColumn("categoryTier", "text")
      .addColumn("section", "text")
      .addColumn("isPublic", t.bool, t.boolNotNull(false))
      .addColumn("publishedAt", "text")
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addColumn("bodyS3Key", "text")
      .addColumn("excerpt", "text")
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("seoTitle", "text")
      .addColumn("metaDescription", "text")
      .addColumn("canonicalUrl", "text")
      .addColumn("featuredImage", "text")
      .addColumn("structuredData", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("content_item_contentId_idx")
      .on("content_item")
      .column("contentId")
      .execute();
    await db.schema.createIndex("content_item_slug_idx").on("content_item").column("slug").execute();
    await db.schema
      .createIndex("content_item_categorySlug_publishedAt_idx")
      .on("content_item")
      .columns(["categorySlug", "publishedAt", "id"])
      .execute();

    await db.schema
      .createTable("user_subscription")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("tier", "text", (c) => c.notNull())
      .addColumn("tenantId", "text")
      .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
      .addColumn("source", "text")
      .addColumn("startedAt", "text")
      .addColumn("expiresAt", "text")
      .addColumn("canceledAt", "text")
      .addColumn("metadata", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("user_subscription_userId_idx")
      .on("user_subscription")
      .column("userId")
      .execute();
    await db.schema
      .createIndex("user_subscription_tenantId_tier_idx")
      .on("user_subscription")
      .columns(["tenantId", "tier"])
      .execute();

    await db.schema
      .createTable("comment")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("authorId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("parentCommentId", "text", (c) => c.references("comment.id").onDelete("cascade"))
      .addColumn("status", "text", (c) => c.notNull().defaultTo("published"))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("comment_contentId_createdAt_idx")
      .on("comment")
      .columns(["contentId", "createdAt", "id"])
      .execute();
    await db.schema
      .createIndex("comment_authorId_createdAt_idx")
      .on("comment")
      .columns(["authorId", "createdAt", "id"])
      .execute();
    await db.schema
      .createIndex("comment_parentCommentId_idx")
      .on("comment")
      .column("parentCommentId")
      .execute();
  },

  async down(db: AnyDb) {
    for (const table of ["comment", "user_subscription", "content_item", "content", "content_category"]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
