/**
 * Content (spec §3) in the data API: the type, its filter and inputs, getContent, listContents,
 * the six list-by-key queries, createContent, updateContent, deleteContent, and the studio's
 * transitionContent, restoreContentVersion, contentVersions and contentHistory. Resolvers are thin:
 * every rule is in `server/modules/content/content.service.ts` and `content-studio.service.ts`.
 */
import { readableBodyLink } from "../../modules/content/body-links.ts";
import {
  CONTENT_FILTER_FIELDS,
  CONTENT_KEY_LISTS,
  type ContentKeyList,
} from "../../modules/content/content.service.ts";
import type { ContentView } from "../../modules/content/content-projection.ts";
import type { VersionSummary, WorkflowEvent } from "../../modules/content/studio.types.ts";
import {
  builder,
  connectionType,
  DateTimeKeyCondition,
  filterInput,
  type InputFields,
  plainInput,
  SortDirection,
} from "../builder.ts";
import { ContentCategoryRef, ContentItemRef, ContentRef } from "./refs.ts";

ContentRef.implement({
  description:
    "A content record. Metadata is public for published items; the body is never inline: readers who may read it get presignedUrl/url (signed, expiring links).",
  fields: (t) => ({
    id: t.exposeID("id"),
    gid: t.exposeString("gid", { nullable: true }),
    tenant: t.exposeString("tenant", { nullable: true }),
    type: t.exposeString("type"),
    title: t.exposeString("title"),
    slug: t.exposeString("slug"),
    status: t.exposeString("status"),
    category: t.exposeString("category", { nullable: true }),
    categoryId: t.exposeString("categoryId", { nullable: true }),
    categorySlug: t.exposeString("categorySlug", { nullable: true }),
    categoryTier: t.exposeString("categoryTier", { nullable: true }),
    section: t.exposeString("section", { nullable: true }),
    taxon: t.exposeString("taxon", { nullable: true }),
    tier: t.exposeString("tier", { description: "The minimum plan that opens the body." }),
    classification: t.exposeString("classification", { nullable: true }),
    pii: t.exposeBoolean("pii"),
    retention: t.exposeString("retention", { nullable: true }),
    isPublic: t.exposeBoolean("isPublic"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    publishedAt: t.expose("publishedAt", { type: "DateTime", nullable: true }),
    eventTime: t.expose("eventTime", { type: "DateTime", nullable: true }),
    createdEpoch: t.exposeFloat("createdEpoch"),
    updatedEpoch: t.exposeFloat("updatedEpoch"),
    publishedEpoch: t.exposeFloat("publishedEpoch", { nullable: true }),
    eventEpoch: t.exposeFloat("eventEpoch", { nullable: true }),
    bodyS3Key: t.exposeString("bodyS3Key", {
      nullable: true,
      description: "The body's object key: only for readers who may read the body.",
    }),
    bodySize: t.exposeFloat("bodySize", {
      nullable: true,
      description: "The body's size in bytes: only for readers who may read the body.",
    }),
    bodyChecksum: t.exposeString("bodyChecksum", {
      nullable: true,
      description: "The body's checksum: only for readers who may read the body.",
    }),
    bodyFormat: t.exposeString("bodyFormat"),
    excerpt: t.exposeString("excerpt", { nullable: true }),
    tags: t.exposeStringList("tags"),
    aliases: t.exposeStringList("aliases"),
    audience: t.exposeStringList("audience"),
    related: t.exposeStringList("related"),
    seoKeywords: t.exposeStringList("seoKeywords"),
    seoTitle: t.exposeString("seoTitle", { nullable: true }),
    metaDescription: t.exposeString("metaDescription", { nullable: true }),
    ogTitle: t.exposeString("ogTitle", { nullable: true }),
    ogDescription: t.exposeString("ogDescription", { nullable: true }),
    ogImage: t.exposeString("ogImage", { nullable: true }),
    twitterCard: t.exposeString("twitterCard", { nullable: true }),
    schemaType: t.exposeString("schemaType", { nullable: true }),
    canonicalUrl: t.exposeString("canonicalUrl", { nullable: true }),
    noindex: t.exposeBoolean("noindex"),
    structuredData: t.expose("structuredData", {
      type: "JSON",
      nullable: true,
      description: "schema.org JSON-LD; media references only for readers who may read the body.",
    }),
    authorId: t.exposeString("authorId", { nullable: true }),
    lastEditedBy: t.exposeString("lastEditedBy", { nullable: true }),
    version: t.exposeInt("version"),
    viewCount: t.exposeInt("viewCount"),
    likeCount: t.exposeInt("likeCount"),
    shareCount: t.exposeInt("shareCount"),
    commentCount: t.exposeInt("commentCount"),
    featured: t.exposeBoolean("featured"),
    featuredOrder: t.exposeInt("featuredOrder", { nullable: true }),
    featuredImage: t.exposeString("featuredImage", { nullable: true }),
    featuredImageAlt: t.exposeString("featuredImageAlt", { nullable: true }),
    workflowStatus: t.exposeString("workflowStatus", { nullable: true }),
    reviewerNotes: t.exposeString("reviewerNotes", {
      nullable: true,
      description: "Only for those who may write content.",
    }),
    templateId: t.exposeString("templateId", { nullable: true }),
    rolesRequired: t.exposeStringList("rolesRequired"),
    locked: t.exposeBoolean("locked", { description: "True when the caller may not read the body." }),
    lastReviewedAt: t.expose("lastReviewedAt", {
      type: "DateTime",
      nullable: true,
      description: "When an editor last marked the item reviewed; null: never.",
    }),
    ownReviewBy: t.expose("reviewBy", {
      type: "DateTime",
      nullable: true,
      description: "The item's own review-by date; null: its section's default period applies.",
    }),
    reviewBy: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "The effective review-by date: the item's own, else its last review (or publication) plus its section's default period; null: never due.",
      resolve: (item, _args, ctx) => ctx.services.content.freshness.reviewStateOf(item).reviewBy,
    }),
    stale: t.boolean({
      description: "True once the effective review-by date has passed (readers see “May be out of date”).",
      resolve: (item, _args, ctx) => ctx.services.content.freshness.reviewStateOf(item).stale,
    }),
    presignedUrl: t.string({
      nullable: true,
      description: "A signed link to the body (3600 s): only when the caller may read it.",
      resolve: (item, _args, ctx) => readableBodyLink(ctx.links, ctx.identity, item),
    }),
    url: t.string({
      nullable: true,
      description: "The same link as presignedUrl.",
      resolve: (item, _args, ctx) => readableBodyLink(ctx.links, ctx.identity, item),
    }),
    authorName: t.string({
      nullable: true,
      resolve: (item, _args, ctx) => (item.authorId ? ctx.loaders.authorName.load(item.authorId) : null),
    }),
    contentCategory: t.field({
      type: ContentCategoryRef,
      nullable: true,
      resolve: (item, _args, ctx) => (item.categoryId ? ctx.loaders.category.load(item.categoryId) : null),
    }),
    contentItems: t.field({
      type: [ContentItemRef],
      description: "The content items projected from this record.",
      resolve: (item, _args, ctx) => ctx.loaders.itemsByContent.load(item.id),
    }),
  }),
});

