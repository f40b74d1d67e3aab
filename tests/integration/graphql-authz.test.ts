/**
 * The data API's authorization table (issue 5 "Tests"): every model × every auth mode × every
 * rule, allowed and denied, over real HTTP on both dialects, for UserSubscription, User, Comment,
 * GitHubRepository, RepositoryCategory, RepositoryFile, RepositoryBranch, RepositoryIssue and
 * RepositoryWorkflow (the content models have their own suite: graphql-content.test.ts).
 *
 * Each row is one operation (get, list, listByKey, create, update, delete) on one fixture; its
 * expected outcome per actor is written by hand from docs/decisions/007-data-rules.md and issue 5
 * item 4. An outcome is `ok` (data), `seen` / `unseen` (a list with or without the fixture; a
 * `control` row that everyone may read must be there too), `email` / `noEmail` (a user with or
 * without their private fields), or the error code. Denied mutations are checked to have changed
 * nothing. Then: stale updates (CONFLICT, no lost write) per versioned model, pagination through
 * every row exactly once, other users' e-mail (top level and nested), and bad input.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../server/db/schema.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createCommentsRepo } from "../../server/modules/comments/comments.repo.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { createRepositoriesRepo } from "../../server/modules/repositories/repositories.repo.ts";
import { createSubscriptionsRepo } from "../../server/modules/subscriptions/subscriptions.repo.ts";
import { createUsersRepo } from "../../server/modules/users/users.repo.ts";
import { buildContent, buildSubscription } from "../factories/index.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const WHO = [
  "visitor",
  "free",
  "pro",
  "business",
  "manager",
  "admin",
  "owner",
  "bearerPro",
  "bearerAdmin",
  "keyContent",
  "keyRepos",
  "svcRead",
  "svcAll",
] as const;
type Who = (typeof WHO)[number];
/** Signed-in demo accounts (session cookie); bearer* use the same account's ID token. */
const ACCOUNTS = ["free", "pro", "business", "manager", "admin", "owner"] as const;
type Account = (typeof ACCOUNTS)[number];
const ACCOUNT_OF: Partial<Record<Who, Account>> = {
  free: "free",
  pro: "pro",
  business: "business",
  manager: "manager",
  admin: "admin",
  owner: "owner",
  bearerPro: "pro",
  bearerAdmin: "admin",
};

type Outcome =
  | "ok"
  | "seen"
  | "unseen"
  | "email"
  | "noEmail"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "BAD_USER_INPUT"
  | "CONFLICT";
type Expect = Record<Who, Outcome>;

// The rules, by hand (decision 007). ---------------------------------------------------------

/** Platform admins only (app-admin, app-owner), signed in; read-only credentials refused. */
const PLATFORM_ADMINS: Expect = {
  visitor: "UNAUTHENTICATED",
  free: "FORBIDDEN",
  pro: "FORBIDDEN",
  business: "FORBIDDEN",
  manager: "FORBIDDEN",
  admin: "ok",
  owner: "ok",
  bearerPro: "FORBIDDEN",
  bearerAdmin: "ok",
  keyContent: "FORBIDDEN",
  keyRepos: "FORBIDDEN",
  svcRead: "FORBIDDEN",
  svcAll: "FORBIDDEN",
};
/** Every signed-in user; visitors must sign in; API keys and services are read only. */
const SIGNED_IN_WRITE: Expect = {
  visitor: "UNAUTHENTICATED",
  free: "ok",
  pro: "ok",
  business: "ok",
  manager: "ok",
  admin: "ok",
  owner: "ok",
  bearerPro: "ok",
  bearerAdmin: "ok",
  keyContent: "FORBIDDEN",
  keyRepos: "FORBIDDEN",
  svcRead: "FORBIDDEN",
  svcAll: "FORBIDDEN",
};
/** Repository models, enabled/visible rows: everyone; keys and services need repositories:read. */
const REPO_PUBLIC: Expect = {
  visitor: "ok",
  free: "ok",
  pro: "ok",
  business: "ok",
  manager: "ok",
  admin: "ok",
  owner: "ok",
  bearerPro: "ok",
  bearerAdmin: "ok",
  keyContent: "FORBIDDEN",
  keyRepos: "ok",
  svcRead: "ok",
  svcAll: "FORBIDDEN",
};
/** A disabled repository (and its cache) or a hidden category: platform admins only. */
const REPO_HIDDEN_GET: Expect = {
  visitor: "NOT_FOUND",
  free: "NOT_FOUND",
  pro: "NOT_FOUND",
  business: "NOT_FOUND",
  manager: "NOT_FOUND",
  admin: "ok",
  owner: "ok",
  bearerPro: "NOT_FOUND",
  bearerAdmin: "ok",
  keyContent: "FORBIDDEN",
  keyRepos: "NOT_FOUND",
  svcRead: "NOT_FOUND",
  svcAll: "FORBIDDEN",
};
const REPO_HIDDEN_LIST: Expect = {
  visitor: "unseen",
  free: "unseen",
  pro: "unseen",
  business: "unseen",
  manager: "unseen",
  admin: "seen",
  owner: "seen",
  bearerPro: "unseen",
  bearerAdmin: "seen",
  keyContent: "FORBIDDEN",
  keyRepos: "unseen",
  svcRead: "unseen",
  svcAll: "FORBIDDEN",
};

interface Ctx {
  ids: Record<string, string>;
  userIds: Record<Account, string>;
  emails: Record<Account, string>;
  db: Kysely<DB>;
}

interface Row {
  model: string;
  op: "get" | "list" | "listByKey" | "create" | "update" | "delete";
  rule: string;
  query: string;
  /** The root field whose value is observed. */
  field: string;
  vars: (who: Who, c: Ctx) => Record<string, unknown> | Promise<Record<string, unknown>>;
  expect: Expect;
  /** Maps the field's value to an outcome (default: ok when non-null). */
  observe?: (value: unknown, c: Ctx, vars: Record<string, unknown>) => Outcome;
  /** After a refused mutation: asserts nothing changed. */
  unchanged?: (vars: Record<string, unknown>, c: Ctx) => Promise<void>;
}

/** A list with the `target` row (and, when given, the `control` row everyone may read). */
const listed =
  (target: string, control?: string) =>
  (value: unknown, c: Ctx): Outcome => {
    const ids = ((value as { items: Array<{ id: string }> }).items ?? []).map((i) => i.id);
    if (control && !ids.includes(c.ids[control]!))
      throw new Error(`control ${control} missing from the list`);
    return ids.includes(c.ids[target]!) ? "seen" : "unseen";
  };
const withEmail = (value: unknown): Outcome => {
  const user = value as { email: string | null; name: string | null };
  if (user.email === null && user.name === null) return "noEmail";
  if (user.email !== null && user.name !== null) return "email";
  throw new Error(`partly private: ${JSON.stringify(user)}`);
};

let counter = 0;
const unique = (who: Who) => `${who.toLowerCase()}-${++counter}`;

const get = (model: string, rule: string, target: string, expect: Expect, extra = ""): Row => ({
  model,
  op: "get",
  rule,
  query: `query ($id: ID!) { get${model}(id: $id) { id ${extra} } }`,
  field: `get${model}`,
  vars: (_who, c) => ({ id: c.ids[target] }),
  expect,
});

