/**
 * One open checkout per owner, enforced by the database: two tabs (or two processes) starting a
 * checkout at once cannot both insert one. Owners are a user (personal plans, `tenantId` null)
 * or an organisation. Existing duplicates are closed first: the oldest open one per owner stays.
 */
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./column-types.ts";

const OPEN = sql`${sql.ref("status")} in ('open', 'awaiting_approval')`;

export const migration: Migration = {
  async up(db: AnyDb) {
    await sql`update ${sql.table("billing_checkout")} set ${sql.ref("status")} = 'canceled'
      where ${OPEN} and exists (
        select 1 from ${sql.table("billing_checkout")} as o
        where o.${sql.ref("status")} in ('open', 'awaiting_approval')
          and ((o.${sql.ref("tenantId")} is null and ${sql.ref("billing_checkout.tenantId")} is null
                and o.${sql.ref("userId")} = ${sql.ref("billing_checkout.userId")})
            or o.${sql.ref("tenantId")} = ${sql.ref("billing_checkout.tenantId")})
          and (o.${sql.ref("createdAt")} < ${sql.ref("billing_checkout.createdAt")}
            or (o.${sql.ref("createdAt")} = ${sql.ref("billing_checkout.createdAt")}
                and o.${sql.ref("id")} < ${sql.ref("billing_checkout.id")})))`.execute(db);
    await sql`create unique index ${sql.ref("billing_checkout_open_user_uq")}
      on ${sql.table("billing_checkout")} (${sql.ref("userId")})
      where ${OPEN} and ${sql.ref("tenantId")} is null`.execute(db);
    await sql`create unique index ${sql.ref("billing_checkout_open_tenant_uq")}
      on ${sql.table("billing_checkout")} (${sql.ref("tenantId")})
      where ${OPEN} and ${sql.ref("tenantId")} is not null`.execute(db);
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("billing_checkout_open_tenant_uq").execute();
    await db.schema.dropIndex("billing_checkout_open_user_uq").execute();
  },
};
