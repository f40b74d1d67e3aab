/**
 * UserSubscription operations of the data API (docs/decisions/007-data-rules.md). Deny by default:
 * - read: the subscriber; organisation admins for their organisations' tenant subscriptions
 *   (`tenantId` = the organisation id of an `org-<slug>-admin` group they hold); platform admins
 *   (app-admin, app-owner). Everyone else gets NOT_FOUND for a row (lists leave it out, in SQL).
 *   Visitors → UNAUTHENTICATED; API keys and service credentials → FORBIDDEN.
 * - create, update, delete: platform admins only (organisation admins read only). Every change is
 *   an entitlement change and is written to the audit log.
 */

import { type Kysely, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { dialectOf } from "../../db/dialect.ts";
import type { FilterFields } from "../../db/filters.ts";
import { jsonObjectSchema } from "../../db/json.ts";
import type { DB } from "../../db/schema.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import { type Actor, requirePlatformAdmin, requireUser } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import {
  type Connection,
  direction,
  filterConditions,
  type ListArgs,
  type ListByKeyArgs,
  parseInput,
  requireId,
  requireVersion,
  sortKeyConditions,
  toConnection,
} from "../data-service.ts";
import { createSubscriptionsRepo, type UserSubscription } from "./subscriptions.repo.ts";

export type { UserSubscription };

/** Filterable scalar fields (metadata is JSON and is not filterable). */
export const SUBSCRIPTION_FILTER_FIELDS: FilterFields = {
  id: "string",
  userId: "string",
  tier: "string",
  tenantId: "string",
  status: "string",
  source: "string",
  startedAt: "datetime",
  expiresAt: "datetime",
  canceledAt: "datetime",
  createdAt: "datetime",
  updatedAt: "datetime",
  version: "number",
};

export const SUBSCRIPTION_TIERS = ["free", "basic", "pro", "business", "enterprise"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "canceled", "expired"] as const;

const datetime = z.union([z.iso.datetime({ offset: true }), z.null()]);
const tier = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(SUBSCRIPTION_TIERS));

const fields = {
  tier,
  tenantId: z.string().min(1).max(200).nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  source: z.string().min(1).max(100).nullable(),
  startedAt: datetime,
  expiresAt: datetime,
  canceledAt: datetime,
  metadata: jsonObjectSchema.nullable(),
};

/** Create: the subscriber (`userId`, an admin choice here) and tier are required. */
export const createSubscriptionInput = z.strictObject({
  userId: z.string().min(1).max(200),
  ...fields,
  status: fields.status.optional(),
  tenantId: fields.tenantId.optional(),
  source: fields.source.optional(),
  startedAt: datetime.optional(),
  expiresAt: datetime.optional(),
  canceledAt: datetime.optional(),
  metadata: fields.metadata.optional(),
});

/** Update: any of the fields; the subscriber, id, version and timestamps are never taken. */
export const updateSubscriptionInput = z.strictObject(fields).partial();

export interface SubscriptionsServiceDeps {
  db: Kysely<DB>;
}