// Fixture makers (through the repositories, as an allowed actor would) ------------------------

async function freshSubscription(c: Ctx) {
  return createSubscriptionsRepo(c.db).create(
    buildSubscription(c.ids.member!, { tier: "basic", tenantId: c.ids.org! }),
  );
}
async function freshComment(c: Ctx, authorId: string, contentId: string) {
  return createCommentsRepo(c.db).create({
    contentId,
    authorId,
    body: "A first thought.",
    status: "published",
  });
}
async function freshRepository(c: Ctx) {
  return createRepositoriesRepo(c.db).createRepository({ slug: `fresh-${++counter}`, owner: "fixtures" });
}
async function versionOf(
  c: Ctx,
  table: "user_subscription" | "comment" | "github_repository" | "repository_category",
  id: unknown,
) {
  const row = await c.db.selectFrom(table).select("version").where("id", "=", String(id)).executeTakeFirst();
  return row?.version ?? null;
}
async function exists(
  c: Ctx,
  table:
    | "user_subscription"
    | "user"
    | "comment"
    | "github_repository"
    | "repository_category"
    | "repository_file"
    | "repository_branch"
    | "repository_issue"
    | "repository_workflow",
  id: unknown,
) {
  return (
    (await c.db.selectFrom(table).select("id").where("id", "=", String(id)).executeTakeFirst()) !== undefined
  );
}

// The table ------------------------------------------------------------------------------------

const SUBSCRIPTION_READ_OWN: Expect = {
  visitor: "UNAUTHENTICATED",
  free: "ok",
  pro: "NOT_FOUND",
  business: "NOT_FOUND",
  manager: "NOT_FOUND",
  admin: "ok",
  owner: "ok",
  bearerPro: "NOT_FOUND",
  bearerAdmin: "ok",
  keyContent: "FORBIDDEN",
  keyRepos: "FORBIDDEN",
  svcRead: "FORBIDDEN",
  svcAll: "FORBIDDEN",
};
const SUBSCRIPTION_READ_TENANT: Expect = {
  visitor: "UNAUTHENTICATED",
  free: "NOT_FOUND",
  pro: "NOT_FOUND",
  business: "ok",
  manager: "NOT_FOUND",
  admin: "ok",
  owner: "ok",
  bearerPro: "NOT_FOUND",
  bearerAdmin: "ok",
  keyContent: "FORBIDDEN",
  keyRepos: "FORBIDDEN",
  svcRead: "FORBIDDEN",
  svcAll: "FORBIDDEN",
};
const seenFor = (e: Expect): Expect =>
  Object.fromEntries(
    Object.entries(e).map(([w, o]) => [w, o === "ok" ? "seen" : o === "NOT_FOUND" ? "unseen" : o]),
  ) as Expect;

const subscriptionRows: Row[] = [
  get("UserSubscription", "the subscriber and platform admins", "subFree", SUBSCRIPTION_READ_OWN),
  get("UserSubscription", "organisation admins for their tenant", "subTenant", SUBSCRIPTION_READ_TENANT),
  {
    model: "UserSubscription",
    op: "list",
    rule: "organisation admins for their tenant, in SQL",
    query: `query ($id: String!) { listUserSubscriptions(filter: { id: { eq: $id } }) { items { id } } }`,
    field: "listUserSubscriptions",
    vars: (_w, c) => ({ id: c.ids.subTenant }),
    observe: listed("subTenant"),
    expect: seenFor(SUBSCRIPTION_READ_TENANT),
  },
  {
    model: "UserSubscription",
    op: "listByKey",
    rule: "listUserSubscriptionByUserId: the subscriber's own",
    query: `query ($u: String!) { listUserSubscriptionByUserId(userId: $u) { items { id } } }`,
    field: "listUserSubscriptionByUserId",
    vars: (_w, c) => ({ u: c.userIds.free }),
    observe: listed("subFree"),
    expect: seenFor(SUBSCRIPTION_READ_OWN),
  },
  {
    model: "UserSubscription",
    op: "listByKey",
    rule: "listUserSubscriptionByTenantIdAndTier: the tenant's admins",
    query: `query ($t: String!) { listUserSubscriptionByTenantIdAndTier(tenantId: $t, tier: { eq: "basic" }, sortDirection: DESC) { items { id } } }`,
    field: "listUserSubscriptionByTenantIdAndTier",
    vars: (_w, c) => ({ t: c.ids.org }),
    observe: listed("subTenant"),
    expect: seenFor(SUBSCRIPTION_READ_TENANT),
  },
  {
    model: "UserSubscription",
    op: "create",
    rule: "platform admins",
    query: `mutation ($u: String!) { createUserSubscription(input: { userId: $u, tier: "pro", source: "authz" }) { id tier } }`,
    field: "createUserSubscription",
    vars: (_w, c) => ({ u: c.ids.member }),
    expect: PLATFORM_ADMINS,
  },
  {
    model: "UserSubscription",
    op: "update",
    rule: "platform admins (organisation admins read only)",
    query: `mutation ($id: ID!) { updateUserSubscription(id: $id, version: 1, input: { status: "canceled" }) { id status version } }`,
    field: "updateUserSubscription",
    vars: async (_w, c) => ({ id: (await freshSubscription(c)).id }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await versionOf(c, "user_subscription", v.id)).toBe(1),
  },
  {
    model: "UserSubscription",
    op: "delete",
    rule: "platform admins",
    query: `mutation ($id: ID!) { deleteUserSubscription(id: $id) { id } }`,
    field: "deleteUserSubscription",
    vars: async (_w, c) => ({ id: (await freshSubscription(c)).id }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await exists(c, "user_subscription", v.id)).toBe(true),
  },
];

/** Users: signed-in readers and content:read:all services; private fields only for self and admins. */
const USER_READ_OTHER: Expect = {
  visitor: "UNAUTHENTICATED",
  free: "email",
  pro: "noEmail",
  business: "noEmail",
  manager: "noEmail",
  admin: "email",
  owner: "email",
  bearerPro: "noEmail",
  bearerAdmin: "email",
  keyContent: "FORBIDDEN",
  keyRepos: "FORBIDDEN",
  svcRead: "FORBIDDEN",
  svcAll: "noEmail",
};
const USER_FIELDS = "id username displayName email name emailVerified role isActive accountType";

