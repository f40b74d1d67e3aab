/**
 * `service_credential.rotatedAt` (issue 14, /super-admin/security): when the credential's secret
 * was last rotated (ISO time, null = never). Rotation replaces the secret hash, so the old secret
 * is refused at once; service tokens issued before `rotatedAt` are refused too (identity checks it
 * on every request), so a rotation also ends what the old secret already obtained.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("service_credential").addColumn("rotatedAt", "text").execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable("service_credential").dropColumn("rotatedAt").execute();
  },
};
