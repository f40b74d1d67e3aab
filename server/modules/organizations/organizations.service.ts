/**
 * Organisations (issue 3 item 9). An organisation is an `organization` row, the groups
 * `org-<slug>` (members) and `org-<slug>-admin` (admins) and the tenant subscription
 * (user_subscription.tenantId = organization id, metadata.seats). Members share the tenant's tier:
 * `claimsForUser` reads the tenant subscription of the user's organisation on every request, so
 * joining or leaving takes effect on the next request.
 *
 * Access (checked here, deny by default):
 * - get: members of that organisation, its admins, app-admin / app-owner;
 * - members, invite, cancel an invitation, remove: admins of that organisation, app-admin / app-owner;
 * - update details: admins of that organisation only;
 * - accept an invitation: the signed-in user whose e-mail is the invited one;
 * - create: a signed-in user in no organisation (business sign-up does the same for a new account).
 *
 * Seat rules: members + pending invitations never exceed the plan's seats (an invitation is
 * refused, and so is accepting one when the seats were reduced meanwhile); an organisation
 * without a plan invites nobody until it buys seats; removing a member frees their seat.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { APP_ADMIN_GROUP, APP_OWNER_GROUP } from "../../../core/index.ts";
import { hasVerifiedTotp } from "../../auth/staff-mfa.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { ServiceError } from "../../errors.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import type { BillingInterval, PlanView } from "../billing/billing.types.ts";
import { createPlansRepo, publicPlan } from "../billing/plans.repo.ts";
import {
  adminGroup,
  BUSINESS_GROUP_NAME,
  createOrganizationsRepo,
  memberGroup,
  type OrganizationRow,
} from "./organizations.repo.ts";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The seats an organisation may fill now: a seat reduction waiting for the period end already
 * counts, so nobody is invited into a seat that is about to go. Null: no plan, no seats.
 */
export function seatLimit(sub: { seats: number | null; pendingSeats: number | null } | null): number | null {
  if (!sub || sub.seats === null) return null;
  return sub.pendingSeats === null ? sub.seats : Math.min(sub.seats, sub.pendingSeats);
}

export interface OrganizationView {
  id: string;
  name: string;
  slug: string;
  domain: string | null;
  createdAt: string;
  plan: OrganizationPlanView | null;
  seats: { total: number | null; used: number; pending: number; available: number | null };
  /** The actor's standing in this organisation. */
  viewer: { role: "admin" | "member" | "app-admin"; canManage: boolean; canEdit: boolean };
}

/** The organisation's plan: its effective subscription and the bought plan's terms. */
export interface OrganizationPlanView {
  tier: string;
  status: string;
  expiresAt: string | null;
  /** The seat plan bought (`plan.id`), its name and price per seat; null for rows without one. */
  planId: string | null;
  planName: string | null;
  interval: BillingInterval | null;
  /** Renewal (or end, when cancelling) date. */
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** Fewer seats waiting for the period end (a seat reduction). */
  pendingSeats: number | null;
  /** The price of one seat for one period of `interval` (cents), and its currency. */
  seatPriceCents: number | null;
  currency: string | null;
  /** The subscription's version: send it back with `POST /api/billing/seats`. */
  version: number;
}

export interface MemberView {
  userId: string;
  name: string;
  email: string;
  role: "admin" | "member";
  joinedAt: string;
}

export interface PendingInvitationView {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  expiresAt: string;
}

export interface MyInvitationView {
  organizationName: string;
  role: string;
  expiresAt: string;
}

export interface OrganizationsDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  now: () => number;
  /** Origin for links in e-mails, e.g. http://localhost:3000 */
  baseUrl: string;
}

export interface RequestInfo {
  ip?: string | null;
}

/** SHA-256 of an invitation token (only the hash is stored). */
export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

const slugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "Organisation not found.");

export const inviteSchema = z.object({
  email: z
    .string({ error: "Enter the e-mail address to invite." })
    .trim()
    .max(254, "The e-mail address is too long.")
    .pipe(z.email({ error: "Enter a valid e-mail address." })),
  role: z.enum(["member", "admin"], { error: "Role must be member or admin." }).optional(),
});

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** An organisation's name: 2 to 100 characters (business sign-up, create, update). */
export const organizationNameSchema = z
  .string({ error: "Enter the organisation's name." })
  .trim()
  .min(2, "The organisation's name needs at least 2 characters.")
  .max(100, "The organisation's name can have at most 100 characters.");

