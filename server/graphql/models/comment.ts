/**
 * Comment (spec §3) in the data API: readable by whoever may read the body of its content
 * (published comments, plus one's own pending ones; moderators read all), created by signed-in
 * users on content they may read (the same pre-moderation, restrictions and limits as REST), the body edited by its author and the status by moderators
 * (versioned), deleted by the author or a moderator. Rules live in
 * `server/modules/comments/comments.service.ts`.
 */
import { renderCommentBody } from "../../modules/comments/comment-render.ts";
import { COMMENT_FILTER_FIELDS } from "../../modules/comments/comments.service.ts";
import {
  builder,
  connectionType,
  DateTimeKeyCondition,
  filterInput,
  plainInput,
  SortDirection,
} from "../builder.ts";
import { CommentRef, ContentRef, UserRef } from "./refs.ts";

CommentRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    contentId: t.exposeString("contentId"),
    authorId: t.exposeString("authorId", { nullable: true }),
    body: t.exposeString("body"),
    bodyHtml: t.string({
      description: "The body's Markdown subset as sanitized HTML (no images, headings or raw HTML).",
      resolve: (comment) => renderCommentBody(comment.body),
    }),
    parentCommentId: t.exposeString("parentCommentId", { nullable: true }),
    status: t.exposeString("status", { description: "published, pending, hidden or removed" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    version: t.exposeInt("version"),
    author: t.field({
      type: UserRef,
      nullable: true,
      description: "The author's public profile (signed-in readers; the same rule as getUser).",
      resolve: (comment, _args, ctx) => (comment.authorId ? ctx.loaders.user.load(comment.authorId) : null),
    }),
    content: t.field({
      type: ContentRef,
      nullable: true,
      description: "The content the comment is on (the same rule as getContent).",
      resolve: (comment, _args, ctx) => ctx.loaders.content.load(comment.contentId),
    }),
  }),
});

const CommentFilter = filterInput("CommentFilter", COMMENT_FILTER_FIELDS);
const CommentConnection = connectionType("Comment", CommentRef);

/**
 * The author is the caller; the status is published, or pending when pre-moderation holds it (a
 * new commenter, a muted one, or every comment): neither is taken from input.
 */
const CreateCommentInput = builder.inputType("CreateCommentInput", {
  fields: (t) => ({
    contentId: t.string({ required: true }),
    body: t.string({ required: true }),
    parentCommentId: t.string({ description: "The comment this one replies to" }),
  }),
});
const UpdateCommentInput = builder.inputType("UpdateCommentInput", {
  fields: (t) => ({
    body: t.string({ description: "The author only" }),
    status: t.string({ description: "Moderators only: published, pending, hidden or removed" }),
  }),
});

const LIMIT = "1 to 100, default 20";

builder.queryFields((t) => ({
  getComment: t.field({
    type: CommentRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.comments.get(ctx.actor, args.id),
  }),
  listComments: t.field({
    type: CommentConnection,
    args: {
      filter: t.arg({ type: CommentFilter }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.comments.list(ctx.actor, args),
  }),
  listCommentByContentIdAndCreatedAt: t.field({
    type: CommentConnection,
    description:
      "A content item's comments by time (index comment_contentId_createdAt_idx). Content whose body the caller may not read: FORBIDDEN.",
    args: {
      contentId: t.arg.string({ required: true }),
      createdAt: t.arg({ type: DateTimeKeyCondition }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { contentId, createdAt, ...args }, ctx) =>
      ctx.services.comments.listByContentIdAndCreatedAt(ctx.actor, contentId, {
        ...args,
        sortKey: createdAt,
      }),
  }),
  listCommentByAuthorIdAndCreatedAt: t.field({
    type: CommentConnection,
    description: "An author's comments the caller may read, by time (index comment_authorId_createdAt_idx).",
    args: {
      authorId: t.arg.string({ required: true }),
      createdAt: t.arg({ type: DateTimeKeyCondition }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { authorId, createdAt, ...args }, ctx) =>
      ctx.services.comments.listByAuthorIdAndCreatedAt(ctx.actor, authorId, { ...args, sortKey: createdAt }),
  }),
}));

builder.mutationFields((t) => ({
  createComment: t.field({
    type: CommentRef,
    args: { input: t.arg({ type: CreateCommentInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.comments.create(ctx.actor, plainInput(args.input)),
  }),
  updateComment: t.field({
    type: CommentRef,
    description: "Applies the changes when the stored version is still `version`; otherwise CONFLICT.",
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
      input: t.arg({ type: UpdateCommentInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.comments.update(ctx.actor, args.id, args.version, plainInput(args.input)),
  }),
  deleteComment: t.field({
    type: CommentRef,
    description: "Deletes the comment and its replies; returns the comment.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.comments.delete(ctx.actor, args.id),
  }),
}));
