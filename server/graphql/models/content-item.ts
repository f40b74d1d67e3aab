/**
 * ContentItem (spec §3) in the data API: metadata readable by everyone, body key and links only
 * for readers whose tier opens the item (and its content record), written only by app-owner and
 * app-admin. Not versioned. Rules live in `server/modules/content/content-item.service.ts`.
 */
import { readableBodyLink } from "../../modules/content/body-links.ts";
import {
  CONTENT_ITEM_FILTER_FIELDS,
  type ContentItemView,
} from "../../modules/content/content-item.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import type { GraphQLContext } from "../context.ts";
import { ContentItemRef, ContentRef } from "./refs.ts";

/** A link to the body of the item's content record, when the caller may read both. */
async function itemLink(item: ContentItemView, _args: unknown, ctx: GraphQLContext): Promise<string | null> {
  if (item.locked || !item.contentId) return null;
  const content = await ctx.loaders.content.load(item.contentId);
  return content ? readableBodyLink(ctx.links, ctx.identity, content) : null;
}

ContentItemRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    contentId: t.exposeString("contentId", { nullable: true }),
    title: t.exposeString("title", { nullable: true }),
    slug: t.exposeString("slug", { nullable: true }),
    tier: t.exposeString("tier"),
    tenant: t.exposeString("tenant", { nullable: true }),
    categoryId: t.exposeString("categoryId", { nullable: true }),
    category: t.exposeString("category", { nullable: true }),
    categorySlug: t.exposeString("categorySlug", { nullable: true }),
    categoryTier: t.exposeString("categoryTier", { nullable: true }),
    section: t.exposeString("section", { nullable: true }),
    isPublic: t.exposeBoolean("isPublic"),
    publishedAt: t.expose("publishedAt", { type: "DateTime", nullable: true }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    bodyS3Key: t.string({
      nullable: true,
      description:
        "The body key of the item's content record (chosen by the server): only for readers whose plan opens both.",
      resolve: async (item, _args, ctx) => {
        if (item.locked || !item.contentId) return null;
        const content = await ctx.loaders.content.load(item.contentId);
        return content?.bodyS3Key ?? null;
      },
    }),
    excerpt: t.exposeString("excerpt", { nullable: true }),
    tags: t.exposeStringList("tags"),
    seoTitle: t.exposeString("seoTitle", { nullable: true }),
    metaDescription: t.exposeString("metaDescription", { nullable: true }),
    canonicalUrl: t.exposeString("canonicalUrl", { nullable: true }),
    featuredImage: t.exposeString("featuredImage", { nullable: true }),
    structuredData: t.expose("structuredData", { type: "JSON", nullable: true }),
    locked: t.exposeBoolean("locked", { description: "True when the caller may not read the body." }),
    presignedUrl: t.string({
      nullable: true,
      description: "A signed link to the body of the item's content (3600 s), for readers only.",
      resolve: itemLink,
    }),
    url: t.string({ nullable: true, description: "The same link as presignedUrl.", resolve: itemLink }),
    content: t.field({
      type: ContentRef,
      nullable: true,
      resolve: (item, _args, ctx) => (item.contentId ? ctx.loaders.content.load(item.contentId) : null),
    }),
  }),
});

const ContentItemFilter = filterInput("ContentItemFilter", CONTENT_ITEM_FILTER_FIELDS);
const ContentItemConnection = connectionType("ContentItem", ContentItemRef);

const itemFields = (t: InputFields, create: boolean) => ({
  contentId: t.string(),
  title: t.string(),
  slug: t.string(),
  tier: t.string({ required: create, description: "Free, Basic, Pro or Enterprise" }),
  tenant: t.string(),
  categoryId: t.string(),
  category: t.string(),
  categorySlug: t.string(),
  categoryTier: t.string(),
  section: t.string(),
  isPublic: t.boolean(),
  publishedAt: t.field({ type: "DateTime" }),
  bodyS3Key: t.string({
    description: "Not accepted: the body key is the content record's own, chosen by the server.",
  }),
  excerpt: t.string(),
  tags: t.stringList(),
  seoTitle: t.string(),
  metaDescription: t.string(),
  canonicalUrl: t.string(),
  featuredImage: t.string(),
  structuredData: t.field({ type: "JSON" }),
});
const CreateContentItemInput = builder.inputType("CreateContentItemInput", {
  fields: (t) => itemFields(t, true),
});
const UpdateContentItemInput = builder.inputType("UpdateContentItemInput", {
  fields: (t) => itemFields(t, false),
});

builder.queryFields((t) => ({
  getContentItem: t.field({
    type: ContentItemRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.items.get(ctx.actor, args.id),
  }),
  listContentItems: t.field({
    type: ContentItemConnection,
    args: {
      filter: t.arg({ type: ContentItemFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.content.items.list(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createContentItem: t.field({
    type: ContentItemRef,
    args: { input: t.arg({ type: CreateContentItemInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.items.create(ctx.actor, plainInput(args.input)),
  }),
  updateContentItem: t.field({
    type: ContentItemRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateContentItemInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.items.update(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteContentItem: t.field({
    type: ContentItemRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.items.delete(ctx.actor, args.id),
  }),
}));