export const updateOrganizationSchema = z.object({
  name: organizationNameSchema,
  domain: z
    .string({ error: "The domain must be text." })
    .trim()
    .toLowerCase()
    .max(253, "The domain is too long.")
    .refine((v) => v === "" || DOMAIN.test(v), "Enter a domain like example.com (no https:// or path).")
    .nullable()
    .optional(),
});

export const createOrganizationSchema = updateOrganizationSchema;

export const acceptSchema = z.object({
  token: z
    .string({ error: "The invitation token is missing." })
    .regex(/^[A-Za-z0-9_-]{20,100}$/, "The invitation link is not valid."),
});

/** Field messages from a zod error: { field: message }. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    out[key] ??= issue.message;
  }
  return out;
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const fields = fieldErrors(result.error);
    throw new ServiceError("BAD_USER_INPUT", Object.values(fields).join(" "), fields);
  }
  return result.data;
}

const isAppAdmin = (actor: Actor) =>
  actor.groups.includes(APP_ADMIN_GROUP) || actor.groups.includes(APP_OWNER_GROUP);

function requireSignedIn(actor: Actor): string {
  if (actor.kind !== "user" || !actor.userId) {
    throw new ServiceError("UNAUTHENTICATED", "Sign in first.");
  }
  return actor.userId;
}

/** The organisation slug of an actor: the org where they are admin first, then any membership. */
export function orgSlugOf(groups: readonly string[]): string | null {
  const slugs = groups.filter((g) => g.startsWith("org-") && !g.endsWith("-admin")).map((g) => g.slice(4));
  return slugs.find((s) => groups.includes(adminGroup(s))) ?? slugs[0] ?? null;
}

/** Slugs a new organisation may not take: they are words of the organisation API's paths. */
const RESERVED_SLUGS = new Set(["mine", "new"]);

/**
 * The slug of an organisation's name: lower case ASCII letters, digits and single hyphens, at
 * most 48 characters ("org" when nothing is left). A slug whose member group would end in
 * "-admin" (an admin group's shape) gets "-org" appended.
 */
export function slugFromName(name: string): string {
  let slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
  if (!slug) slug = "org";
  if (memberGroup(slug).endsWith("-admin") || RESERVED_SLUGS.has(slug)) slug = `${slug}-org`;
  return slug;
}

/** The first free slug of `base`, `base-2` … `base-99`, then `base-<random>`. */
async function uniqueSlug(repo: ReturnType<typeof createOrganizationsRepo>, base: string): Promise<string> {
  if (await repo.slugAvailable(base)) return base;
  for (let n = 2; n < 100; n++) {
    const candidate = `${base}-${n}`;
    if (await repo.slugAvailable(candidate)) return candidate;
  }
  for (;;) {
    const candidate = `${base}-${randomBytes(4).toString("hex")}`;
    if (await repo.slugAvailable(candidate)) return candidate;
  }
}

export interface NewOrganizationInput {
  userId: string;
  name: string;
  domain: string | null;
  at: string;
  ip?: string | null;
  /** Where the organisation was created, for the audit row: "sign-up" or "api". */
  via: "sign-up" | "api";
}

/**
 * Creates an organisation with `userId` as its admin, all in one transaction: the `organization`
 * row (slug from the name, made unique), the groups `org-<slug>`, `org-<slug>-admin` and
 * `Business`, the user's membership of all three, account type business and the audit row
 * `org_created`. Nothing is half-made: a failure rolls it all back. The organisation starts with
 * no plan (its admin buys seats). Refused (409) when the user already belongs to an organisation.
 * A slug taken by a concurrent creation is retried with the next free one.
 */