const ContentFilter = filterInput("ContentFilter", CONTENT_FILTER_FIELDS, [
  "createdEpoch",
  "updatedEpoch",
  "publishedEpoch",
  "eventEpoch",
]);
const ContentConnection = connectionType("Content", ContentRef);

const contentFields = (t: InputFields, create: boolean) => ({
  gid: t.string(),
  tenant: t.string(),
  type: t.string({ description: "article, course, video, markdown, category or collection" }),
  title: t.string({ required: create }),
  slug: t.string({ required: create }),
  status: t.string({ description: "draft, review, published or archived (published needs content:publish)" }),
  category: t.string(),
  categoryId: t.string(),
  categorySlug: t.string(),
  categoryTier: t.string(),
  section: t.string(),
  taxon: t.string(),
  tier: t.string({ description: "Free, Basic, Pro or Enterprise" }),
  classification: t.string(),
  pii: t.boolean(),
  retention: t.string(),
  isPublic: t.boolean(),
  publishedAt: t.field({ type: "DateTime" }),
  eventTime: t.field({ type: "DateTime" }),
  bodyS3Key: t.string({
    description:
      "Not accepted (BAD_USER_INPUT): storage keys are chosen by the server. Send the text in `body`.",
  }),
  body: t.string({
    description:
      "The markdown body: stored by the server at the item's own key (content/<tier>/<category>/<slug>.md), size and checksum computed.",
  }),
  bodyFormat: t.string(),
  excerpt: t.string(),
  tags: t.stringList(),
  aliases: t.stringList(),
  audience: t.stringList(),
  related: t.stringList(),
  seoKeywords: t.stringList(),
  seoTitle: t.string(),
  metaDescription: t.string(),
  ogTitle: t.string(),
  ogDescription: t.string(),
  ogImage: t.string(),
  twitterCard: t.string(),
  schemaType: t.string(),
  canonicalUrl: t.string(),
  noindex: t.boolean(),
  structuredData: t.field({ type: "JSON" }),
  featured: t.boolean(),
  featuredOrder: t.int(),
  featuredImage: t.string(),
  featuredImageAlt: t.string(),
  workflowStatus: t.string(),
  reviewerNotes: t.string(),
  templateId: t.string(),
  rolesRequired: t.stringList(),
  reviewBy: t.field({
    type: "DateTime",
    description: "The item's own review-by date; null clears it (the section's default period applies).",
  }),
});

