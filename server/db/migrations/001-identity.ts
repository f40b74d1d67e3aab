/**
 * Identity: Better Auth's core tables (user, session, account, verification) with its exact column
 * names and per-dialect types, so its own additive migrations find nothing to change for them;
 * the spec's User fields on `user`; business accounts (`organization`, same shape as Better Auth's
 * organization plugin); app groups and memberships.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);

    // Better Auth core: same columns, order, types, nullability, uniqueness and FK actions as
    // getMigrations() generates for a fresh database. Extra columns are nullable or defaulted
    // (Better Auth refuses required columns it does not write).
    await db.schema
      .createTable("user")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("emailVerified", t.bool, t.boolNotNull(false))
      .addColumn("image", "text")
      .addColumn("createdAt", t.authDate, t.authDateNowDefault)
      .addColumn("updatedAt", t.authDate, t.authDateNowDefault)
      // username plugin columns (same types as the plugin declares)
      .addColumn("username", "text", (c) => c.unique())
      .addColumn("displayUsername", "text")
      // spec §3 User
      .addColumn("displayName", "text")
      .addColumn("bio", "text")
      .addColumn("avatar", "text")
      .addColumn("role", "text") // also the admin plugin's column
      .addColumn("isActive", t.bool, t.boolNotNull(true))
      // individual | business (the `custom:account_type` claim); declared to Better Auth as an
      // additional field with this default
      .addColumn("accountType", "text", (c) => c.defaultTo("individual"))
      .execute();

    await db.schema
      .createTable("session")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("expiresAt", t.authDate, (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull().unique())
      .addColumn("createdAt", t.authDate, t.authDateNowDefault)
      .addColumn("updatedAt", t.authDate, (c) => c.notNull())
      .addColumn("ipAddress", "text")
      .addColumn("userAgent", "text")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .execute();

    await db.schema
      .createTable("account")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("accountId", "text", (c) => c.notNull())
      .addColumn("providerId", "text", (c) => c.notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("accessToken", "text")
      .addColumn("refreshToken", "text")
      .addColumn("idToken", "text")
      .addColumn("accessTokenExpiresAt", t.authDate)
      .addColumn("refreshTokenExpiresAt", t.authDate)
      .addColumn("scope", "text")
      .addColumn("password", "text")
      .addColumn("createdAt", t.authDate, t.authDateNowDefault)
      .addColumn("updatedAt", t.authDate, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("verification")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("identifier", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("expiresAt", t.authDate, (c) => c.notNull())
      .addColumn("createdAt", t.authDate, t.authDateNowDefault)
      .addColumn("updatedAt", t.authDate, t.authDateNowDefault)
      .execute();

    // Index names are Better Auth's (`<table>_<column>_idx`), so it recognises them.
    await db.schema.createIndex("session_userId_idx").on("session").column("userId").execute();
    await db.schema.createIndex("account_userId_idx").on("account").column("userId").execute();
    await db.schema
      .createIndex("verification_identifier_idx")
      .on("verification")
      .column("identifier")
      .execute();

    // Business accounts: the shape of Better Auth's organization plugin table.
    await db.schema
      .createTable("organization")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("logo", "text")
      .addColumn("createdAt", t.authDate, (c) => c.notNull())
      .addColumn("metadata", "text")
      .execute();

    // App groups (spec §6: individual-free … app-admin, org-*), with their precedence.
    await db.schema
      .createTable("group")
      .addColumn("name", "text", (c) => c.primaryKey().notNull())
      .addColumn("precedence", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("description", "text")
      .execute();

    await db.schema
      .createTable("user_group")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("groupName", "text", (c) =>
        c.notNull().references("group.name").onDelete("cascade").onUpdate("cascade"),
      )
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("user_group_pk", ["userId", "groupName"])
      .execute();
    await db.schema.createIndex("user_group_groupName_idx").on("user_group").column("groupName").execute();
  },

  async down(db: AnyDb) {
    for (const table of [
      "user_group",
      "group",
      "organization",
      "verification",
      "account",
      "session",
      "user",
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
