/**
 * User subscriptions (spec §3 UserSubscription): look-ups by user and by tenant + tier, and the
 * candidate rows of a user's effective subscription (the rule itself: core/effective-subscription.ts).
 */
import type { Kysely, Selectable, Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import { effectiveSubscription, type SubscriptionCandidate } from "../../../core/effective-subscription.ts";
import { fromJson, toJsonOrNull } from "../../db/json.ts";
import { type KeysetQuery, keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB, UserSubscriptionTable } from "../../db/schema.ts";
import { isoInput, isoInputOrNull, nowIso } from "../../db/values.ts";
import { ConflictError, NotFoundError, rethrowConstraintError } from "../../errors.ts";
import { subscriptionMetadataSchema } from "./subscriptions.schemas.ts";

export type SubscriptionMetadata = z.output<typeof subscriptionMetadataSchema>;

export interface UserSubscription {
  id: string;
  userId: string;
  tier: string;
  tenantId: string | null;
  status: string;
  source: string | null;
  startedAt: string | null;
  expiresAt: string | null;
  canceledAt: string | null;
  metadata: SubscriptionMetadata | null;
  createdAt: string;
  updatedAt: string;
  /** Optimistic concurrency: 1 on create, +1 on every update. */
  version: number;
  /** Billing state (migration 023, decision 019). */
  planId: string | null;
  billingInterval: string | null;
  seats: number | null;
  providerSubscriptionId: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  pendingPlanId: string | null;
  pendingInterval: string | null;
  pendingSeats: number | null;
  graceUntil: string | null;
}

export interface UserSubscriptionFields {
  userId: string;
  tier: string;
  tenantId: string | null;
  status: string;
  source: string | null;
  startedAt: string | Date | null;
  expiresAt: string | Date | null;
  canceledAt: string | Date | null;
  metadata: SubscriptionMetadata | null;
  planId: string | null;
  billingInterval: string | null;
  seats: number | null;
  providerSubscriptionId: string | null;
  periodStart: string | Date | null;
  periodEnd: string | Date | null;
  cancelAtPeriodEnd: boolean;
  pendingPlanId: string | null;
  pendingInterval: string | null;
  pendingSeats: number | null;
  graceUntil: string | Date | null;
}

export type NewUserSubscription = Pick<UserSubscriptionFields, "userId" | "tier"> &
  Partial<Omit<UserSubscriptionFields, "userId" | "tier">> & { id?: string; createdAt?: string | Date };

export type UserSubscriptionPatch = Partial<Omit<UserSubscriptionFields, "userId">>;

type Row = Selectable<UserSubscriptionTable>;

const DATE_FIELDS = new Set([
  "startedAt",
  "expiresAt",
  "canceledAt",
  "periodStart",
  "periodEnd",
  "graceUntil",
]);
const FIELDS = [
  "userId",
  "tier",
  "tenantId",
  "status",
  "source",
  "startedAt",
  "expiresAt",
  "canceledAt",
  "metadata",
  "planId",
  "billingInterval",
  "seats",
  "providerSubscriptionId",
  "periodStart",
  "periodEnd",
  "cancelAtPeriodEnd",
  "pendingPlanId",
  "pendingInterval",
  "pendingSeats",
  "graceUntil",
] as const satisfies readonly (keyof UserSubscriptionFields)[];

function toColumns(fields: Partial<UserSubscriptionFields>): Updateable<UserSubscriptionTable> {
  const out: Record<string, unknown> = {};
  for (const key of FIELDS) {
    const value = fields[key];
    if (value === undefined) continue;
    if (key === "metadata")
      out[key] = toJsonOrNull(subscriptionMetadataSchema, value as SubscriptionMetadata, key);
    else if (DATE_FIELDS.has(key)) out[key] = isoInputOrNull(value as string | Date | null, key);
    else out[key] = value;
  }
  return out as Updateable<UserSubscriptionTable>;
}

function fromRow(row: Row): UserSubscription {
  return {
    id: row.id,
    userId: row.userId,
    tier: row.tier,
    tenantId: row.tenantId,
    status: row.status,
    source: row.source,
    startedAt: row.startedAt,
    expiresAt: row.expiresAt,
    canceledAt: row.canceledAt,
    metadata: fromJson(subscriptionMetadataSchema.nullable(), row.metadata, "metadata"),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
    planId: row.planId,
    billingInterval: row.billingInterval,
    seats: row.seats,
    providerSubscriptionId: row.providerSubscriptionId,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    cancelAtPeriodEnd: Boolean(row.cancelAtPeriodEnd),
    pendingPlanId: row.pendingPlanId,
    pendingInterval: row.pendingInterval,
    pendingSeats: row.pendingSeats,
    graceUntil: row.graceUntil,
  };
}

/**
 * The rows that may set a user's tier (core/effective-subscription.ts): the user's own rows and
 * every row of the organisations in `tenantIds` (the user's memberships), in every status: the
 * rule picks the granting one, and identity reads "has rows but none grants" as Free (decision
 * 019). One query over the userId and tenantId indexes.
 */
export async function loadSubscriptionCandidates(
  db: Kysely<DB>,
  userId: string,
  tenantIds: readonly string[],
): Promise<Array<SubscriptionCandidate & { tenantId: string | null }>> {
  return db
    .selectFrom("user_subscription")
    .select(["id", "tier", "status", "tenantId", "expiresAt", "canceledAt", "startedAt", "createdAt"])
    .where((eb) =>
      tenantIds.length
        ? eb.or([eb("userId", "=", userId), eb("tenantId", "in", [...tenantIds])])
        : eb("userId", "=", userId),
    )
    .execute();
}

export function createSubscriptionsRepo(db: Kysely<DB>) {
  return {
    async getById(id: string): Promise<UserSubscription | null> {
      const row = await db
        .selectFrom("user_subscription")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    /** listUserSubscriptionByUserId: newest first. */
    async listByUserId(userId: string): Promise<UserSubscription[]> {
      const rows = await db
        .selectFrom("user_subscription")
        .selectAll()
        .where("userId", "=", userId)
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .execute();
      return rows.map(fromRow);
    },

    /** listUserSubscriptionByTenantIdAndTier: newest first; `tier` omitted → every tier. */
    async listByTenant(tenantId: string, tier?: string): Promise<UserSubscription[]> {
      let query = db.selectFrom("user_subscription").selectAll().where("tenantId", "=", tenantId);
      if (tier !== undefined) query = query.where("tier", "=", tier);
      const rows = await query.orderBy("createdAt", "desc").orderBy("id", "desc").execute();
      return rows.map(fromRow);
    },

    /**
     * The subscription that sets the user's tier at `at` (own rows and those of the organisations
     * in `tenantIds`), or null: the candidates through the one rule of core/effective-subscription.ts.
     */
    async getEffectiveForUser(
      userId: string,
      tenantIds: readonly string[] = [],
      at: Date = new Date(),
    ): Promise<UserSubscription | null> {
      const best = effectiveSubscription(await loadSubscriptionCandidates(db, userId, tenantIds), at);
      return best ? this.getById(best.id) : null;
    },

    async create(input: NewUserSubscription): Promise<UserSubscription> {
      const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
      try {
        const row = await db
          .insertInto("user_subscription")
          .values({
            ...toColumns(input),
            id: input.id ?? uuidv7(),
            userId: input.userId,
            tier: input.tier,
            createdAt,
            updatedAt: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return fromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "subscription");
      }
    },

    /**
     * Applies `patch` and bumps the version. With `expectedVersion`, only if the stored version is
     * still that one: a stale version → ConflictError (the row is untouched); no row → NotFoundError.
     */
    async update(
      id: string,
      patch: UserSubscriptionPatch,
      expectedVersion?: number,
    ): Promise<UserSubscription> {
      let row: Row | undefined;
      try {
        let query = db
          .updateTable("user_subscription")
          .set({ ...toColumns(patch), updatedAt: nowIso() })
          .set((eb) => ({ version: eb("version", "+", 1) }))
          .where("id", "=", id);
        if (expectedVersion !== undefined) query = query.where("version", "=", expectedVersion);
        row = await query.returningAll().executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "subscription");
      }
      if (row) return fromRow(row);
      const current = await db
        .selectFrom("user_subscription")
        .select("version")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!current) throw new NotFoundError("subscription", id);
      throw new ConflictError("subscription was changed by someone else; reload and try again", {
        details: { id, expectedVersion, currentVersion: current.version },
      });
    },

    /** One keyset page of the rows matching every condition (the data API's lists). */
    listPage(query: Omit<KeysetQuery<UserSubscription>, "table" | "map">): Promise<Page<UserSubscription>> {
      return keysetPage(db, { ...query, table: "user_subscription", map: fromRow });
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("user_subscription").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type SubscriptionsRepo = ReturnType<typeof createSubscriptionsRepo>;