/** Writable fields only: never id, version, counters, epochs, timestamps or authorId (no mass assignment). */
const CreateContentInput = builder.inputType("CreateContentInput", { fields: (t) => contentFields(t, true) });
const UpdateContentInput = builder.inputType("UpdateContentInput", {
  fields: (t) => contentFields(t, false),
});

builder.queryFields((t) => ({
  getContent: t.field({
    type: ContentRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.contents.get(ctx.actor, args.id),
  }),
  listContents: t.field({
    type: ContentConnection,
    args: {
      filter: t.arg({ type: ContentFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.contents.listFiltered(ctx.actor, {
        filter: args.filter,
        limit: args.limit,
        nextToken: args.nextToken,
      }),
  }),
}));

// The list-by-key queries: named after spec §3's look-ups, each served by its index.
for (const [name, spec] of Object.entries(CONTENT_KEY_LISTS) as [
  ContentKeyList,
  (typeof CONTENT_KEY_LISTS)[ContentKeyList],
][]) {
  builder.queryField(name, (t) =>
    t.field({
      type: ContentConnection,
      description: `Content by ${spec.key}${spec.sort ? ` ordered by ${spec.sort}` : ""} (index ${spec.index}).`,
      args: {
        [spec.key]: t.arg.string({ required: true }),
        ...(spec.sort ? { [spec.sort]: t.arg({ type: DateTimeKeyCondition }) } : {}),
        sortDirection: t.arg({ type: SortDirection }),
        limit: t.arg.int({ description: "1 to 100, default 20" }),
        nextToken: t.arg.string(),
      },
      resolve: (_root, args, ctx) => {
        const a = args as Record<string, unknown>;
        return ctx.services.content.contents.listByKey(ctx.actor, name, {
          key: a[spec.key] as string,
          sortKey: spec.sort ? a[spec.sort] : undefined,
          sortDirection: (a.sortDirection as "ASC" | "DESC" | null | undefined) ?? null,
          limit: a.limit as number | null | undefined,
          nextToken: a.nextToken as string | null | undefined,
        });
      },
    }),
  );
}

builder.mutationFields((t) => ({
  createContent: t.field({
    type: ContentRef,
    args: { input: t.arg({ type: CreateContentInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.contents.create(ctx.actor, plainInput(args.input)),
  }),
  updateContent: t.field({
    type: ContentRef,
    description: "Applies the changes when the stored version is still `version`; otherwise CONFLICT.",
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
      input: t.arg({ type: UpdateContentInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.contents.update(ctx.actor, args.id, args.version, plainInput(args.input)),
  }),
  deleteContent: t.field({
    type: ContentRef,
    description: "Deletes the record (at `version` when given; a stale one is a CONFLICT) and returns it.",
    args: { id: t.arg.id({ required: true }), version: t.arg.int() },
    resolve: (_root, args, ctx) => ctx.services.content.contents.delete(ctx.actor, args.id, args.version),
  }),
}));

// The studio's workflow and versions (decision 017): the same operations as REST's
// /api/content/{id}/transitions, /history, /versions and /restore, for content writers.

const WorkflowEventRef = builder.objectRef<WorkflowEvent>("ContentWorkflowEvent").implement({
  description: "One workflow transition of a content item, with who and when (auto_publish: its time came).",
  fields: (t) => ({
    id: t.exposeID("id"),
    action: t.exposeString("action"),
    from: t.exposeString("from"),
    to: t.exposeString("to"),
    actorId: t.exposeString("actorId", { nullable: true }),
    actorName: t.exposeString("actorName", { nullable: true }),
    at: t.expose("at", { type: "DateTime" }),
    notes: t.exposeString("notes", { nullable: true }),
    publishedAt: t.expose("publishedAt", { type: "DateTime", nullable: true }),
  }),
});

const ContentVersionRef = builder.objectRef<VersionSummary>("ContentVersion").implement({
  description: "One saved version of a content item (every create, update and restore keeps one).",
  fields: (t) => ({
    version: t.exposeInt("version"),
    authorId: t.exposeString("authorId", { nullable: true }),
    authorName: t.exposeString("authorName", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    title: t.exposeString("title"),
    note: t.exposeString("note", { nullable: true }),
  }),
});

const ContentTransitionRef = builder
  .objectRef<{ item: ContentView; event: WorkflowEvent }>("ContentTransition")
  .implement({
    fields: (t) => ({
      item: t.field({ type: ContentRef, resolve: (r) => r.item }),
      event: t.field({ type: WorkflowEventRef, resolve: (r) => r.event }),
    }),
  });

builder.queryFields((t) => ({
  contentVersions: t.field({
    type: [ContentVersionRef],
    description: "The item's saved versions, newest first (content writers).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.studio.versions(ctx.actor, args.id),
  }),
  contentHistory: t.field({
    type: [WorkflowEventRef],
    description: "The item's workflow transitions, newest first (content writers).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.studio.history(ctx.actor, args.id),
  }),
}));

builder.mutationFields((t) => ({
  transitionContent: t.field({
    type: ContentTransitionRef,
    description:
      "Moves the item through the workflow (submit, request_changes, approve, schedule, unschedule, publish, archive, restore) when the stored version is still `version`.",
    args: {
      id: t.arg.id({ required: true }),
      action: t.arg.string({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
      at: t.arg({ type: "DateTime", description: "schedule: when to publish (in the future)" }),
      notes: t.arg.string({ description: "Reviewer notes (required by request_changes)" }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.studio.transition(ctx.actor, args.id, {
        action: args.action,
        version: args.version,
        ...(args.at ? { at: new Date(args.at as string | Date).toISOString() } : {}),
        ...(args.notes != null ? { notes: args.notes } : {}),
      }),
  }),
  restoreContentVersion: t.field({
    type: ContentRef,
    description: "Saves version `from`'s fields and body as a new version (the workflow state stays).",
    args: {
      id: t.arg.id({ required: true }),
      from: t.arg.int({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.studio.restore(ctx.actor, args.id, { from: args.from, version: args.version }),
  }),
}));
