/**
 * ContentCategory (spec §3) in the data API: readable by everyone (inactive ones by content
 * staff), written only by app-owner and app-admin. Not versioned. Rules live in
 * `server/modules/content/content-category.service.ts`.
 */
import { CONTENT_CATEGORY_FILTER_FIELDS } from "../../modules/content/content-category.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import { ContentCategoryRef } from "./refs.ts";

ContentCategoryRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    slug: t.exposeString("slug"),
    label: t.exposeString("label"),
    description: t.exposeString("description", { nullable: true }),
    defaultTier: t.exposeString("defaultTier", { nullable: true }),
    icon: t.exposeString("icon", { nullable: true }),
    s3Prefix: t.exposeString("s3Prefix", { nullable: true }),
    isActive: t.exposeBoolean("isActive"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const ContentCategoryFilter = filterInput("ContentCategoryFilter", CONTENT_CATEGORY_FILTER_FIELDS);
const ContentCategoryConnection = connectionType("ContentCategory", ContentCategoryRef);

const categoryFields = (t: InputFields, create: boolean) => ({
  slug: t.string({ required: create }),
  label: t.string({ required: create }),
  description: t.string(),
  defaultTier: t.string({ description: "Free, Basic, Pro or Enterprise" }),
  icon: t.string(),
  s3Prefix: t.string({ description: "A prefix under content/ ending in /" }),
  isActive: t.boolean(),
});
const CreateContentCategoryInput = builder.inputType("CreateContentCategoryInput", {
  fields: (t) => categoryFields(t, true),
});
const UpdateContentCategoryInput = builder.inputType("UpdateContentCategoryInput", {
  fields: (t) => categoryFields(t, false),
});

builder.queryFields((t) => ({
  getContentCategory: t.field({
    type: ContentCategoryRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.categories.get(ctx.actor, args.id),
  }),
  listContentCategories: t.field({
    type: ContentCategoryConnection,
    args: {
      filter: t.arg({ type: ContentCategoryFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.content.categories.list(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createContentCategory: t.field({
    type: ContentCategoryRef,
    args: { input: t.arg({ type: CreateContentCategoryInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.categories.create(ctx.actor, plainInput(args.input)),
  }),
  updateContentCategory: t.field({
    type: ContentCategoryRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateContentCategoryInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.categories.update(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteContentCategory: t.field({
    type: ContentCategoryRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.categories.delete(ctx.actor, args.id),
  }),
}));