const userRows: Row[] = [
  {
    ...get(
      "User",
      "signed-in readers; e-mail for self and platform admins",
      "freeUser",
      USER_READ_OTHER,
      USER_FIELDS,
    ),
    observe: withEmail,
  },
  {
    model: "User",
    op: "list",
    rule: "signed-in readers; e-mail for self and platform admins",
    query: `query ($id: String!) { listUsers(filter: { id: { eq: $id } }) { items { ${USER_FIELDS} } } }`,
    field: "listUsers",
    vars: (_w, c) => ({ id: c.userIds.free }),
    observe: (value) => {
      const items = (value as { items: unknown[] }).items;
      if (items.length !== 1) throw new Error(`expected the user, got ${items.length} rows`);
      return withEmail(items[0]);
    },
    expect: USER_READ_OTHER,
  },
  {
    model: "User",
    op: "list",
    rule: "no guessing by filter on e-mail (platform admins only)",
    query: `query ($e: String!) { listUsers(filter: { email: { beginsWith: $e } }) { items { id } } }`,
    field: "listUsers",
    vars: (_w, c) => ({ e: c.emails.free.slice(0, 3) }),
    observe: listed("freeUser"),
    expect: {
      visitor: "UNAUTHENTICATED",
      free: "BAD_USER_INPUT",
      pro: "BAD_USER_INPUT",
      business: "BAD_USER_INPUT",
      manager: "BAD_USER_INPUT",
      admin: "seen",
      owner: "seen",
      bearerPro: "BAD_USER_INPUT",
      bearerAdmin: "seen",
      keyContent: "FORBIDDEN",
      keyRepos: "FORBIDDEN",
      svcRead: "FORBIDDEN",
      svcAll: "BAD_USER_INPUT",
    },
  },
  {
    model: "User",
    op: "create",
    rule: "platform admins",
    query: `mutation ($e: String!) { createUser(input: { name: "New Person", email: $e }) { id email } }`,
    field: "createUser",
    vars: (who) => ({ e: `${unique(who)}@example.test` }),
    expect: PLATFORM_ADMINS,
  },
  {
    model: "User",
    op: "update",
    rule: "one's own profile",
    query: `mutation ($id: ID!) { updateUser(id: $id, input: { bio: "Learning every day." }) { id bio } }`,
    field: "updateUser",
    vars: (who, c) => ({ id: c.userIds[ACCOUNT_OF[who] ?? "free"] }),
    expect: SIGNED_IN_WRITE,
  },
  {
    model: "User",
    op: "update",
    rule: "someone else's profile: platform admins",
    query: `mutation ($id: ID!) { updateUser(id: $id, input: { bio: "Changed by someone else." }) { id bio } }`,
    field: "updateUser",
    vars: async (who, c) => ({
      id: (await createUsersRepo(c.db).create({ name: "Sam Member", email: `${unique(who)}@example.test` }))
        .id,
    }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) =>
      expect((await createUsersRepo(c.db).getById(String(v.id)))?.bio ?? null).toBeNull(),
  },
  {
    model: "User",
    op: "delete",
    rule: "platform admins",
    query: `mutation ($id: ID!) { deleteUser(id: $id) { id } }`,
    field: "deleteUser",
    vars: async (who, c) => ({
      id: (await createUsersRepo(c.db).create({ name: "Del Etable", email: `${unique(who)}@example.test` }))
        .id,
    }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await exists(c, "user", v.id)).toBe(true),
  },
];

/** A published comment on Free content: everyone with content:read. */
const COMMENT_ON_FREE: Expect = {
  visitor: "ok",
  free: "ok",
  pro: "ok",
  business: "ok",
  manager: "ok",
  admin: "ok",
  owner: "ok",
  bearerPro: "ok",
  bearerAdmin: "ok",
  keyContent: "ok",
  keyRepos: "FORBIDDEN",
  svcRead: "ok",
  svcAll: "ok",
};
/** A published comment on Pro content: readers whose plan opens the content (business is Enterprise). */
const COMMENT_ON_PRO: Expect = {
  visitor: "NOT_FOUND",
  free: "NOT_FOUND",
  pro: "ok",
  business: "ok",
  manager: "ok",
  admin: "ok",
  owner: "ok",
  bearerPro: "ok",
  bearerAdmin: "ok",
  keyContent: "NOT_FOUND",
  keyRepos: "FORBIDDEN",
  svcRead: "NOT_FOUND",
  svcAll: "ok",
};
/** A hidden comment by free: moderators and content:read:all services (not even its author). */
const COMMENT_HIDDEN: Expect = {
  visitor: "NOT_FOUND",
  free: "NOT_FOUND",
  pro: "NOT_FOUND",
  business: "NOT_FOUND",
  manager: "ok",
  admin: "ok",
  owner: "ok",
  bearerPro: "NOT_FOUND",
  bearerAdmin: "ok",
  keyContent: "NOT_FOUND",
  keyRepos: "FORBIDDEN",
  svcRead: "NOT_FOUND",
  svcAll: "ok",
};
/** A comment on a draft: moderators and content:read:all services only. */
const COMMENT_ON_DRAFT: Expect = {
  visitor: "NOT_FOUND",
  free: "NOT_FOUND",
  pro: "NOT_FOUND",
  business: "NOT_FOUND",
  manager: "ok",
  admin: "ok",
  owner: "ok",
  bearerPro: "NOT_FOUND",
  bearerAdmin: "ok",
  keyContent: "NOT_FOUND",
  keyRepos: "FORBIDDEN",
  svcRead: "NOT_FOUND",
  svcAll: "ok",
};
const COMMENT_ON_DRAFT_LIST: Expect = {
  visitor: "NOT_FOUND",
  free: "NOT_FOUND",
  pro: "NOT_FOUND",
  business: "NOT_FOUND",
  manager: "seen",
  admin: "seen",
  owner: "seen",
  bearerPro: "NOT_FOUND",
  bearerAdmin: "seen",
  keyContent: "NOT_FOUND",
  keyRepos: "FORBIDDEN",
  svcRead: "NOT_FOUND",
  svcAll: "seen",
};
const COMMENT = "id body status authorId contentId version";

