/**
 * Users (the `user` table shared with Better Auth, plus the spec's User fields) and their app
 * groups. Better Auth creates users on sign-up; `create` here is for seeds, tests and admin tools.
 */
import { type Kysely, type Selectable, sql, type Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { type KeysetQuery, keysetPage } from "../../db/keyset-page.ts";
import { clampLimit, decodeCursor, type Page, type PageOptions, toPage } from "../../db/pagination.ts";
import type { DB, GroupTable, UserTable } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { definedOnly, isoInput, nowIso, toBool, toIso } from "../../db/values.ts";
import { BadInputError, isForeignKeyViolation, NotFoundError, rethrowConstraintError } from "../../errors.ts";
import { groupDefinitionSchema, groupNameSchema, userCursorSchema } from "./users.schemas.ts";

export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: string;
  updatedAt: string;
  username: string | null;
  displayUsername: string | null;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  role: string | null;
  isActive: boolean;
  accountType: string | null;
}

export interface UserFields {
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  username: string | null;
  displayUsername: string | null;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  role: string | null;
  isActive: boolean;
  accountType: string | null;
}

export type NewUser = Pick<UserFields, "name" | "email"> &
  Partial<Omit<UserFields, "name" | "email">> & { id?: string; createdAt?: string | Date };

export type UserPatch = Partial<UserFields>;

export interface Group {
  name: string;
  precedence: number;
  description: string | null;
}

export interface GroupDefinition {
  name: string;
  precedence?: number;
  description?: string | null;
}

export interface UserListFilter {
  /** Case-insensitive substring of name, email or username. */
  search?: string;
  role?: string;
  isActive?: boolean;
}

type Row = Selectable<UserTable>;

function fromRow(row: Row): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: toBool(row.emailVerified),
    image: row.image,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    username: row.username,
    displayUsername: row.displayUsername,
    displayName: row.displayName,
    bio: row.bio,
    avatar: row.avatar,
    role: row.role,
    isActive: toBool(row.isActive),
    accountType: row.accountType,
  };
}

function groupFromRow(row: Selectable<GroupTable>): Group {
  return { name: row.name, precedence: row.precedence, description: row.description };
}

/** Emails and usernames are stored and looked up in lower case (as Better Auth does). */
function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}

function toColumns(fields: Partial<UserFields>): Updateable<UserTable> {
  const out = definedOnly({
    name: fields.name,
    email: fields.email === undefined ? undefined : normaliseEmail(fields.email),
    emailVerified: fields.emailVerified,
    image: fields.image,
    username:
      fields.username === undefined || fields.username === null
        ? fields.username
        : normaliseUsername(fields.username),
    displayUsername:
      fields.displayUsername === undefined && typeof fields.username === "string"
        ? fields.username.trim()
        : fields.displayUsername,
    displayName: fields.displayName,
    bio: fields.bio,
    avatar: fields.avatar,
    role: fields.role,
    isActive: fields.isActive,
    accountType: fields.accountType,
  });
  return out as Updateable<UserTable>;
}

