/**
 * UserSubscription (spec §3) in the data API: read by the subscriber, by organisation admins for
 * their organisation's tenant and by platform admins; written by platform admins only
 * (versioned). Rules live in `server/modules/subscriptions/subscriptions.service.ts`.
 */
import { SUBSCRIPTION_FILTER_FIELDS } from "../../modules/subscriptions/subscriptions.service.ts";
import {
  builder,
  connectionType,
  filterInput,
  type InputFields,
  plainInput,
  SortDirection,
  StringKeyCondition,
} from "../builder.ts";
import { UserRef, UserSubscriptionRef } from "./refs.ts";

UserSubscriptionRef.implement({
  description: "A user's plan. Readable by the subscriber, their organisation's admins and platform admins.",
  fields: (t) => ({
    id: t.exposeID("id"),
    userId: t.exposeString("userId"),
    tier: t.exposeString("tier"),
    tenantId: t.exposeString("tenantId", { nullable: true }),
    status: t.exposeString("status"),
    source: t.exposeString("source", { nullable: true }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    canceledAt: t.expose("canceledAt", { type: "DateTime", nullable: true }),
    metadata: t.expose("metadata", { type: "JSON", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    version: t.exposeInt("version"),
    user: t.field({
      type: UserRef,
      nullable: true,
      description: "The subscriber as the caller may see them (public profile unless it is the caller).",
      resolve: (sub, _args, ctx) => ctx.loaders.user.load(sub.userId),
    }),
  }),
});

const UserSubscriptionFilter = filterInput("UserSubscriptionFilter", SUBSCRIPTION_FILTER_FIELDS);
const UserSubscriptionConnection = connectionType("UserSubscription", UserSubscriptionRef);

const subscriptionFields = (t: InputFields, create: boolean) => ({
  tier: t.string({ required: create, description: "free, basic, pro, business or enterprise" }),
  tenantId: t.string({ description: "The organisation id of an organisation plan" }),
  status: t.string({ description: "active, trialing, past_due, canceled or expired" }),
  source: t.string(),
  startedAt: t.field({ type: "DateTime" }),
  expiresAt: t.field({ type: "DateTime" }),
  canceledAt: t.field({ type: "DateTime" }),
  metadata: t.field({ type: "JSON", description: "A JSON object" }),
});
/** The subscriber is an administrator's choice on create; never id, version or timestamps. */
const CreateUserSubscriptionInput = builder.inputType("CreateUserSubscriptionInput", {
  fields: (t) => ({ userId: t.string({ required: true }), ...subscriptionFields(t, true) }),
});
const UpdateUserSubscriptionInput = builder.inputType("UpdateUserSubscriptionInput", {
  fields: (t) => subscriptionFields(t, false),
});

const LIMIT = "1 to 100, default 20";

builder.queryFields((t) => ({
  getUserSubscription: t.field({
    type: UserSubscriptionRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.subscriptions.get(ctx.actor, args.id),
  }),
  listUserSubscriptions: t.field({
    type: UserSubscriptionConnection,
    args: {
      filter: t.arg({ type: UserSubscriptionFilter }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.subscriptions.list(ctx.actor, args),
  }),
  listUserSubscriptionByUserId: t.field({
    type: UserSubscriptionConnection,
    description: "A user's subscriptions by id (index user_subscription_userId_idx); no sort key.",
    args: {
      userId: t.arg.string({ required: true }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { userId, ...args }, ctx) =>
      ctx.services.subscriptions.listByUserId(ctx.actor, userId, args),
  }),
  listUserSubscriptionByTenantIdAndTier: t.field({
    type: UserSubscriptionConnection,
    description:
      "An organisation's subscriptions ordered by tier (index user_subscription_tenantId_tier_idx).",
    args: {
      tenantId: t.arg.string({ required: true }),
      tier: t.arg({ type: StringKeyCondition }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { tenantId, tier, ...args }, ctx) =>
      ctx.services.subscriptions.listByTenantIdAndTier(ctx.actor, tenantId, { ...args, sortKey: tier }),
  }),
}));

builder.mutationFields((t) => ({
  createUserSubscription: t.field({
    type: UserSubscriptionRef,
    args: { input: t.arg({ type: CreateUserSubscriptionInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.subscriptions.create(ctx.actor, plainInput(args.input)),
  }),
  updateUserSubscription: t.field({
    type: UserSubscriptionRef,
    description: "Applies the changes when the stored version is still `version`; otherwise CONFLICT.",
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
      input: t.arg({ type: UpdateUserSubscriptionInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.subscriptions.update(ctx.actor, args.id, args.version, plainInput(args.input)),
  }),
  deleteUserSubscription: t.field({
    type: UserSubscriptionRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.subscriptions.delete(ctx.actor, args.id),
  }),
}));