const commentRows: Row[] = [
  get("Comment", "published, on Free content", "commentFree", COMMENT_ON_FREE, COMMENT),
  get("Comment", "on Pro content: readers of its body", "commentPro", COMMENT_ON_PRO, COMMENT),
  get("Comment", "hidden: moderators only", "commentHidden", COMMENT_HIDDEN, COMMENT),
  get("Comment", "on a draft: moderators", "commentDraft", COMMENT_ON_DRAFT, COMMENT),
  {
    model: "Comment",
    op: "list",
    rule: "on Pro content: readers of its body, in SQL",
    query: `query ($id: String!) { listComments(filter: { id: { eq: $id } }) { items { id } } }`,
    field: "listComments",
    vars: (_w, c) => ({ id: c.ids.commentPro }),
    observe: listed("commentPro"),
    expect: seenFor(COMMENT_ON_PRO),
  },
  {
    model: "Comment",
    op: "list",
    rule: "hidden: its author and moderators, in SQL",
    query: `query ($id: String!) { listComments(filter: { id: { eq: $id } }) { items { id } } }`,
    field: "listComments",
    vars: (_w, c) => ({ id: c.ids.commentHidden }),
    observe: listed("commentHidden"),
    expect: seenFor(COMMENT_HIDDEN),
  },
  {
    model: "Comment",
    op: "listByKey",
    rule: "listCommentByContentIdAndCreatedAt on locked content: FORBIDDEN",
    query: `query ($c: String!) { listCommentByContentIdAndCreatedAt(contentId: $c, createdAt: { ge: "2020-01-01T00:00:00Z" }) { items { id } } }`,
    field: "listCommentByContentIdAndCreatedAt",
    vars: (_w, c) => ({ c: c.ids.proContent }),
    observe: listed("commentPro"),
    expect: {
      visitor: "FORBIDDEN",
      free: "FORBIDDEN",
      pro: "seen",
      business: "seen",
      manager: "seen",
      admin: "seen",
      owner: "seen",
      bearerPro: "seen",
      bearerAdmin: "seen",
      keyContent: "FORBIDDEN",
      keyRepos: "FORBIDDEN",
      svcRead: "FORBIDDEN",
      svcAll: "seen",
    },
  },
  {
    model: "Comment",
    op: "listByKey",
    rule: "listCommentByContentIdAndCreatedAt on a draft: NOT_FOUND",
    query: `query ($c: String!) { listCommentByContentIdAndCreatedAt(contentId: $c, sortDirection: DESC) { items { id } } }`,
    field: "listCommentByContentIdAndCreatedAt",
    vars: (_w, c) => ({ c: c.ids.draftContent }),
    observe: listed("commentDraft"),
    // Listing the comments of content the reader cannot see is NOT_FOUND (not an empty list).
    expect: COMMENT_ON_DRAFT_LIST,
  },
  {
    model: "Comment",
    op: "listByKey",
    rule: "listCommentByAuthorIdAndCreatedAt: only what the reader may read",
    query: `query ($a: String!) { listCommentByAuthorIdAndCreatedAt(authorId: $a, createdAt: { beginsWith: "20" }) { items { id } } }`,
    field: "listCommentByAuthorIdAndCreatedAt",
    vars: (_w, c) => ({ a: c.userIds.free }),
    observe: listed("commentHidden"),
    expect: {
      ...seenFor(COMMENT_HIDDEN),
      keyRepos: "FORBIDDEN",
    },
  },
  {
    model: "Comment",
    op: "create",
    rule: "signed-in users on content they may read",
    query: `mutation ($c: String!) { createComment(input: { contentId: $c, body: "Thanks, this helped." }) { id authorId } }`,
    field: "createComment",
    vars: (_w, c) => ({ c: c.ids.freeContent }),
    expect: SIGNED_IN_WRITE,
  },
  {
    model: "Comment",
    op: "create",
    rule: "not on content whose body is locked",
    query: `mutation ($c: String!) { createComment(input: { contentId: $c, body: "Thanks, this helped." }) { id authorId } }`,
    field: "createComment",
    vars: (_w, c) => ({ c: c.ids.proContent }),
    expect: { ...SIGNED_IN_WRITE, free: "FORBIDDEN" },
  },
  {
    model: "Comment",
    op: "update",
    rule: "the body: its author only",
    query: `mutation ($id: ID!) { updateComment(id: $id, version: 1, input: { body: "Edited." }) { id body version } }`,
    field: "updateComment",
    vars: async (_w, c) => ({ id: (await freshComment(c, c.userIds.pro, c.ids.freeContent!)).id }),
    expect: {
      visitor: "UNAUTHENTICATED",
      free: "FORBIDDEN",
      pro: "ok",
      business: "FORBIDDEN",
      manager: "FORBIDDEN",
      admin: "FORBIDDEN",
      owner: "FORBIDDEN",
      bearerPro: "ok",
      bearerAdmin: "FORBIDDEN",
      keyContent: "FORBIDDEN",
      keyRepos: "FORBIDDEN",
      svcRead: "FORBIDDEN",
      svcAll: "FORBIDDEN",
    },
    unchanged: async (v, c) => expect(await versionOf(c, "comment", v.id)).toBe(1),
  },
  {
    model: "Comment",
    op: "update",
    rule: "the status: moderators only",
    query: `mutation ($id: ID!) { updateComment(id: $id, version: 1, input: { status: "hidden" }) { id status version } }`,
    field: "updateComment",
    vars: async (_w, c) => ({ id: (await freshComment(c, c.userIds.pro, c.ids.freeContent!)).id }),
    expect: {
      visitor: "UNAUTHENTICATED",
      free: "FORBIDDEN",
      pro: "FORBIDDEN",
      business: "FORBIDDEN",
      manager: "ok",
      admin: "ok",
      owner: "ok",
      bearerPro: "FORBIDDEN",
      bearerAdmin: "ok",
      keyContent: "FORBIDDEN",
      keyRepos: "FORBIDDEN",
      svcRead: "FORBIDDEN",
      svcAll: "FORBIDDEN",
    },
    unchanged: async (v, c) => expect(await versionOf(c, "comment", v.id)).toBe(1),
  },
  {
    model: "Comment",
    op: "delete",
    rule: "its author or a moderator",
    query: `mutation ($id: ID!) { deleteComment(id: $id) { id } }`,
    field: "deleteComment",
    vars: async (_w, c) => ({ id: (await freshComment(c, c.userIds.pro, c.ids.freeContent!)).id }),
    expect: {
      visitor: "UNAUTHENTICATED",
      free: "FORBIDDEN",
      pro: "ok",
      business: "FORBIDDEN",
      manager: "ok",
      admin: "ok",
      owner: "ok",
      bearerPro: "ok",
      bearerAdmin: "ok",
      keyContent: "FORBIDDEN",
      keyRepos: "FORBIDDEN",
      svcRead: "FORBIDDEN",
      svcAll: "FORBIDDEN",
    },
    unchanged: async (v, c) => expect(await exists(c, "comment", v.id)).toBe(true),
  },
];

const repositoryRows: Row[] = [
  get("GitHubRepository", "everyone (repositories:read)", "repoOn", REPO_PUBLIC, "slug version"),
  get("GitHubRepository", "disabled: platform admins", "repoOff", REPO_HIDDEN_GET, "slug"),
  {
    model: "GitHubRepository",
    op: "list",
    rule: "disabled: platform admins, in SQL",
    query: `query ($o: String!) { listGitHubRepositories(filter: { owner: { eq: $o } }) { items { id } } }`,
    field: "listGitHubRepositories",
    vars: () => ({ o: "authz-owner" }),
    observe: listed("repoOff", "repoOn"),
    expect: REPO_HIDDEN_LIST,
  },
  {
    model: "GitHubRepository",
    op: "listByKey",
    rule: "listGitHubRepositoryByOwner: disabled for platform admins",
    query: `query ($o: String!) { listGitHubRepositoryByOwner(owner: $o) { items { id } } }`,
    field: "listGitHubRepositoryByOwner",
    vars: () => ({ o: "authz-owner" }),
    observe: listed("repoOff", "repoOn"),
    expect: REPO_HIDDEN_LIST,
  },
  {
    model: "GitHubRepository",
    op: "listByKey",
    rule: "listGitHubRepositoryBySlug: disabled for platform admins",
    query: `query ($s: String!) { listGitHubRepositoryBySlug(slug: $s) { items { id } } }`,
    field: "listGitHubRepositoryBySlug",
    vars: () => ({ s: "authz-off" }),
    observe: listed("repoOff"),
    expect: REPO_HIDDEN_LIST,
  },
  {
    model: "GitHubRepository",
    op: "listByKey",
    rule: "listGitHubRepositoryByCategoryAndSortOrder: disabled for platform admins",
    query: `query { listGitHubRepositoryByCategoryAndSortOrder(category: "authz-tools", sortOrder: { between: [0, 10] }, sortDirection: DESC) { items { id } } }`,
    field: "listGitHubRepositoryByCategoryAndSortOrder",
    vars: () => ({}),
    observe: listed("repoOff", "repoOn"),
    expect: REPO_HIDDEN_LIST,
  },
  {
    model: "GitHubRepository",
    op: "create",
    rule: "platform admins",
    query: `mutation ($s: String!) { createGitHubRepository(input: { slug: $s, owner: "fixtures" }) { id version } }`,
    field: "createGitHubRepository",
    vars: (who) => ({ s: unique(who) }),
    expect: PLATFORM_ADMINS,
  },
  {
    model: "GitHubRepository",
    op: "update",
    rule: "platform admins",
    query: `mutation ($id: ID!) { updateGitHubRepository(id: $id, version: 1, input: { displayName: "Renamed" }) { id version } }`,
    field: "updateGitHubRepository",
    vars: async (_w, c) => ({ id: (await freshRepository(c)).id }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await versionOf(c, "github_repository", v.id)).toBe(1),
  },
  {
    model: "GitHubRepository",
    op: "delete",
    rule: "platform admins",
    query: `mutation ($id: ID!) { deleteGitHubRepository(id: $id) { id } }`,
    field: "deleteGitHubRepository",
    vars: async (_w, c) => ({ id: (await freshRepository(c)).id }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await exists(c, "github_repository", v.id)).toBe(true),
  },
];