function parseGroupName(name: string): string {
  const parsed = groupNameSchema.safeParse(name);
  if (!parsed.success) throw new BadInputError("group name is not valid");
  return parsed.data;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createUsersRepo(db: Kysely<DB>) {
  async function getGroupNames(userId: string): Promise<string[]> {
    const rows = await db
      .selectFrom("user_group")
      .innerJoin("group", "group.name", "user_group.groupName")
      .select("user_group.groupName")
      .where("user_group.userId", "=", userId)
      .orderBy("group.precedence")
      .orderBy("user_group.groupName")
      .execute();
    return rows.map((r) => r.groupName);
  }

  async function ensureGroups(groups: readonly GroupDefinition[]): Promise<void> {
    for (const definition of groups) {
      const parsed = groupDefinitionSchema.safeParse(definition);
      if (!parsed.success) throw new BadInputError("group definition is not valid");
      const { name, precedence, description } = parsed.data;
      const changes: { precedence?: number; description?: string | null } = definedOnly({
        precedence,
        description,
      });
      await db
        .insertInto("group")
        .values({ name, precedence: precedence ?? 0, description: description ?? null })
        .onConflict((oc) =>
          Object.keys(changes).length > 0
            ? oc.column("name").doUpdateSet(changes)
            : oc.column("name").doNothing(),
        )
        .execute();
    }
  }

  async function addToGroup(userId: string, groupName: string): Promise<boolean> {
    const name = parseGroupName(groupName);
    // Checked first: inside a PostgreSQL transaction a failed insert would abort the transaction.
    const group = await db.selectFrom("group").select("name").where("name", "=", name).executeTakeFirst();
    if (!group) throw new NotFoundError("group", name);
    try {
      const result = await db
        .insertInto("user_group")
        .values({ userId, groupName: name, createdAt: nowIso() })
        .onConflict((oc) => oc.columns(["userId", "groupName"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new NotFoundError("user", userId, { cause: error });
      throw error;
    }
  }

  return {
    async getById(id: string): Promise<User | null> {
      const row = await db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    async getByEmail(email: string): Promise<User | null> {
      const row = await db
        .selectFrom("user")
        .selectAll()
        .where("email", "=", normaliseEmail(email))
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    async getByUsername(username: string): Promise<User | null> {
      const row = await db
        .selectFrom("user")
        .selectAll()
        .where("username", "=", normaliseUsername(username))
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    /** Newest first (createdAt desc, then id desc), keyset-paginated. */
    async list(filter: UserListFilter = {}, page: PageOptions = {}): Promise<Page<User>> {
      const limit = clampLimit(page.limit);
      const cursor = page.cursor ? decodeCursor(userCursorSchema, page.cursor) : null;
      let query = db.selectFrom("user").selectAll();
      if (filter.search !== undefined && filter.search.trim() !== "") {
        const pattern = `%${escapeLike(filter.search.trim().toLowerCase())}%`;
        query = query.where((eb) =>
          eb.or(
            (["name", "email", "username"] as const).map(
              (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
            ),
          ),
        );
      }
      if (filter.role !== undefined) query = query.where("role", "=", filter.role);
      if (filter.isActive !== undefined) query = query.where("isActive", "=", filter.isActive);
      if (cursor) {
        query = query.where((eb) =>
          eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(cursor.createdAt, cursor.id)),
        );
      }
      const rows = await query
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(limit + 1)
        .execute();
      return toPage(rows, limit, fromRow, (r) => ({ createdAt: toIso(r.createdAt), id: r.id }));
    },

    /** One keyset page of the rows matching every condition (the data API's lists). */
    listPage(query: Omit<KeysetQuery<User>, "table" | "map">): Promise<Page<User>> {
      return keysetPage(db, { ...query, table: "user", map: fromRow });
    },

    async create(input: NewUser): Promise<User> {
      const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
      try {
        const row = await db
          .insertInto("user")
          .values({
            ...toColumns(input),
            id: input.id ?? uuidv7(),
            name: input.name,
            email: normaliseEmail(input.email),
            emailVerified: input.emailVerified ?? false,
            createdAt,
            updatedAt: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return fromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "user");
      }
    },

    async update(id: string, patch: UserPatch): Promise<User> {
      let row: Row | undefined;
      try {
        row = await db
          .updateTable("user")
          .set({ ...toColumns(patch), updatedAt: nowIso() })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "user");
      }
      if (!row) throw new NotFoundError("user", id);
      return fromRow(row);
    },

    /** Deletes the user; sessions, accounts, group memberships and subscriptions cascade. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("user").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    // Groups ---------------------------------------------------------------------------------

    /** Creates missing groups and updates the precedence/description of existing ones. */
    ensureGroups,

    /** Every group, by precedence then name. */
    async listGroups(): Promise<Group[]> {
      const rows = await db.selectFrom("group").selectAll().orderBy("precedence").orderBy("name").execute();
      return rows.map(groupFromRow);
    },

    /** The names of a user's groups, by precedence then name. */
    getGroupNames,

    /** A user's groups with their precedence and description. */
    async listGroupsOfUser(userId: string): Promise<Group[]> {
      const rows = await db
        .selectFrom("user_group")
        .innerJoin("group", "group.name", "user_group.groupName")
        .select(["group.name", "group.precedence", "group.description"])
        .where("user_group.userId", "=", userId)
        .orderBy("group.precedence")
        .orderBy("group.name")
        .execute();
      return rows.map(groupFromRow);
    },

    /** The ids of a group's members, oldest membership first. */
    async listUserIdsInGroup(groupName: string): Promise<string[]> {
      const rows = await db
        .selectFrom("user_group")
        .select("userId")
        .where("groupName", "=", groupName)
        .orderBy("createdAt")
        .orderBy("userId")
        .execute();
      return rows.map((r) => r.userId);
    },

    /** Adds a membership; true when it was new. Unknown user or group → NotFoundError. */
    addToGroup,

    /** Removes a membership; true when it existed. */
    async removeFromGroup(userId: string, groupName: string): Promise<boolean> {
      const result = await db
        .deleteFrom("user_group")
        .where("userId", "=", userId)
        .where("groupName", "=", groupName)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Replaces a user's memberships with exactly `groupNames` (in one transaction). */
    async setGroups(userId: string, groupNames: readonly string[]): Promise<void> {
      const names = [...new Set(groupNames.map(parseGroupName))];
      const apply = async (trx: Kysely<DB>) => {
        let removal = trx.deleteFrom("user_group").where("userId", "=", userId);
        if (names.length > 0) removal = removal.where("groupName", "not in", names);
        await removal.execute();
        await createUsersRepo(trx).addAll(userId, names);
      };
      await inTransaction(db, apply);
    },

    /** Adds several memberships (existing ones are kept). */
    async addAll(userId: string, groupNames: readonly string[]): Promise<void> {
      for (const name of groupNames) await addToGroup(userId, name);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
