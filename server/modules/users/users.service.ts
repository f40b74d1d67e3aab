/**
 * User operations of the data API (docs/decisions/007-data-rules.md). Deny by default:
 * - read: signed-in users, and service credentials with `content:read:all`. A user reads all of
 *   their own row; everyone else's row is its public author profile only (id, displayName, bio,
 *   avatar, createdAt: no username, a sign-in identifier). Organisation admins also read the
 *   username, name and e-mail of their organisations' members (as their dashboard shows them).
 *   Platform admins read whole rows (e-mail included). Inactive users are listed only for
 *   platform admins (and themselves). Filters on private fields (username, email, name, role,
 *   isActive …) are refused for anyone who could not read them (no guessing by filter).
 *   Visitors → UNAUTHENTICATED; API keys → FORBIDDEN.
 * - update: the user (name, displayName, bio) or a platform admin (the same fields). E-mail,
 *   username, avatar (set by the upload endpoint), groups, role, tier, isActive and
 *   emailVerified are never taken here.
 * - create: platform admins only (sign-up is Better Auth's; the row has no password).
 * - delete: platform admins only. People delete their own account with the profile service's
 *   `deleteAccount` (password and a recent sign-in).
 */

import { type Kysely, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { dialectOf } from "../../db/dialect.ts";
import type { FilterFields } from "../../db/filters.ts";
import { MAX_LIMIT } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { type Actor, readsAllContent, requirePlatformAdmin, requireUser } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import {
  type Connection,
  filterConditions,
  type ListArgs,
  parseInput,
  requireId,
  toConnection,
} from "../data-service.ts";
import { memberGroup } from "../organizations/organizations.repo.ts";
import { BIO_MAX } from "./profile.service.ts";
import { createUsersRepo, type User } from "./users.repo.ts";

/**
 * What anyone allowed to read users sees of another user: a public author profile. The
 * username is a sign-in identifier and is not part of it.
 */
export interface PublicUser {
  id: string;
  displayName: string | null;
  bio: string | null;
  /** The avatar's URL (served to signed-in users), not its storage key. */
  avatar: string | null;
  createdAt: string;
}

/** A member of an organisation the reader administers. */
export interface MemberUser extends PublicUser {
  username: string | null;
  name: string;
  email: string;
}

/** A user's own row, or any row for a platform admin. */
export interface PrivateUser extends MemberUser {
  emailVerified: boolean;
  role: string | null;
  isActive: boolean;
  accountType: string | null;
  updatedAt: string;
}

export type UserView = PublicUser | MemberUser | PrivateUser;

/** Better Auth's createdAt/updatedAt (timestamptz on PostgreSQL) are not filterable. */
export const PUBLIC_USER_FILTER_FIELDS: FilterFields = {
  id: "string",
  displayName: "string",
};

export const ADMIN_USER_FILTER_FIELDS: FilterFields = {
  ...PUBLIC_USER_FILTER_FIELDS,
  username: "string",
  name: "string",
  email: "string",
  emailVerified: "boolean",
  role: "string",
  isActive: "boolean",
  accountType: "string",
};

/** Control characters are refused in single-line fields. */
const noControl = (v: string) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
const line = (max: number) => z.string().trim().min(1).max(max).refine(noControl, "control characters");

export const updateUserInput = z
  .strictObject({
    name: line(120),
    displayName: line(80).nullable(),
    bio: z.string().max(BIO_MAX).nullable(),
  })
  .partial();

export const createUserInput = z.strictObject({
  name: line(120),
  email: z.email().max(254),
  username: z
    .string()
    .min(3)
    .max(30)
    .regex(/^[A-Za-z0-9_.]+$/)
    .optional(),
  displayName: line(80).nullable().optional(),
  bio: z.string().max(BIO_MAX).nullable().optional(),
});

const avatarUrlOf = (user: User) =>
  user.avatar
    ? `/api/account/avatar/${encodeURIComponent(user.id)}?v=${Date.parse(user.updatedAt) || 0}`
    : null;

export function publicUser(user: User): PublicUser {
  return {
    id: user.id,
    displayName: user.displayName,
    bio: user.bio,
    avatar: avatarUrlOf(user),
    createdAt: user.createdAt,
  };
}

export function memberUser(user: User): MemberUser {
  return {
    ...publicUser(user),
    username: user.displayUsername ?? user.username,
    name: user.name,
    email: user.email,
  };
}

export function privateUser(user: User): PrivateUser {
  return {
    ...memberUser(user),
    emailVerified: user.emailVerified,
    role: user.role,
    isActive: user.isActive,
    accountType: user.accountType,
    updatedAt: user.updatedAt,
  };
}

export interface UsersServiceDeps {
  db: Kysely<DB>;
}

export function createUsersService(deps: UsersServiceDeps) {
  const { db } = deps;
  const repo = createUsersRepo(db);
  const audit = createAuditRepo(db);
  const dialect = dialectOf(db);

  /** Who is reading: the user's id ("" for a service credential), or a refusal. */
  function reader(actor: Actor): string {
    if (readsAllContent(actor)) return "";
    return requireUser(actor);
  }

  function view(actor: Actor, user: User, members: ReadonlySet<string>): UserView {
    if (actor.platformAdmin || (actor.userId !== null && actor.userId === user.id)) {
      return privateUser(user);
    }
    return members.has(user.id) ? memberUser(user) : publicUser(user);
  }

  /** Which of these users belong to an organisation the actor administers. */
  async function membersOf(actor: Actor, users: readonly User[]): Promise<Set<string>> {
    const orgs = actor.kind === "user" ? (actor.adminOrgs ?? []) : [];
    if (orgs.length === 0 || users.length === 0) return new Set();
    const rows = await db
      .selectFrom("user_group")
      .select("userId")
      .where("groupName", "in", orgs.map(memberGroup))
      .where(
        "userId",
        "in",
        users.map((u) => u.id),
      )
      .execute();
    return new Set(rows.map((r) => r.userId));
  }

  async function viewAll(actor: Actor, users: readonly User[]): Promise<UserView[]> {
    const members = await membersOf(actor, users);
    return users.map((u) => view(actor, u, members));
  }

  function visibleSql(actor: Actor, readerId: string): RawBuilder<boolean> | null {
    if (actor.platformAdmin) return null;
    return sql<boolean>`(${sql.ref("isActive")} = ${true} or ${sql.ref("id")} = ${readerId})`;
  }

  return {
    async get(actor: Actor, id: string): Promise<UserView> {
      const readerId = reader(actor);
      const user = await repo.getById(requireId(id));
      if (!user || (!user.isActive && !actor.platformAdmin && user.id !== readerId)) {
        throw new NotFoundError("user", id);
      }
      return (await viewAll(actor, [user]))[0]!;
    },

    /**
     * Users by id for the data loaders (a comment's author, a subscription's user): the ones the
     * actor may read, each as `get` shows it (public profile, or the whole row for oneself and
     * platform admins), in no particular order. Refused like `get` (visitors, API keys).
     */
    async getMany(actor: Actor, ids: readonly string[]): Promise<UserView[]> {
      const readerId = reader(actor);
      const unique = [...new Set(ids)].filter((id) => id.length > 0 && id.length <= 200);
      const visible = visibleSql(actor, readerId);
      const out: UserView[] = [];
      for (let i = 0; i < unique.length; i += MAX_LIMIT) {
        const chunk = unique.slice(i, i + MAX_LIMIT);
        const page = await repo.listPage({
          conditions: [...(visible ? [visible] : []), sql<boolean>`${sql.ref("id")} in (${sql.join(chunk)})`],
          sortColumn: null,
          direction: "ASC",
          limit: chunk.length,
          cursor: null,
        });
        out.push(...(await viewAll(actor, page.items)));
      }
      return out;
    },

    /** Users by id; filters on private fields only for platform admins. */
    async list(actor: Actor, args: ListArgs = {}): Promise<Connection<UserView>> {
      const readerId = reader(actor);
      const fields = actor.platformAdmin ? ADMIN_USER_FILTER_FIELDS : PUBLIC_USER_FILTER_FIELDS;
      const visible = visibleSql(actor, readerId);
      const page = await repo.listPage({
        conditions: [...(visible ? [visible] : []), ...filterConditions(fields, args.filter, dialect)],
        sortColumn: null,
        direction: "ASC",
        limit: args.limit,
        cursor: args.nextToken,
      });
      const views = new Map((await viewAll(actor, page.items)).map((v) => [v.id, v]));
      return toConnection(page, (u) => views.get(u.id)!);
    },

    /** Platform admins only: a user row without a password (they set one through a reset). */
    async create(actor: Actor, input: unknown): Promise<PrivateUser> {
      const adminId = requirePlatformAdmin(actor);
      const data = parseInput(createUserInput, input);
      const created = await repo.create({ ...data, emailVerified: false });
      await audit.append({
        action: "user_created",
        actorId: adminId,
        targetType: "user",
        targetId: created.id,
      });
      return privateUser(created);
    },

    /** The user themself or a platform admin; only name, displayName and bio. */
    async update(actor: Actor, id: string, patch: unknown): Promise<PrivateUser> {
      const userId = requireUser(actor);
      requireId(id);
      if (id !== userId && !actor.platformAdmin) {
        // Someone else's row: indistinguishable from a missing one unless it is readable.
        const exists = await repo.getById(id);
        if (!exists?.isActive) throw new NotFoundError("user", id);
        throw new ForbiddenError("you can only change your own profile");
      }
      const data = parseInput(updateUserInput, patch);
      const current = await repo.getById(id);
      if (!current) throw new NotFoundError("user", id);
      const updated = Object.keys(data).length === 0 ? current : await repo.update(id, data);
      return privateUser(updated);
    },

    /** Platform admins only (account deletion by its owner: profile service `deleteAccount`). */
    async delete(actor: Actor, id: string): Promise<PrivateUser> {
      const adminId = requirePlatformAdmin(actor);
      const user = await repo.getById(requireId(id));
      if (!user || !(await repo.delete(id))) throw new NotFoundError("user", id);
      await audit.append({ action: "user_deleted", actorId: adminId, targetType: "user", targetId: id });
      return privateUser(user);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