const categoryRows: Row[] = [
  get("RepositoryCategory", "everyone (repositories:read)", "catOn", REPO_PUBLIC, "slug"),
  get("RepositoryCategory", "hidden: platform admins", "catOff", REPO_HIDDEN_GET, "slug"),
  {
    model: "RepositoryCategory",
    op: "list",
    rule: "hidden: platform admins, in SQL",
    query: `{ listRepositoryCategories(filter: { slug: { beginsWith: "authz-" } }) { items { id } } }`,
    field: "listRepositoryCategories",
    vars: () => ({}),
    observe: listed("catOff", "catOn"),
    expect: REPO_HIDDEN_LIST,
  },
  {
    model: "RepositoryCategory",
    op: "create",
    rule: "platform admins",
    query: `mutation ($s: String!) { createRepositoryCategory(input: { slug: $s, name: "Fixtures" }) { id } }`,
    field: "createRepositoryCategory",
    vars: (who) => ({ s: unique(who) }),
    expect: PLATFORM_ADMINS,
  },
  {
    model: "RepositoryCategory",
    op: "update",
    rule: "platform admins",
    query: `mutation ($id: ID!) { updateRepositoryCategory(id: $id, version: 1, input: { icon: "Star" }) { id version } }`,
    field: "updateRepositoryCategory",
    vars: async (who, c) => ({
      id: (await createRepositoriesRepo(c.db).createCategory({ slug: unique(who) })).id,
    }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await versionOf(c, "repository_category", v.id)).toBe(1),
  },
  {
    model: "RepositoryCategory",
    op: "delete",
    rule: "platform admins",
    query: `mutation ($id: ID!) { deleteRepositoryCategory(id: $id) { id } }`,
    field: "deleteRepositoryCategory",
    vars: async (who, c) => ({
      id: (await createRepositoriesRepo(c.db).createCategory({ slug: unique(who) })).id,
    }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await exists(c, "repository_category", v.id)).toBe(true),
  },
];

/** The four cached models of a repository: one set of rows each. */
const CHILDREN = [
  {
    model: "RepositoryFile",
    plural: "RepositoryFiles",
    table: "repository_file",
    key: "file",
    create: `path: "docs/guide.md", type: "file", content: "# Guide"`,
    update: `mimeType: "text/markdown"`,
    make: (c: Ctx, repositoryId: string) =>
      createRepositoriesRepo(c.db).createFile(repositoryId, { path: `f-${++counter}.md`, type: "file" }),
  },
  {
    model: "RepositoryBranch",
    plural: "RepositoryBranches",
    table: "repository_branch",
    key: "branch",
    create: `name: "feature", sha: "abc123"`,
    update: `lastCommitMessage: "Tidy up"`,
    make: (c: Ctx, repositoryId: string) =>
      createRepositoriesRepo(c.db).createBranch(repositoryId, { name: `b-${++counter}`, sha: "def456" }),
  },
  {
    model: "RepositoryIssue",
    plural: "RepositoryIssues",
    table: "repository_issue",
    key: "issue",
    create: `state: "open", title: "Broken link", labels: ["docs"]`,
    update: `state: "closed"`,
    make: (c: Ctx, repositoryId: string) =>
      createRepositoriesRepo(c.db).createIssue(repositoryId, { state: "open", title: "Typo" }),
  },
  {
    model: "RepositoryWorkflow",
    plural: "RepositoryWorkflows",
    table: "repository_workflow",
    key: "workflow",
    create: `state: "active", name: "Deploy"`,
    update: `lastRunStatus: "success"`,
    make: (c: Ctx, repositoryId: string) =>
      createRepositoriesRepo(c.db).createWorkflow(repositoryId, { state: "active", name: "CI" }),
  },
] as const;

const childRows: Row[] = CHILDREN.flatMap((k): Row[] => [
  get(k.model, "its repository is enabled: everyone", `${k.key}On`, REPO_PUBLIC),
  get(k.model, "its repository is disabled: platform admins", `${k.key}Off`, REPO_HIDDEN_GET),
  {
    model: k.model,
    op: "list",
    rule: "of a disabled repository: platform admins, in SQL",
    query: `query ($ids: [String!]!) { list${k.plural}(filter: { repositoryId: { between: $ids } }, limit: 100) { items { id } } }`,
    field: `list${k.plural}`,
    vars: (_w, c) => ({ ids: [c.ids.repoOn!, c.ids.repoOff!].sort() }),
    observe: listed(`${k.key}Off`, `${k.key}On`),
    expect: REPO_HIDDEN_LIST,
  },
  {
    model: k.model,
    op: "create",
    rule: "platform admins",
    query: `mutation ($r: String!) { create${k.model}(input: { repositoryId: $r, ${k.create} }) { id } }`,
    field: `create${k.model}`,
    vars: async (_w, c) => ({ r: (await freshRepository(c)).id }),
    expect: PLATFORM_ADMINS,
  },
  {
    model: k.model,
    op: "update",
    rule: "platform admins",
    query: `mutation ($id: ID!) { update${k.model}(id: $id, input: { ${k.update} }) { id } }`,
    field: `update${k.model}`,
    vars: async (_w, c) => ({ id: (await k.make(c, c.ids.repoOn!)).id }),
    expect: PLATFORM_ADMINS,
  },
  {
    model: k.model,
    op: "delete",
    rule: "platform admins",
    query: `mutation ($id: ID!) { delete${k.model}(id: $id) { id } }`,
    field: `delete${k.model}`,
    vars: async (_w, c) => ({ id: (await k.make(c, c.ids.repoOn!)).id }),
    expect: PLATFORM_ADMINS,
    unchanged: async (v, c) => expect(await exists(c, k.table, v.id)).toBe(true),
  },
]);

const TABLE: Row[] = [
  ...subscriptionRows,
  ...userRows,
  ...commentRows,
  ...repositoryRows,
  ...categoryRows,
  ...childRows,
];

