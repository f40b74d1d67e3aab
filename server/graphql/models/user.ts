/**
 * User (spec §3) in the data API: signed-in users (and `content:read:all` services) read public
 * author profiles of active users (no username); organisation admins also read their members'
 * username, name and e-mail; a user reads their own row in full and platform admins every row.
 * The private fields (username, email, name, emailVerified, role, isActive, accountType,
 * updatedAt) are null for anyone else: the service leaves them out. Created and deleted by platform admins;
 * updated (name, displayName, bio) by the user or a platform admin. Not versioned.
 * Rules live in `server/modules/users/users.service.ts`.
 */
import {
  ADMIN_USER_FILTER_FIELDS,
  type PrivateUser,
  type UserView,
} from "../../modules/users/users.service.ts";
import { builder, connectionType, filterInput, plainInput } from "../builder.ts";
import { UserRef } from "./refs.ts";

/** A private field: present only when the service returned it (owner, platform admin, org admin). */
function own<K extends keyof PrivateUser>(user: UserView, key: K): PrivateUser[K] | null {
  return key in user ? (user as PrivateUser)[key] : null;
}

const PRIVATE = "Only for the user themself and platform admins; null for anyone else.";

UserRef.implement({
  description: "A user's profile. Other users' private fields are null.",
  fields: (t) => ({
    id: t.exposeID("id"),
    username: t.string({
      nullable: true,
      description: `${PRIVATE} Organisation admins also read their members' username.`,
      resolve: (u) => own(u, "username"),
    }),
    displayName: t.exposeString("displayName", { nullable: true }),
    bio: t.exposeString("bio", { nullable: true }),
    avatar: t.exposeString("avatar", { nullable: true, description: "The avatar's URL" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    name: t.string({ nullable: true, description: PRIVATE, resolve: (u) => own(u, "name") }),
    email: t.string({
      nullable: true,
      description: PRIVATE,
      resolve: (u) => own(u, "email"),
    }),
    emailVerified: t.boolean({
      nullable: true,
      description: PRIVATE,
      resolve: (u) => own(u, "emailVerified"),
    }),
    role: t.string({ nullable: true, description: PRIVATE, resolve: (u) => own(u, "role") }),
    isActive: t.boolean({
      nullable: true,
      description: PRIVATE,
      resolve: (u) => own(u, "isActive"),
    }),
    accountType: t.string({
      nullable: true,
      description: PRIVATE,
      resolve: (u) => own(u, "accountType"),
    }),
    updatedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: PRIVATE,
      resolve: (u) => own(u, "updatedAt"),
    }),
  }),
});

/** Every filterable field; the service refuses the private ones for anyone but platform admins. */
const UserFilter = filterInput("UserFilter", ADMIN_USER_FILTER_FIELDS);
const UserConnection = connectionType("User", UserRef);

/** Sign-up is Better Auth's: this creates a row without a password (platform admins). */
const CreateUserInput = builder.inputType("CreateUserInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    email: t.string({ required: true }),
    username: t.string(),
    displayName: t.string(),
    bio: t.string(),
  }),
});
/** Never email, username, avatar, groups, role, tier, isActive or emailVerified. */
const UpdateUserInput = builder.inputType("UpdateUserInput", {
  fields: (t) => ({ name: t.string(), displayName: t.string(), bio: t.string() }),
});

builder.queryFields((t) => ({
  getUser: t.field({
    type: UserRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.users.get(ctx.actor, args.id),
  }),
  listUsers: t.field({
    type: UserConnection,
    args: {
      filter: t.arg({ type: UserFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.users.list(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.field({
    type: UserRef,
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.users.create(ctx.actor, plainInput(args.input)),
  }),
  updateUser: t.field({
    type: UserRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateUserInput, required: true }),
    },
    resolve: (_root, args, ctx) => ctx.services.users.update(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteUser: t.field({
    type: UserRef,
    description: "Platform admins only; people delete their own account from their profile.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.users.delete(ctx.actor, args.id),
  }),
}));