export function createSubscriptionsService(deps: SubscriptionsServiceDeps) {
  const { db } = deps;
  const repo = createSubscriptionsRepo(db);
  const audit = createAuditRepo(db);
  const dialect = dialectOf(db);

  /** The SQL visibility rule for a signed-in actor; null = everything (platform admin). */
  function visibleSql(actor: Actor, userId: string): RawBuilder<boolean> | null {
    if (actor.platformAdmin) return null;
    const orgs = actor.adminOrgs ?? [];
    const own = sql<boolean>`${sql.ref("userId")} = ${userId}`;
    if (orgs.length === 0) return own;
    return sql<boolean>`(${own} or ${sql.ref("tenantId")} in (select ${sql.ref("organization.id")} from ${sql.table("organization")} where ${sql.ref("organization.slug")} in (${sql.join([...orgs])})))`;
  }

  async function canSee(actor: Actor, userId: string, row: UserSubscription): Promise<boolean> {
    if (actor.platformAdmin || row.userId === userId) return true;
    const orgs = actor.adminOrgs ?? [];
    if (row.tenantId === null || orgs.length === 0) return false;
    const org = await db
      .selectFrom("organization")
      .select("id")
      .where("id", "=", row.tenantId)
      .where("slug", "in", [...orgs])
      .executeTakeFirst();
    return org !== undefined;
  }

  async function list(
    actor: Actor,
    keyConditions: RawBuilder<boolean>[],
    sortColumn: string | null,
    args: ListByKeyArgs,
  ): Promise<Connection<UserSubscription>> {
    const userId = requireUser(actor);
    const visible = visibleSql(actor, userId);
    const page = await repo.listPage({
      conditions: [
        ...(visible ? [visible] : []),
        ...keyConditions,
        ...filterConditions(SUBSCRIPTION_FILTER_FIELDS, args.filter, dialect),
      ],
      sortColumn,
      direction: direction(args.sortDirection),
      limit: args.limit,
      cursor: args.nextToken,
    });
    return toConnection(page, (s) => s);
  }

  async function requireVisible(actor: Actor, id: string): Promise<UserSubscription> {
    const userId = requireUser(actor);
    const row = await repo.getById(requireId(id));
    if (!row || !(await canSee(actor, userId, row))) throw new NotFoundError("subscription", id);
    return row;
  }

  return {
    get: async (actor: Actor, id: string): Promise<UserSubscription> => requireVisible(actor, id),

    /** Every subscription the actor may read, by id. */
    list: async (actor: Actor, args: ListArgs = {}) => list(actor, [], null, args),

    /** listUserSubscriptionByUserId: the user's subscriptions (index userId, id); no sort key. */
    async listByUserId(actor: Actor, userId: string, args: ListByKeyArgs = {}) {
      if (args.sortKey) throw new BadInputError("sortKey: listUserSubscriptionByUserId has no sort key");
      return list(actor, [sql<boolean>`${sql.ref("userId")} = ${requireId(userId, "userId")}`], null, args);
    },

    /** listUserSubscriptionByTenantIdAndTier: a tenant's subscriptions by tier (index tenantId, tier, id). */
    async listByTenantIdAndTier(actor: Actor, tenantId: string, args: ListByKeyArgs = {}) {
      return list(
        actor,
        [
          sql<boolean>`${sql.ref("tenantId")} = ${requireId(tenantId, "tenantId")}`,
          ...sortKeyConditions("tier", "string", args.sortKey, dialect),
        ],
        "tier",
        args,
      );
    },

    async create(actor: Actor, input: unknown): Promise<UserSubscription> {
      const adminId = requirePlatformAdmin(actor);
      const data = parseInput(createSubscriptionInput, input);
      const created = await repo.create({ ...data, status: data.status ?? "active" });
      await audit.append({
        action: "subscription_created",
        actorId: adminId,
        targetType: "user",
        targetId: created.userId,
        details: { subscriptionId: created.id, tier: created.tier, status: created.status },
      });
      return created;
    },

    async update(
      actor: Actor,
      id: string,
      expectedVersion: number,
      patch: unknown,
    ): Promise<UserSubscription> {
      const adminId = requirePlatformAdmin(actor);
      const version = requireVersion(expectedVersion);
      const data = parseInput(updateSubscriptionInput, patch);
      const updated = await repo.update(requireId(id), data, version);
      await audit.append({
        action: "subscription_updated",
        actorId: adminId,
        targetType: "user",
        targetId: updated.userId,
        details: { subscriptionId: updated.id, tier: updated.tier, status: updated.status },
      });
      return updated;
    },

    /** Deletes and returns the subscription. */
    async delete(actor: Actor, id: string): Promise<UserSubscription> {
      const adminId = requirePlatformAdmin(actor);
      const row = await repo.getById(requireId(id));
      if (!row || !(await repo.delete(id))) throw new NotFoundError("subscription", id);
      await audit.append({
        action: "subscription_deleted",
        actorId: adminId,
        targetType: "user",
        targetId: row.userId,
        details: { subscriptionId: row.id, tier: row.tier },
      });
      return row;
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
