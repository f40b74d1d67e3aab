/**
 * `session.familyId`: the id of the sign-in a session row descends from. The session guard
 * replaces the row (new id, new token) every 6 h; the family id stays, so an API ID token bound to
 * a sign-in (its `sid` claim) survives the rotation and dies with the sign-in (sign-out, revoked
 * session, password change or reset, time-outs). Existing rows start their own family.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("session").addColumn("familyId", "text").execute();
    await db
      .updateTable("session")
      .set((eb) => ({ familyId: eb.ref("id") }))
      .execute();
    await db.schema.createIndex("session_familyId_idx").on("session").column("familyId").execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("session_familyId_idx").execute();
    await db.schema.alterTable("session").dropColumn("familyId").execute();
  },
};
