/**
 * Organisation rows and their membership: the `organization` row, the groups `org-<slug>`
 * (members) and `org-<slug>-admin` (admins), the tenant subscription (user_subscription with
 * tenantId = organization id) and invitations. No access checks here: see the service.
 */
import type { Kysely, Selectable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import {
  effectiveSubscription,
  GRANTING_SUBSCRIPTION_STATUSES,
} from "../../../core/effective-subscription.ts";
import type { DB } from "../../db/schema.ts";
import { toBool, toIso } from "../../db/values.ts";

export const memberGroup = (slug: string) => `org-${slug}`;
export const adminGroup = (slug: string) => `org-${slug}-admin`;
export const BUSINESS_GROUP_NAME = "Business";

type OrganizationTableRow = Selectable<DB["organization"]>;
type InvitationTableRow = Selectable<DB["organization_invitation"]>;

/** An organisation: its row with `createdAt` as ISO text and the domain from its metadata. */
export type OrganizationRow = Pick<OrganizationTableRow, "id" | "name" | "slug"> & {
  createdAt: string;
  domain: string | null;
};

/** A member: the user's names and address, when they joined (the member group row), admin or not. */
export type MemberRow = Pick<Selectable<DB["user"]>, "name" | "displayName" | "email"> & {
  userId: Selectable<DB["user"]>["id"];
  joinedAt: Selectable<DB["user_group"]>["createdAt"];
  isAdmin: boolean;
};

/** The invitation columns callers see (never the token hash). */
const INVITATION_COLUMNS = [
  "id",
  "organizationId",
  "email",
  "role",
  "invitedBy",
  "createdAt",
  "expiresAt",
  "acceptedAt",
] as const satisfies readonly (keyof InvitationTableRow)[];

export type InvitationRow = Pick<InvitationTableRow, (typeof INVITATION_COLUMNS)[number]>;

/** The organisation's effective subscription with its billing state (seats, plan, period, version). */
export type TenantSubscriptionRow = Pick<
  Selectable<DB["user_subscription"]>,
  | "id"
  | "userId"
  | "tier"
  | "status"
  | "expiresAt"
  | "planId"
  | "billingInterval"
  | "periodEnd"
  | "pendingSeats"
  | "version"
> & { seats: number | null; cancelAtPeriodEnd: boolean };

function parseMetadata(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function orgFromRow(row: OrganizationTableRow): OrganizationRow {
  const meta = parseMetadata(row.metadata);
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    createdAt: toIso(row.createdAt),
    domain: typeof meta.domain === "string" ? meta.domain : null,
  };
}

export function createOrganizationsRepo(db: Kysely<DB>) {
  return {
    async getBySlug(slug: string): Promise<OrganizationRow | null> {
      const row = await db.selectFrom("organization").selectAll().where("slug", "=", slug).executeTakeFirst();
      return row ? orgFromRow(row) : null;
    },

    async getById(id: string): Promise<OrganizationRow | null> {
      const row = await db.selectFrom("organization").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? orgFromRow(row) : null;
    },

    /**
     * Whether a slug is free: no organisation has it and neither of its groups (`org-<slug>`,
     * `org-<slug>-admin`) exists, so a new organisation never inherits another one's members.
     */
    async slugAvailable(slug: string): Promise<boolean> {
      const org = await db
        .selectFrom("organization")
        .select("id")
        .where("slug", "=", slug)
        .executeTakeFirst();
      if (org) return false;
      const group = await db
        .selectFrom("group")
        .select("name")
        .where("name", "in", [memberGroup(slug), adminGroup(slug)])
        .executeTakeFirst();
      return !group;
    },

    async insertOrganization(row: {
      id: string;
      slug: string;
      name: string;
      domain: string | null;
      at: string;
    }) {
      await db
        .insertInto("organization")
        .values({
          id: row.id,
          slug: row.slug,
          name: row.name,
          logo: null,
          metadata: row.domain ? JSON.stringify({ domain: row.domain }) : null,
          createdAt: row.at,
        })
        .execute();
    },

    /**
     * Takes the organisation's row lock for the rest of the transaction (a no-op write: a row lock
     * in PostgreSQL, the write lock in SQLite), so that seat checks of concurrent invitations and
     * acceptances run one after the other and never hand out the same seat twice.
     */
    async lockForSeats(id: string): Promise<void> {
      await db
        .updateTable("organization")
        .set((eb) => ({ slug: eb.ref("slug") }))
        .where("id", "=", id)
        .execute();
    },

    /** Name and domain (the domain lives in the metadata document, other keys are kept). */
    async updateDetails(id: string, name: string, domain: string | null): Promise<void> {
      const row = await db
        .selectFrom("organization")
        .select("metadata")
        .where("id", "=", id)
        .executeTakeFirst();
      const meta = parseMetadata(row?.metadata ?? null);
      if (domain === null) delete meta.domain;
      else meta.domain = domain;
      await db
        .updateTable("organization")
        .set({ name, metadata: Object.keys(meta).length ? JSON.stringify(meta) : null })
        .where("id", "=", id)
        .execute();
    },

    async listMembers(slug: string): Promise<MemberRow[]> {
      const rows = await db
        .selectFrom("user_group")
        .innerJoin("user", "user.id", "user_group.userId")
        .select([
          "user.id as userId",
          "user.name",
          "user.displayName",
          "user.email",
          "user_group.createdAt as joinedAt",
        ])
        .where("user_group.groupName", "=", memberGroup(slug))
        .orderBy("user_group.createdAt")
        .orderBy("user.id")
        .execute();
      const admins = new Set(
        (
          await db
            .selectFrom("user_group")
            .select("userId")
            .where("groupName", "=", adminGroup(slug))
            .execute()
        ).map((r) => r.userId),
      );
      return rows.map((r) => ({ ...r, isAdmin: admins.has(r.userId) }));
    },

    async countMembers(slug: string): Promise<number> {
      const row = await db
        .selectFrom("user_group")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("groupName", "=", memberGroup(slug))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async countAdmins(slug: string): Promise<number> {
      const row = await db
        .selectFrom("user_group")
        .innerJoin("user_group as m", (j) =>
          j.onRef("m.userId", "=", "user_group.userId").on("m.groupName", "=", memberGroup(slug)),
        )
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("user_group.groupName", "=", adminGroup(slug))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async isMember(slug: string, userId: string): Promise<boolean> {
      const row = await db
        .selectFrom("user_group")
        .select("userId")
        .where("groupName", "=", memberGroup(slug))
        .where("userId", "=", userId)
        .executeTakeFirst();
      return Boolean(row);
    },

    /**
     * The organisation's plan: its effective subscription (tenantId = organization id) by the one
     * rule of core/effective-subscription.ts, or null.
     */
    async tenantSubscription(orgId: string, now: Date): Promise<TenantSubscriptionRow | null> {
      const rows = await db
        .selectFrom("user_subscription")
        .select([
          "id",
          "userId",
          "tier",
          "status",
          "expiresAt",
          "canceledAt",
          "startedAt",
          "createdAt",
          "seats",
          "planId",
          "billingInterval",
          "periodEnd",
          "pendingSeats",
          "version",
          "cancelAtPeriodEnd",
        ])
        .where("tenantId", "=", orgId)
        .where("status", "in", [...GRANTING_SUBSCRIPTION_STATUSES])
        .execute();
      const best = effectiveSubscription(rows, now);
      if (!best) return null;
      const seats = best.seats ?? Number.NaN;
      return {
        id: best.id,
        userId: best.userId,
        tier: best.tier,
        status: best.status,
        seats: Number.isInteger(seats) && seats >= 0 ? seats : null,
        expiresAt: best.expiresAt,
        planId: best.planId,
        billingInterval: best.billingInterval,
        periodEnd: best.periodEnd,
        pendingSeats: best.pendingSeats,
        version: best.version,
        cancelAtPeriodEnd: toBool(best.cancelAtPeriodEnd),
      };
    },

    /** Moves the tenant subscriptions a user holds for an organisation to another user. */
    async reassignTenantSubscriptions(orgId: string, fromUserId: string, toUserId: string): Promise<void> {
      await db
        .updateTable("user_subscription")
        .set({ userId: toUserId, updatedAt: new Date().toISOString() })
        .where("tenantId", "=", orgId)
        .where("userId", "=", fromUserId)
        .execute();
    },

    async ensureGroups(names: string[]): Promise<void> {
      for (const name of names) {
        await db
          .insertInto("group")
          .values({ name, precedence: 0, description: null })
          .onConflict((oc) => oc.column("name").doNothing())
          .execute();
      }
    },

    async addToGroups(userId: string, names: string[], at: string): Promise<void> {
      for (const groupName of names) {
        await db
          .insertInto("user_group")
          .values({ userId, groupName, createdAt: at })
          .onConflict((oc) => oc.columns(["userId", "groupName"]).doNothing())
          .execute();
      }
    },

    async removeFromGroups(userId: string, names: string[]): Promise<void> {
      if (names.length === 0) return;
      await db
        .deleteFrom("user_group")
        .where("userId", "=", userId)
        .where("groupName", "in", names)
        .execute();
    },

    async groupsOf(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("user_group")
        .select("groupName")
        .where("userId", "=", userId)
        .execute();
      return rows.map((r) => r.groupName);
    },

    async setAccountType(userId: string, accountType: "individual" | "business", at: string): Promise<void> {
      await db.updateTable("user").set({ accountType, updatedAt: at }).where("id", "=", userId).execute();
    },

    // Invitations ---------------------------------------------------------------------------

    async createInvitation(
      input: Pick<
        InvitationTableRow,
        "organizationId" | "email" | "tokenHash" | "role" | "createdAt" | "expiresAt"
      > & { invitedBy: string },
    ): Promise<InvitationRow> {
      const id = uuidv7();
      await db
        .insertInto("organization_invitation")
        .values({ id, ...input, acceptedAt: null, acceptedBy: null })
        .execute();
      return {
        id,
        organizationId: input.organizationId,
        email: input.email,
        role: input.role,
        invitedBy: input.invitedBy,
        createdAt: input.createdAt,
        expiresAt: input.expiresAt,
        acceptedAt: null,
      };
    },

    /** Deletes an organisation's pending invitation; false when there is none with that id. */
    async deletePendingInvitation(orgId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("organization_invitation")
        .where("id", "=", id)
        .where("organizationId", "=", orgId)
        .where("acceptedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async findInvitationByHash(tokenHash: string): Promise<InvitationRow | null> {
      const row = await db
        .selectFrom("organization_invitation")
        .select(INVITATION_COLUMNS)
        .where("tokenHash", "=", tokenHash)
        .executeTakeFirst();
      return row ?? null;
    },

    /** Marks an invitation used; false when it was used already (single use, race-safe). */
    async markAccepted(id: string, userId: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("organization_invitation")
        .set({ acceptedAt: at, acceptedBy: userId })
        .where("id", "=", id)
        .where("acceptedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async pendingForOrg(orgId: string, nowIso: string): Promise<InvitationRow[]> {
      return db
        .selectFrom("organization_invitation")
        .select(INVITATION_COLUMNS)
        .where("organizationId", "=", orgId)
        .where("acceptedAt", "is", null)
        .where("expiresAt", ">", nowIso)
        .orderBy("createdAt", "desc")
        .execute();
    },

    async pendingForEmail(
      email: string,
      nowIso: string,
    ): Promise<Array<InvitationRow & { orgName: string }>> {
      return db
        .selectFrom("organization_invitation")
        .innerJoin("organization", "organization.id", "organization_invitation.organizationId")
        .select([
          "organization_invitation.id",
          "organization_invitation.organizationId",
          "organization_invitation.email",
          "organization_invitation.role",
          "organization_invitation.invitedBy",
          "organization_invitation.createdAt",
          "organization_invitation.expiresAt",
          "organization_invitation.acceptedAt",
          "organization.name as orgName",
        ])
        .where("organization_invitation.email", "=", email)
        .where("organization_invitation.acceptedAt", "is", null)
        .where("organization_invitation.expiresAt", ">", nowIso)
        .orderBy("organization_invitation.createdAt", "desc")
        .execute();
    },
  };
}

export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;
