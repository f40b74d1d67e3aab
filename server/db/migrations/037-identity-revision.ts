/**
 * `identity_revision`: one row whose counter goes up, inside the writing transaction, whenever a
 * row that decides who a session belongs to or what its user may do changes: a session deleted or
 * re-keyed (sign-out, revocation, rotation, expiry), a user updated or deleted (ban, role, account
 * type, e-mail), group memberships, subscriptions, organisations and second factors. Database
 * triggers do the counting, so every writer counts: Better Auth, the services, another process
 * or replica, an operator's SQL. Each process reads the row (a primary-key read) before it uses
 * its cached sessions and claims, and drops them when it moved (decision 023).
 *
 * Recording activity (`session.lastActiveAt`, `updatedAt`) does not count: it changes nothing a
 * cached session is checked against except the idle time-out, which each process tracks itself.
 */
import { type Migration, sql } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

/** The session columns whose change invalidates a cached session. */
const SESSION_KEY_COLUMNS = [
  "token",
  "userId",
  "expiresAt",
  "fingerprint",
  "issuedAt",
  "rotatedAt",
  "familyId",
];

/** [table, events] watched by the triggers; `update` on session only for SESSION_KEY_COLUMNS. */
const WATCHED: Array<[table: string, events: Array<"insert" | "update" | "delete">]> = [
  ["session", ["update", "delete"]],
  ["user", ["update", "delete"]],
  ["user_group", ["insert", "update", "delete"]],
  ["user_subscription", ["insert", "update", "delete"]],
  ["organization", ["update", "delete"]],
  ["twoFactor", ["insert", "update", "delete"]],
];

const BUMP = `update "identity_revision" set "revision" = "revision" + 1 where "id" = 1`;

const triggerName = (table: string, event: string) => `identity_revision_${table}_${event}`;

function eventClause(table: string, event: "insert" | "update" | "delete"): string {
  if (event === "update" && table === "session") {
    return `update of ${SESSION_KEY_COLUMNS.map((c) => `"${c}"`).join(", ")}`;
  }
  return event;
}

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("identity_revision")
      .addColumn("id", "integer", (c) => c.primaryKey().notNull())
      .addColumn("revision", t.bigint, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.insertInto("identity_revision").values({ id: 1, revision: 0 }).execute();

    if (t.pg) {
      await sql
        .raw(
          `create or replace function "bump_identity_revision"() returns trigger language plpgsql as $$
           begin ${BUMP}; return null; end $$`,
        )
        .execute(db);
      for (const [table, events] of WATCHED) {
        for (const event of events) {
          // Once per statement: a bulk revocation bumps once, and the row lock is taken once.
          await sql
            .raw(
              `create trigger "${triggerName(table, event)}" after ${eventClause(table, event)} on "${table}"
               for each statement execute function "bump_identity_revision"()`,
            )
            .execute(db);
        }
      }
      return;
    }
    for (const [table, events] of WATCHED) {
      for (const event of events) {
        await sql
          .raw(
            `create trigger "${triggerName(table, event)}" after ${eventClause(table, event)} on "${table}"
             begin ${BUMP}; end`,
          )
          .execute(db);
      }
    }
  },

  async down(db: AnyDb) {
    const t = columnTypes(db);
    for (const [table, events] of WATCHED) {
      for (const event of events) {
        await sql
          .raw(`drop trigger if exists "${triggerName(table, event)}"${t.pg ? ` on "${table}"` : ""}`)
          .execute(db);
      }
    }
    if (t.pg) await sql.raw(`drop function if exists "bump_identity_revision"()`).execute(db);
    await db.schema.dropTable("identity_revision").execute();
  },
};