// The suite ------------------------------------------------------------------------------------

interface GqlResult {
  status: number;
  data: Record<string, unknown> | null;
  errors: Array<{ message: string; extensions?: { code?: string } }> | undefined;
}

const proItem = DEMO_CONTENT.find((c) => c.tier === "Pro" && !c.rolesRequired?.length)!;
const freeItem = DEMO_CONTENT.find((c) => c.tier === "Free" && !c.rolesRequired?.length)!;

describe.each(DIALECTS)("GraphQL data API authorization (%s)", (dialect) => {
  let server: TestServer;
  const headersOf: Partial<Record<Who, Record<string, string>>> = {};
  const c = { ids: {}, userIds: {}, emails: {} } as Ctx;

  async function gql(query: string, variables: Record<string, unknown>, who: Who): Promise<GqlResult> {
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...(headersOf[who] ?? {}) },
      body: JSON.stringify({ query, variables }),
    });
    expect(res.status, `HTTP status of ${query.slice(0, 80)} as ${who}`).toBeLessThan(500);
    const body = (await res.json()) as Omit<GqlResult, "status">;
    return { status: res.status, data: body.data ?? null, errors: body.errors };
  }
  const codeOf = (r: GqlResult) => r.errors?.[0]?.extensions?.code;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      AUTH_SECRET: TEST_AUTH_SECRET,
      // hundreds of requests per actor within a minute, all from 127.0.0.1 (decision 014)
      ...RAISED_RATE_LIMITS,
    });
    c.db = server.runtime.database.db;
    const cookies: Partial<Record<Account, string>> = {};
    for (const account of ACCOUNTS) {
      cookies[account] = await signIn(server.url, `${account}@demo.local`, DEMO_PASSWORD);
      headersOf[account] = { cookie: cookies[account]! };
    }
    for (const [who, account] of [
      ["bearerPro", "pro"],
      ["bearerAdmin", "admin"],
    ] as const) {
      const res = await call(server.url, "/api/account/token", {}, { cookie: cookies[account] });
      const { idToken } = (await res.json()) as { idToken: string };
      headersOf[who] = { authorization: `Bearer ${idToken}` };
    }
    for (const [who, scopes] of [
      ["keyContent", ["content:read"]],
      ["keyRepos", ["repositories:read"]],
    ] as const) {
      const res = await call(
        server.url,
        "/api/account/api-keys",
        { name: who, scopes },
        { cookie: cookies.pro },
      );
      headersOf[who] = { "x-api-key": ((await res.json()) as { key: string }).key };
    }
    for (const [who, scopes] of [
      ["svcRead", ["content:read", "repositories:read"]],
      ["svcAll", ["content:read:all"]],
    ] as const) {
      const created = await call(
        server.url,
        "/api/admin/service-credentials",
        { name: who, scopes },
        { cookie: cookies.admin },
      );
      const cred = (await created.json()) as { clientId: string; clientSecret: string };
      const token = await call(
        server.url,
        "/api/auth/service-token",
        { grant_type: "client_credentials", client_id: cred.clientId, client_secret: cred.clientSecret },
        { origin: null },
      );
      headersOf[who] = {
        authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}`,
      };
    }

    // Fixtures, through the repositories (the demo seed has the accounts and the content).
    const users = createUsersRepo(c.db);
    for (const account of ACCOUNTS) {
      const user = (await users.getByEmail(`${account}@demo.local`))!;
      c.userIds[account] = user.id;
      c.emails[account] = user.email;
    }
    c.ids.freeUser = c.userIds.free;
    c.ids.org = (
      await c.db.selectFrom("organization").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow()
    ).id;
    c.ids.member = (await users.create({ name: "Mia Member", email: "mia.member@example.test" })).id;
    const subs = createSubscriptionsRepo(c.db);
    c.ids.subFree = (
      await c.db
        .selectFrom("user_subscription")
        .select("id")
        .where("userId", "=", c.userIds.free)
        .executeTakeFirstOrThrow()
    ).id;
    c.ids.subTenant = (
      await subs.create(buildSubscription(c.ids.member, { tier: "basic", tenantId: c.ids.org }))
    ).id;

    const contents = createContentRepo(c.db);
    c.ids.freeContent = (await contents.getBySlug(freeItem.slug))!.id;
    c.ids.proContent = (await contents.getBySlug(proItem.slug))!.id;
    c.ids.draftContent = (await contents.create(buildContent({ status: "draft", tier: "Free" }).row)).id;
    const comments = createCommentsRepo(c.db);
    const comment = async (contentId: string, authorId: string, status = "published") =>
      (await comments.create({ contentId, authorId, body: "A useful remark.", status })).id;
    c.ids.commentFree = await comment(c.ids.freeContent, c.userIds.pro);
    c.ids.commentPro = await comment(c.ids.proContent, c.userIds.pro);
    c.ids.commentHidden = await comment(c.ids.freeContent, c.userIds.free, "hidden");
    c.ids.commentDraft = await comment(c.ids.draftContent, c.userIds.admin);

    const repos = createRepositoriesRepo(c.db);
    const repoOn = await repos.createRepository({
      slug: "authz-on",
      owner: "authz-owner",
      category: "authz-tools",
      sortOrder: 1,
    });
    const repoOff = await repos.createRepository({
      slug: "authz-off",
      owner: "authz-owner",
      category: "authz-tools",
      sortOrder: 2,
      isEnabled: false,
    });
    c.ids.repoOn = repoOn.id;
    c.ids.repoOff = repoOff.id;
    c.ids.catOn = (await repos.createCategory({ slug: "authz-tools", isVisible: true })).id;
    c.ids.catOff = (await repos.createCategory({ slug: "authz-hidden", isVisible: false })).id;
    for (const [suffix, repositoryId] of [
      ["On", repoOn.id],
      ["Off", repoOff.id],
    ] as const) {
      for (const k of CHILDREN) c.ids[`${k.key}${suffix}`] = (await k.make(c, repositoryId)).id;
    }
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it.each(TABLE.map((row) => [`${row.model} ${row.op}: ${row.rule}`, row] as const))(
    "%s",
    async (_name, row) => {
      const observed: Partial<Record<Who, Outcome | string>> = {};
      for (const who of WHO) {
        const vars = await row.vars(who, c);
        const res = await gql(row.query, vars, who);
        const code = codeOf(res);
        if (code) {
          observed[who] = code;
          expect(res.data?.[row.field] ?? null, `${who}: no data with an error`).toBeNull();
          if (row.unchanged && row.expect[who] === code) await row.unchanged(vars, c);
        } else {
          const value = res.data?.[row.field];
          observed[who] =
            value === null || value === undefined ? "null" : (row.observe?.(value, c, vars) ?? "ok");
        }
      }
      expect(observed).toEqual(row.expect);
    },
  );

  describe("optimistic concurrency: a stale update is a CONFLICT and loses no write", () => {
    const cases = [
      {
        model: "UserSubscription",
        make: async () => (await freshSubscription(c)).id,
        field: "status",
        first: "canceled",
        second: "expired",
        read: `query ($id: ID!) { getUserSubscription(id: $id) { status version } }`,
      },
      {
        model: "Comment",
        make: async () => (await freshComment(c, c.userIds.admin, c.ids.freeContent!)).id,
        field: "body",
        first: "First edit.",
        second: "Second, stale edit.",
        read: `query ($id: ID!) { getComment(id: $id) { body version } }`,
      },
      {
        model: "GitHubRepository",
        make: async () => (await freshRepository(c)).id,
        field: "displayName",
        first: "First name",
        second: "Stale name",
        read: `query ($id: ID!) { getGitHubRepository(id: $id) { displayName version } }`,
      },
      {
        model: "RepositoryCategory",
        make: async () =>
          (await createRepositoriesRepo(c.db).createCategory({ slug: `stale-${++counter}` })).id,
        field: "description",
        first: "First words",
        second: "Stale words",
        read: `query ($id: ID!) { getRepositoryCategory(id: $id) { description version } }`,
      },
    ];
    it.each(cases)("$model", async ({ model, make, field, first, second, read }) => {
      const id = await make();
      const mutation = `mutation ($id: ID!, $v: Int!, $value: String!) { update${model}(id: $id, version: $v, input: { ${field}: $value }) { version } }`;
      const ok = await gql(mutation, { id, v: 1, value: first }, "admin");
      expect(ok.errors).toBeUndefined();
      expect(ok.data?.[`update${model}`]).toEqual({ version: 2 });
      const stale = await gql(mutation, { id, v: 1, value: second }, "bearerAdmin");
      expect(codeOf(stale)).toBe("CONFLICT");
      const now = await gql(read, { id }, "admin");
      expect(now.data?.[`get${model}`]).toEqual({ [field]: first, version: 2 });
      const fresh = await gql(mutation, { id, v: 2, value: second }, "admin");
      expect(fresh.data?.[`update${model}`]).toEqual({ version: 3 });
    });
  });

  describe("pagination with nextToken returns every row exactly once", () => {
    async function pageThrough(who: Who, query: string, field: string, variables: Record<string, unknown>) {
      const ids: string[] = [];
      let nextToken: string | null = null;
      let pages = 0;
      do {
        const res = await gql(query, { ...variables, nextToken }, who);
        expect(res.errors).toBeUndefined();
        const page = res.data![field] as { items: Array<{ id: string }>; nextToken: string | null };
        expect(page.items.length).toBeLessThanOrEqual(7);
        ids.push(...page.items.map((i) => i.id));
        nextToken = page.nextToken;
        pages++;
        expect(pages).toBeLessThan(20);
      } while (nextToken);
      return ids;
    }

    it("Comment: 25 comments (ties on createdAt) by content, both directions, and by filter", async () => {
      const content = await createContentRepo(c.db).create(buildContent({ tier: "Free" }).row);
      const comments = createCommentsRepo(c.db);
      const created: string[] = [];
      for (let i = 0; i < 25; i++) {
        const createdAt = new Date(Date.UTC(2026, 1, 1, 12, Math.floor(i / 3))).toISOString();
        created.push(
          (
            await comments.create({
              contentId: content.id,
              authorId: c.userIds.free,
              body: `Note ${i}`,
              createdAt,
            })
          ).id,
        );
      }
      const byContent = `query ($c: String!, $d: SortDirection, $nextToken: String) {
        listCommentByContentIdAndCreatedAt(contentId: $c, sortDirection: $d, limit: 7, nextToken: $nextToken) {
          items { id } nextToken } }`;
      for (const d of ["ASC", "DESC"]) {
        const ids = await pageThrough("visitor", byContent, "listCommentByContentIdAndCreatedAt", {
          c: content.id,
          d,
        });
        expect(ids).toHaveLength(25);
        expect([...ids].sort()).toEqual([...created].sort());
      }
      const byFilter = `query ($c: String!, $nextToken: String) {
        listComments(filter: { contentId: { eq: $c } }, limit: 7, nextToken: $nextToken) { items { id } nextToken } }`;
      const ids = await pageThrough("pro", byFilter, "listComments", { c: content.id });
      expect(ids).toEqual([...created].sort());
    });

    it("GitHubRepository: 25 repositories (ties on sortOrder) by category and sortOrder, and by filter", async () => {
      const repos = createRepositoriesRepo(c.db);
      const created: string[] = [];
      for (let i = 0; i < 25; i++) {
        created.push(
          (
            await repos.createRepository({
              slug: `paged-${i}`,
              category: "paged",
              owner: "paged",
              sortOrder: i % 4,
            })
          ).id,
        );
      }
      await repos.createRepository({
        slug: "paged-off",
        category: "paged",
        owner: "paged",
        isEnabled: false,
      });
      const byCategory = `query ($nextToken: String) {
        listGitHubRepositoryByCategoryAndSortOrder(category: "paged", sortDirection: DESC, limit: 7, nextToken: $nextToken) {
          items { id } nextToken } }`;
      const ids = await pageThrough("keyRepos", byCategory, "listGitHubRepositoryByCategoryAndSortOrder", {});
      expect(ids).toHaveLength(25);
      expect([...ids].sort()).toEqual([...created].sort());
      const byFilter = `query ($nextToken: String) {
        listGitHubRepositories(filter: { owner: { eq: "paged" } }, limit: 7, nextToken: $nextToken) { items { id } nextToken } }`;
      expect(await pageThrough("visitor", byFilter, "listGitHubRepositories", {})).toEqual(
        [...created].sort(),
      );
    });
  });

  describe("another user's e-mail is never readable", () => {
    it("top level: getUser and listUsers", async () => {
      for (const who of ["pro", "business", "manager", "bearerPro", "svcAll"] as const) {
        const one = await gql(
          `query ($id: ID!) { getUser(id: $id) { id email name } }`,
          { id: c.userIds.free },
          who,
        );
        expect(one.data?.getUser, who).toEqual({ id: c.userIds.free, email: null, name: null });
        const all = await gql(`{ listUsers(limit: 100) { items { id username email name role } } }`, {}, who);
        const items = (all.data!.listUsers as { items: Array<Record<string, unknown>> }).items;
        expect(items.length).toBeGreaterThan(5);
        const own = ACCOUNT_OF[who] ? c.userIds[ACCOUNT_OF[who]!] : null;
        for (const item of items) {
          if (item.id === own) expect(item.email).toBe(c.emails[ACCOUNT_OF[who]!]);
          // Usernames are sign-in identifiers: not part of another user's public profile.
          else expect(item, who).toMatchObject({ username: null, email: null, name: null, role: null });
        }
        expect(items.find((i) => i.id === c.userIds.owner)?.username ?? null, who).toBeNull();
      }
      expect(
        JSON.stringify((await gql(`{ listUsers(limit: 100) { items { email } } }`, {}, "pro")).data),
      ).not.toContain(c.emails.free);
    });

    it("nested: Comment.author and UserSubscription.user", async () => {
      const comment = `query ($id: ID!) { getComment(id: $id) { author { id displayName email name } } }`;
      const asFree = await gql(comment, { id: c.ids.commentFree }, "free");
      expect(asFree.data?.getComment).toEqual({
        author: { id: c.userIds.pro, displayName: expect.any(String), email: null, name: null },
      });
      const asAuthor = await gql(comment, { id: c.ids.commentFree }, "pro");
      expect((asAuthor.data!.getComment as { author: { email: string } }).author.email).toBe(c.emails.pro);
      // A visitor may read the comment but not users: the author is refused, not revealed.
      const asVisitor = await gql(comment, { id: c.ids.commentFree }, "visitor");
      expect(asVisitor.data?.getComment).toEqual({ author: null });
      expect(codeOf(asVisitor)).toBe("UNAUTHENTICATED");
      const asKey = await gql(comment, { id: c.ids.commentFree }, "keyContent");
      expect(asKey.data?.getComment).toEqual({ author: null });
      expect(codeOf(asKey)).toBe("FORBIDDEN");

      const sub = `query ($id: ID!) { getUserSubscription(id: $id) { user { id email } } }`;
      const asOrgAdmin = await gql(sub, { id: c.ids.subTenant }, "business");
      expect(asOrgAdmin.data?.getUserSubscription).toEqual({ user: { id: c.ids.member, email: null } });
      const asAdmin = await gql(sub, { id: c.ids.subTenant }, "admin");
      expect(asAdmin.data?.getUserSubscription).toEqual({
        user: { id: c.ids.member, email: "mia.member@example.test" },
      });
    });

    it("nested: Comment.content of a comment the reader may read is the content they may read", async () => {
      const res = await gql(
        `query ($id: ID!) { getComment(id: $id) { content { id locked bodyS3Key } } }`,
        { id: c.ids.commentPro },
        "pro",
      );
      expect(res.data?.getComment).toEqual({
        content: { id: c.ids.proContent, locked: false, bodyS3Key: expect.any(String) },
      });
      // The same comment through a list-by-author for a Free reader: never there.
      const free = await gql(
        `query ($a: String!) { listCommentByAuthorIdAndCreatedAt(authorId: $a) { items { id content { id } } } }`,
        { a: c.userIds.pro },
        "free",
      );
      const items = (free.data!.listCommentByAuthorIdAndCreatedAt as { items: Array<{ id: string }> }).items;
      expect(items.map((i) => i.id)).toContain(c.ids.commentFree);
      expect(items.map((i) => i.id)).not.toContain(c.ids.commentPro);
    });

    it("a disabled repository's cache is not reachable through a nested edge or a hidden category", async () => {
      const res = await gql(
        `query ($id: ID!) { getRepositoryBranch(id: $id) { repository { id repositoryCategory { slug } branches { id } } } }`,
        { id: c.ids.branchOn },
        "visitor",
      );
      expect(res.errors).toBeUndefined();
      const repository = (res.data!.getRepositoryBranch as { repository: Record<string, unknown> })
        .repository;
      expect(repository.id).toBe(c.ids.repoOn);
      expect(repository.repositoryCategory).toEqual({ slug: "authz-tools" });
      expect((repository.branches as Array<{ id: string }>).map((b) => b.id)).toContain(c.ids.branchOn);
      expect(JSON.stringify(repository)).not.toContain(c.ids.branchOff!);
    });
  });

  describe("bad input is a GraphQL error, never a 500", () => {
    const cases: Array<[string, string, Record<string, unknown>, Who, string]> = [
      ["a malformed document", "{ listComments(limit: ", {}, "pro", "GRAPHQL_PARSE_FAILED"],
      ["limit above 100", "{ listComments(limit: 1000) { items { id } } }", {}, "pro", "BAD_USER_INPUT"],
      [
        "limit below 1",
        "{ listGitHubRepositories(limit: 0) { items { id } } }",
        {},
        "visitor",
        "BAD_USER_INPUT",
      ],
      [
        "a forged nextToken",
        '{ listGitHubRepositories(nextToken: "forged") { items { id } } }',
        {},
        "visitor",
        "BAD_USER_INPUT",
      ],
      [
        "two operators in a sort-key condition",
        '{ listGitHubRepositoryByCategoryAndSortOrder(category: "x", sortOrder: { eq: 1, gt: 0 }) { items { id } } }',
        {},
        "visitor",
        "BAD_USER_INPUT",
      ],
      [
        "a sort key where the look-up has none (by-owner has no sort key: an unknown argument)",
        '{ listGitHubRepositoryByOwner(owner: "x", sortOrder: { eq: 1 }) { items { id } } }',
        {},
        "visitor",
        "GRAPHQL_VALIDATION_FAILED",
      ],
      ["an empty id", '{ getUser(id: "") { id } }', {}, "pro", "BAD_USER_INPUT"],
      [
        "version 0",
        'mutation { updateComment(id: "x", version: 0, input: { body: "Hi" }) { id } }',
        {},
        "pro",
        "BAD_USER_INPUT",
      ],
      [
        "a slug with spaces",
        'mutation { createGitHubRepository(input: { slug: "Not A Slug" }) { id } }',
        {},
        "admin",
        "BAD_USER_INPUT",
      ],
      [
        "an unknown tier",
        'mutation ($u: String!) { createUserSubscription(input: { userId: $u, tier: "platinum" }) { id } }',
        { u: "someone" },
        "admin",
        "BAD_USER_INPUT",
      ],
      [
        "metadata that is not an object",
        'mutation ($u: String!) { createUserSubscription(input: { userId: $u, tier: "pro", metadata: [1, 2] }) { id } }',
        { u: "someone" },
        "admin",
        "BAD_USER_INPUT",
      ],
      [
        "an empty comment",
        'mutation ($c: String!) { createComment(input: { contentId: $c, body: "   " }) { id } }',
        {},
        "pro",
        "BAD_USER_INPUT",
      ],
      [
        "authorId in a comment (mass assignment)",
        'mutation { createComment(input: { contentId: "x", body: "Hi", authorId: "someone" }) { id } }',
        {},
        "pro",
        "GRAPHQL_VALIDATION_FAILED",
      ],
      [
        "email in a profile update (mass assignment)",
        'mutation { updateUser(id: "x", input: { email: "evil@example.test" }) { id } }',
        {},
        "pro",
        "GRAPHQL_VALIDATION_FAILED",
      ],
      [
        "a filter on an unknown field",
        "{ listRepositoryIssues(filter: { secret: { eq: 1 } }) { items { id } } }",
        {},
        "visitor",
        "GRAPHQL_VALIDATION_FAILED",
      ],
      [
        "a string for an Int variable",
        "query ($n: Int) { listComments(limit: $n) { items { id } } }",
        { n: "ten" },
        "pro",
        "BAD_USER_INPUT",
      ],
      [
        "a wrong DateTime",
        '{ listCommentByAuthorIdAndCreatedAt(authorId: "x", createdAt: { lt: "last week" }) { items { id } } }',
        {},
        "pro",
        "BAD_USER_INPUT",
      ],
    ];
    it.each(cases)("%s", async (_name, query, variables, who, expected) => {
      const vars = {
        ...variables,
        ...(variables.c === undefined && query.includes("$c") ? { c: c.ids.freeContent } : {}),
      };
      const res = await gql(query, vars, who);
      expect(res.data?.[Object.keys(res.data ?? {})[0] ?? ""] ?? null).toBeNull();
      expect(res.errors?.length).toBeGreaterThan(0);
      expect(codeOf(res)).toBe(expected);
    });
  });
});
