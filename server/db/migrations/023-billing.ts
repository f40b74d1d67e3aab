/**
 * Subscriptions and billing (decision 019).
 * - `plan`: the plans as data (Free, Basic, Pro, Enterprise and the organisations' seat plans),
 *   prices in minor units per interval, the Stripe price ids, archived instead of deleted.
 * - `user_subscription` gains its billing state: the plan, interval and seats bought, the
 *   provider's subscription id, the current period, cancel-at-period-end, a downgrade waiting for
 *   the period end and the grace end of a failed payment. `expiresAt`/`canceledAt`/`status` keep
 *   their meaning for the effective-subscription rule (core/effective-subscription.ts).
 * - `billing_customer`: the provider's customer of a reader or an organisation.
 * - `billing_checkout`: one attempt to buy (open → completed, expired, canceled; a manual one
 *   may wait for an administrator's approval).
 * - `billing_invoice`: invoices and receipts (Stripe's, or the manual provider's records).
 * - `billing_event`: every provider event received, once (idempotent webhooks).
 */
import { type Migration, sql } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);

    await db.schema
      .createTable("plan")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("tier", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull().defaultTo("individual"))
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("currency", "text", (c) => c.notNull().defaultTo("usd"))
      .addColumn("monthlyPriceCents", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("yearlyPriceCents", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("perSeat", t.bool, t.boolNotNull(false))
      .addColumn("minSeats", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("maxSeats", "integer")
      .addColumn("stripeMonthlyPriceId", "text")
      .addColumn("stripeYearlyPriceId", "text")
      .addColumn("features", "text")
      .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("archivedAt", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();

    for (const column of [
      "planId",
      "billingInterval",
      "providerSubscriptionId",
      "periodStart",
      "periodEnd",
      "pendingPlanId",
      "pendingInterval",
      "graceUntil",
    ]) {
      await db.schema.alterTable("user_subscription").addColumn(column, "text").execute();
    }
    await db.schema.alterTable("user_subscription").addColumn("seats", "integer").execute();
    await db.schema.alterTable("user_subscription").addColumn("pendingSeats", "integer").execute();
    await db.schema
      .alterTable("user_subscription")
      .addColumn("cancelAtPeriodEnd", t.bool, t.boolNotNull(false))
      .execute();
    await db.schema
      .createIndex("user_subscription_provider_sub_idx")
      .unique()
      .on("user_subscription")
      .columns(["source", "providerSubscriptionId"])
      .execute();
    // The renewal and expiry sweep reads due rows by period end.
    await db.schema
      .createIndex("user_subscription_status_periodEnd_idx")
      .on("user_subscription")
      .columns(["status", "periodEnd"])
      .execute();

    await db.schema
      .createTable("billing_customer")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("provider", "text", (c) => c.notNull())
      /** "user:<id>" or "org:<id>": whose customer this is. */
      .addColumn("ownerKey", "text", (c) => c.notNull())
      .addColumn("userId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("tenantId", "text")
      .addColumn("providerCustomerId", "text", (c) => c.notNull())
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addUniqueConstraint("billing_customer_owner_key", ["provider", "ownerKey"])
      .addUniqueConstraint("billing_customer_provider_id_key", ["provider", "providerCustomerId"])
      .execute();

    await db.schema
      .createTable("billing_checkout")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("tenantId", "text")
      .addColumn("organizationName", "text")
      .addColumn("planId", "text", (c) => c.notNull())
      .addColumn("billingInterval", "text", (c) => c.notNull())
      .addColumn("seats", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("providerSessionId", "text")
      .addColumn("url", "text")
      /** open, awaiting_approval, completed, expired, canceled */
      .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
      .addColumn("returnTo", "text")
      .addColumn("subscriptionId", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("expiresAt", "text", (c) => c.notNull())
      .addColumn("completedAt", "text")
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex("billing_checkout_provider_session_idx")
      .unique()
      .on("billing_checkout")
      .columns(["provider", "providerSessionId"])
      .execute();
    await db.schema
      .createIndex("billing_checkout_user_idx")
      .on("billing_checkout")
      .columns(["userId", "createdAt"])
      .execute();

    await db.schema
      .createTable("billing_invoice")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("userId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("tenantId", "text")
      .addColumn("subscriptionId", "text")
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("providerInvoiceId", "text")
      .addColumn("number", "text", (c) => c.notNull())
      /** paid, open, failed, void */
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("amountCents", "integer", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("periodStart", "text")
      .addColumn("periodEnd", "text")
      .addColumn("hostedUrl", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("paidAt", "text")
      .execute();
    await db.schema
      .createIndex("billing_invoice_provider_id_idx")
      .unique()
      .on("billing_invoice")
      .columns(["provider", "providerInvoiceId"])
      .execute();
    await db.schema
      .createIndex("billing_invoice_user_idx")
      .on("billing_invoice")
      .columns(["userId", "createdAt"])
      .execute();
    await db.schema
      .createIndex("billing_invoice_tenant_idx")
      .on("billing_invoice")
      .columns(["tenantId", "createdAt"])
      .execute();

    await db.schema
      .createTable("billing_event")
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("eventId", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      /** processing, processed, ignored, failed */
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("receivedAt", "text", (c) => c.notNull())
      .addColumn("processedAt", "text")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
      .addPrimaryKeyConstraint("billing_event_pk", ["provider", "eventId"])
      .execute();

    // The default plans (editable afterwards by platform admins): prices in cents.
    const at = new Date().toISOString();
    const plans = [
      [
        "free",
        "Free",
        "free",
        "individual",
        "Start learning: everything marked Free, your dashboard and profile.",
        0,
        0,
        false,
        1,
        null,
        0,
      ],
      [
        "basic",
        "Basic",
        "basic",
        "individual",
        "For regular learners: Basic content and your personal reports.",
        900,
        9000,
        false,
        1,
        null,
        1,
      ],
      [
        "pro",
        "Pro",
        "pro",
        "individual",
        "For practitioners: in-depth courses, tools and playbooks marked Pro.",
        1900,
        19000,
        false,
        1,
        null,
        2,
      ],
      [
        "enterprise",
        "Enterprise",
        "enterprise",
        "individual",
        "The full library, including Enterprise playbooks.",
        4900,
        49000,
        false,
        1,
        null,
        3,
      ],
      [
        "team",
        "Team Pro",
        "pro",
        "organization",
        "Pro for a team: one bill, seats you can add and remove.",
        1500,
        15000,
        true,
        2,
        null,
        4,
      ],
      [
        "business",
        "Business",
        "enterprise",
        "organization",
        "The full library for your organisation, per seat.",
        3900,
        39000,
        true,
        3,
        null,
        5,
      ],
    ] as const;
    for (const [
      id,
      name,
      tier,
      kind,
      description,
      monthly,
      yearly,
      perSeat,
      minSeats,
      maxSeats,
      sortOrder,
    ] of plans) {
      await db
        .insertInto("plan")
        .values({
          id,
          name,
          tier,
          kind,
          description,
          currency: "usd",
          monthlyPriceCents: monthly,
          yearlyPriceCents: yearly,
          perSeat: t.pg ? perSeat : perSeat ? 1 : 0,
          minSeats,
          maxSeats,
          features: null,
          sortOrder,
          createdAt: at,
          updatedAt: at,
          version: 1,
        })
        .execute();
    }
    await sql`UPDATE user_subscription SET "planId" = lower(tier) WHERE "planId" IS NULL`.execute(db);
    // Seats were kept in the metadata document: now a column.
    if (t.pg) {
      await sql`UPDATE user_subscription SET seats = CAST(("metadata"::json ->> 'seats') AS integer)
        WHERE metadata IS NOT NULL AND ("metadata"::json ->> 'seats') ~ '^[0-9]+$'`.execute(db);
    } else {
      await sql`UPDATE user_subscription SET seats = CAST(json_extract(metadata, '$.seats') AS integer)
        WHERE json_valid(metadata) AND json_type(metadata, '$.seats') = 'integer'`.execute(db);
    }
  },
  async down(db: AnyDb) {
    for (const table of [
      "billing_event",
      "billing_invoice",
      "billing_checkout",
      "billing_customer",
      "plan",
    ]) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex("user_subscription_status_periodEnd_idx").execute();
    await db.schema.dropIndex("user_subscription_provider_sub_idx").execute();
    for (const column of [
      "cancelAtPeriodEnd",
      "pendingSeats",
      "seats",
      "graceUntil",
      "pendingInterval",
      "pendingPlanId",
      "periodEnd",
      "periodStart",
      "providerSubscriptionId",
      "billingInterval",
      "planId",
    ]) {
      await db.schema.alterTable("user_subscription").dropColumn(column).execute();
    }
  },
};