export async function createOrganizationFor(
  db: Kysely<DB>,
  input: NewOrganizationInput,
): Promise<OrganizationRow> {
  const name = parseInput(organizationNameSchema, input.name);
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(db, async (trx) => {
        const r = createOrganizationsRepo(trx);
        if (orgSlugOf(await r.groupsOf(input.userId))) {
          throw new ServiceError(
            "CONFLICT",
            "You already belong to an organisation: an account can belong to one organisation only.",
          );
        }
        const slug = await uniqueSlug(r, slugFromName(name));
        const id = uuidv7();
        await r.insertOrganization({ id, slug, name, domain: input.domain, at: input.at });
        const groups = [memberGroup(slug), adminGroup(slug), BUSINESS_GROUP_NAME];
        await r.ensureGroups(groups);
        await r.addToGroups(input.userId, groups, input.at);
        await r.setAccountType(input.userId, "business", input.at);
        await createAuditRepo(trx).append({
          action: "org_created",
          actorId: input.userId,
          targetType: "organization",
          targetId: id,
          details: { name, slug, domain: input.domain, via: input.via },
          ip: input.ip ?? null,
          at: input.at,
        });
        return { id, name, slug, domain: input.domain, createdAt: input.at };
      });
    } catch (error) {
      // A concurrent creation took the slug between the check and the insert: try again.
      if (error instanceof ServiceError || attempt >= 2 || db.isTransaction) throw error;
    }
  }
}

