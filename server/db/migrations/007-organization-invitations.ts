/**
 * Invitations to join an organisation (issue 3 item 9). The token is stored as a SHA-256 hash
 * only; an invitation expires (7 days) and is used once (acceptedAt).
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("organization_invitation")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("organizationId", "text", (c) =>
        c.notNull().references("organization.id").onDelete("cascade"),
      )
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("tokenHash", "text", (c) => c.notNull().unique())
      .addColumn("role", "text", (c) => c.notNull().defaultTo("member"))
      .addColumn("invitedBy", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("expiresAt", "text", (c) => c.notNull())
      .addColumn("acceptedAt", "text")
      .addColumn("acceptedBy", "text")
      .execute();
    await db.schema
      .createIndex("organization_invitation_org_idx")
      .on("organization_invitation")
      .columns(["organizationId", "createdAt"])
      .execute();
    await db.schema
      .createIndex("organization_invitation_email_idx")
      .on("organization_invitation")
      .column("email")
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("organization_invitation").execute();
  },
};