export function createOrganizationsService(deps: OrganizationsDeps) {
  const { db, mailer, now } = deps;
  const repo = createOrganizationsRepo(db);
  const audit = createAuditRepo(db);
  const plans = createPlansRepo(db);
  const nowIso = () => new Date(now()).toISOString();

  async function record(
    action: string,
    actorId: string,
    targetType: string,
    targetId: string,
    details: Record<string, string | number | boolean | null>,
    info: RequestInfo,
  ) {
    await audit.append({ action, actorId, targetType, targetId, details, ip: info.ip ?? null, at: nowIso() });
  }

  /** Loads the organisation and the actor's standing; unknown org and no access answer alike (404). */
  async function load(actor: Actor, slugInput: string, need: "view" | "manage" | "edit") {
    const userId = requireSignedIn(actor);
    const slug = slugSchema.safeParse(slugInput);
    if (!slug.success) throw new ServiceError("NOT_FOUND", "Organisation not found.");
    const org = await repo.getBySlug(slug.data);
    const isMember = actor.groups.includes(memberGroup(slug.data));
    const isAdmin = isMember && actor.groups.includes(adminGroup(slug.data));
    const appAdmin = isAppAdmin(actor);
    if (!org || (!isMember && !appAdmin)) throw new ServiceError("NOT_FOUND", "Organisation not found.");
    const canManage = isAdmin || appAdmin;
    const canEdit = isAdmin;
    if (need === "manage" && !canManage) {
      throw new ServiceError("FORBIDDEN", "Only the organisation's administrators can do this.");
    }
    if (need === "edit" && !canEdit) {
      throw new ServiceError("FORBIDDEN", "Only the organisation's administrators can edit its details.");
    }
    return { org, userId, isAdmin, appAdmin, canManage, canEdit };
  }

  async function planView(sub: NonNullable<Awaited<ReturnType<typeof repo.tenantSubscription>>>) {
    const plan = sub.planId ? await plans.get(sub.planId) : null;
    const interval: BillingInterval | null =
      sub.billingInterval === "month" || sub.billingInterval === "year" ? sub.billingInterval : null;
    const unit = plan ? (interval === "year" ? plan.yearlyPriceCents : plan.monthlyPriceCents) : null;
    const result: OrganizationPlanView = {
      tier: sub.tier.toLowerCase(),
      status: sub.status,
      expiresAt: sub.expiresAt,
      planId: plan?.id ?? null,
      planName: plan?.name ?? null,
      interval,
      periodEnd: sub.periodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      pendingSeats: sub.pendingSeats,
      seatPriceCents: plan?.perSeat ? unit : null,
      currency: plan?.currency ?? null,
      version: sub.version,
    };
    return result;
  }

  async function view(
    org: OrganizationRow,
    standing: { isAdmin: boolean; canManage: boolean; canEdit: boolean },
  ) {
    const sub = await repo.tenantSubscription(org.id, new Date(now()));
    const used = await repo.countMembers(org.slug);
    const pending = (await repo.pendingForOrg(org.id, nowIso())).length;
    const total = sub?.seats ?? null;
    const result: OrganizationView = {
      id: org.id,
      name: org.name,
      slug: org.slug,
      domain: org.domain,
      createdAt: org.createdAt,
      plan: sub ? await planView(sub) : null,
      seats: {
        total,
        used,
        pending,
        available: seatLimit(sub) === null ? null : Math.max(0, (seatLimit(sub) ?? 0) - used - pending),
      },
      viewer: {
        role: standing.isAdmin ? "admin" : standing.canManage ? "app-admin" : "member",
        canManage: standing.canManage,
        canEdit: standing.canEdit,
      },
    };
    return result;
  }

  return {
    /** The actor's own organisation, or null when they belong to none. */
    async mine(actor: Actor): Promise<OrganizationView | null> {
      requireSignedIn(actor);
      const slug = orgSlugOf(actor.groups);
      if (!slug) return null;
      const { org, ...standing } = await load(actor, slug, "view");
      return view(org, standing);
    },

    /**
     * A signed-in user in no organisation creates one and becomes its admin (to buy seats). Their
     * admin rights apply once they have a second factor (decision 012): until then the view shows
     * them as a member.
     */
    async create(actor: Actor, input: unknown, info: RequestInfo = {}): Promise<OrganizationView> {
      const userId = requireSignedIn(actor);
      const body = parseInput(createOrganizationSchema, input);
      const org = await createOrganizationFor(db, {
        userId,
        name: body.name,
        domain: body.domain ? body.domain : null,
        at: nowIso(),
        ip: info.ip ?? null,
        via: "api",
      });
      const admin = await hasVerifiedTotp(db, userId);
      return view(org, { isAdmin: admin, canManage: admin, canEdit: admin });
    },

    /** The seat plans on offer (active plans of kind organization), cheapest first as ordered. */
    async seatPlans(): Promise<PlanView[]> {
      return (await plans.list()).filter((p) => p.kind === "organization").map(publicPlan);
    },

    async get(actor: Actor, slug: string): Promise<OrganizationView> {
      const { org, ...standing } = await load(actor, slug, "view");
      return view(org, standing);
    },

    async listMembers(actor: Actor, slug: string): Promise<MemberView[]> {
      const { org } = await load(actor, slug, "manage");
      const rows = await repo.listMembers(org.slug);
      return rows.map((r) => ({
        userId: r.userId,
        name: r.displayName || r.name,
        email: r.email,
        role: r.isAdmin ? "admin" : "member",
        joinedAt: r.joinedAt,
      }));
    },

    async listPendingInvitations(actor: Actor, slug: string): Promise<PendingInvitationView[]> {
      const { org } = await load(actor, slug, "manage");
      return (await repo.pendingForOrg(org.id, nowIso())).map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        createdAt: i.createdAt,
        expiresAt: i.expiresAt,
      }));
    },

    /** Creates an invitation (token mailed once, stored hashed) unless no seat is left. */
    async invite(
      actor: Actor,
      slug: string,
      input: unknown,
      info: RequestInfo = {},
    ): Promise<PendingInvitationView> {
      const { org, userId } = await load(actor, slug, "manage");
      const body = parseInput(inviteSchema, input);
      const email = body.email.toLowerCase();
      const role = body.role ?? "member";
      const existing = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
      if (existing && (await repo.isMember(org.slug, existing.id))) {
        throw new ServiceError("CONFLICT", "This person is already a member of the organisation.", {
          email: "This person is already a member of the organisation.",
        });
      }
      const at = now();
      const token = randomBytes(32).toString("base64url");
      // The seat check and the new invitation under the organisation's lock: concurrent
      // invitations never take the same seat.
      const invitation = await inTransaction(db, async (trx) => {
        const r = createOrganizationsRepo(trx);
        await r.lockForSeats(org.id);
        const pending = await r.pendingForOrg(org.id, new Date(at).toISOString());
        if (pending.some((p) => p.email === email)) {
          throw new ServiceError("CONFLICT", "An invitation to this address is already pending.", {
            email: "An invitation to this address is already pending.",
          });
        }
        const sub = await r.tenantSubscription(org.id, new Date(at));
        const used = await r.countMembers(org.slug);
        const limit = seatLimit(sub);
        if (limit === null) {
          throw new ServiceError(
            "NO_SEATS",
            "Your organisation has no plan yet: buy seats first (Plan and seats on the Business dashboard), then invite your colleagues.",
          );
        }
        if (used + pending.length >= limit) {
          throw new ServiceError(
            "NO_SEATS",
            `All ${limit} seats are taken (${used} members, ${pending.length} pending invitations): remove a member, cancel an invitation or add seats first.`,
          );
        }
        return r.createInvitation({
          organizationId: org.id,
          email,
          tokenHash: hashInvitationToken(token),
          role,
          invitedBy: userId,
          createdAt: new Date(at).toISOString(),
          expiresAt: new Date(at + INVITATION_TTL_MS).toISOString(),
        });
      });
      const link = `${deps.baseUrl}/individual/dashboard?invite=${token}`;
      await mailer.send({
        to: email,
        subject: `You are invited to join ${org.name} on Lumen Hub`,
        text: [
          `${actor.context.fullName ?? "An administrator"} invited you to join ${org.name} on Lumen Hub.`,
          "",
          `Sign in (or create an account) with this e-mail address, then open:`,
          link,
          "",
          "The invitation can be used once and expires in 7 days.",
          "If you did not expect it, ignore this e-mail.",
        ].join("\n"),
      });
      await record("org_invite_sent", userId, "organization", org.id, { email, role }, info);
      return {
        id: invitation.id,
        email,
        role,
        createdAt: invitation.createdAt,
        expiresAt: invitation.expiresAt,
      };
    },

    /** Cancels a pending invitation: its seat is free again and its link stops working. */
    async cancelInvitation(actor: Actor, slug: string, invitationId: string, info: RequestInfo = {}) {
      const { org, userId } = await load(actor, slug, "manage");
      const id = /^[A-Za-z0-9-]{1,100}$/.test(invitationId) ? invitationId : "";
      if (!id || !(await repo.deletePendingInvitation(org.id, id))) {
        throw new ServiceError("NOT_FOUND", "This invitation is not pending any more.");
      }
      await record("org_invite_canceled", userId, "organization", org.id, { invitationId: id }, info);
    },

    /** Pending invitations for the actor's own e-mail address (no tokens). */
    async myInvitations(actor: Actor): Promise<MyInvitationView[]> {
      requireSignedIn(actor);
      if (!actor.context.email) return [];
      const rows = await repo.pendingForEmail(actor.context.email.toLowerCase(), nowIso());
      return rows.map((r) => ({ organizationName: r.orgName, role: r.role, expiresAt: r.expiresAt }));
    },

    /** What an invitation link offers (for the panel that asks to accept it). */
    async previewInvitation(actor: Actor, tokenInput: unknown) {
      requireSignedIn(actor);
      const { token } = parseInput(acceptSchema, { token: tokenInput });
      const invitation = await repo.findInvitationByHash(hashInvitationToken(token));
      const org = invitation ? await repo.getById(invitation.organizationId) : null;
      if (!invitation || !org) throw new ServiceError("NOT_FOUND", "This invitation does not exist.");
      const state = invitation.acceptedAt
        ? "used"
        : invitation.expiresAt <= nowIso()
          ? "expired"
          : invitation.email !== (actor.context.email ?? "").toLowerCase()
            ? "other-email"
            : "open";
      return { organizationName: org.name, role: invitation.role, expiresAt: invitation.expiresAt, state };
    },

    /** The invitee joins: groups, account type business, the Business group. Single use, 7 days. */
    async accept(actor: Actor, input: unknown, info: RequestInfo = {}) {
      const userId = requireSignedIn(actor);
      const { token } = parseInput(acceptSchema, input);
      return inTransaction(db, async (trx) => {
        const r = createOrganizationsRepo(trx);
        const invitation = await r.findInvitationByHash(hashInvitationToken(token));
        if (!invitation) throw new ServiceError("NOT_FOUND", "This invitation does not exist.");
        if (invitation.acceptedAt)
          throw new ServiceError("CONFLICT", "This invitation has already been used.");
        const at = nowIso();
        if (invitation.expiresAt <= at) {
          throw new ServiceError("CONFLICT", "This invitation has expired. Ask for a new one.");
        }
        if (invitation.email !== (actor.context.email ?? "").toLowerCase()) {
          throw new ServiceError("FORBIDDEN", "This invitation was sent to another e-mail address.");
        }
        const org = await r.getById(invitation.organizationId);
        if (!org) throw new ServiceError("NOT_FOUND", "This invitation does not exist.");
        await r.lockForSeats(org.id);
        const current = orgSlugOf(await r.groupsOf(userId));
        if (current && current !== org.slug) {
          throw new ServiceError("CONFLICT", "You already belong to another organisation. Leave it first.");
        }
        if (!(await r.isMember(org.slug, userId))) {
          const sub = await r.tenantSubscription(org.id, new Date(now()));
          const used = await r.countMembers(org.slug);
          const limit = seatLimit(sub);
          if (limit === null) {
            throw new ServiceError(
              "NO_SEATS",
              `${org.name} has no active plan, so it cannot take members now. Ask its administrator to buy seats, then open the invitation again.`,
            );
          }
          if (used >= limit) {
            throw new ServiceError(
              "NO_SEATS",
              `${org.name} has no free seat for you: its seats were reduced after you were invited. Ask its administrator to add a seat or free one, then open the invitation again.`,
            );
          }
        }
        if (!(await r.markAccepted(invitation.id, userId, at))) {
          throw new ServiceError("CONFLICT", "This invitation has already been used.");
        }
        const groups = [memberGroup(org.slug), BUSINESS_GROUP_NAME];
        if (invitation.role === "admin") groups.push(adminGroup(org.slug));
        await r.ensureGroups(groups);
        await r.addToGroups(userId, groups, at);
        await r.setAccountType(userId, "business", at);
        await createAuditRepo(trx).append({
          action: "org_member_joined",
          actorId: userId,
          targetType: "organization",
          targetId: org.id,
          details: { role: invitation.role, invitationId: invitation.id },
          ip: info.ip ?? null,
          at,
        });
        return { organization: { slug: org.slug, name: org.name }, role: invitation.role };
      });
    },

    /** Removes a member (never the last admin). They lose the shared tier on their next request. */
    async removeMember(actor: Actor, slug: string, memberId: string, info: RequestInfo = {}) {
      const { org, userId } = await load(actor, slug, "manage");
      await inTransaction(db, async (trx) => {
        const r = createOrganizationsRepo(trx);
        const members = await r.listMembers(org.slug);
        const target = members.find((m) => m.userId === memberId);
        if (!target) throw new ServiceError("NOT_FOUND", "This person is not a member of the organisation.");
        const admins = members.filter((m) => m.isAdmin);
        if (target.isAdmin && admins.length <= 1) {
          throw new ServiceError(
            "CONFLICT",
            memberId === userId
              ? "You are the organisation's last administrator: make someone else an administrator first."
              : "The organisation's last administrator cannot be removed.",
          );
        }
        const at = nowIso();
        await r.removeFromGroups(memberId, [memberGroup(org.slug), adminGroup(org.slug)]);
        // The tenant subscription must outlive the member who held it: it moves to an admin.
        const heir = admins.find((a) => a.userId !== memberId);
        if (heir) await r.reassignTenantSubscriptions(org.id, memberId, heir.userId);
        if (!orgSlugOf(await r.groupsOf(memberId))) {
          await r.removeFromGroups(memberId, [BUSINESS_GROUP_NAME]);
          await r.setAccountType(memberId, "individual", at);
        }
        await createAuditRepo(trx).append({
          action: "org_member_removed",
          actorId: userId,
          targetType: "user",
          targetId: memberId,
          details: { organizationId: org.id, wasAdmin: target.isAdmin },
          ip: info.ip ?? null,
          at,
        });
      });
    },

    async update(actor: Actor, slug: string, input: unknown, info: RequestInfo = {}) {
      const { org, userId, isAdmin } = await load(actor, slug, "edit");
      const body = parseInput(updateOrganizationSchema, input);
      const domain = body.domain === undefined ? org.domain : body.domain === "" ? null : body.domain;
      await repo.updateDetails(org.id, body.name, domain ?? null);
      await record(
        "org_updated",
        userId,
        "organization",
        org.id,
        { name: body.name, domain: domain ?? null },
        info,
      );
      const updated = await repo.getBySlug(org.slug);
      return view(updated ?? org, { isAdmin, canManage: true, canEdit: true });
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
