/**
 * RepositoryIssue (spec §3) in the data API: a repository's cached issue, readable when its
 * repository is (everyone; disabled repositories only for platform admins), written by platform
 * admins (not versioned: syncs replace the cache). Rules live in
 * `server/modules/repositories/repositories.service.ts`.
 */
import { ISSUE_FILTER_FIELDS } from "../../modules/repositories/repositories.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import { GitHubRepositoryRef, RepositoryIssueRef } from "./refs.ts";

RepositoryIssueRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    repositoryId: t.exposeString("repositoryId"),
    githubIssueId: t.exposeFloat("githubIssueId", { nullable: true }),
    number: t.exposeInt("number", { nullable: true }),
    title: t.exposeString("title", { nullable: true }),
    state: t.exposeString("state", { description: "open or closed" }),
    body: t.exposeString("body", { nullable: true, description: "The cached text (raw, not rendered)" }),
    labels: t.exposeStringList("labels"),
    repository: t.field({
      type: GitHubRepositoryRef,
      nullable: true,
      resolve: (row, _args, ctx) => ctx.loaders.repository.load(row.repositoryId),
    }),
  }),
});

const RepositoryIssueFilter = filterInput("RepositoryIssueFilter", ISSUE_FILTER_FIELDS, ["githubIssueId"]);
const RepositoryIssueConnection = connectionType("RepositoryIssue", RepositoryIssueRef);

const issueFields = (t: InputFields, create: boolean) => ({
  state: t.string({ required: create, description: "open or closed" }),
  githubIssueId: t.float({ description: "A whole number" }),
  number: t.int(),
  title: t.string(),
  body: t.string(),
  labels: t.stringList(),
});
const CreateRepositoryIssueInput = builder.inputType("CreateRepositoryIssueInput", {
  fields: (t) => ({ repositoryId: t.string({ required: true }), ...issueFields(t, true) }),
});
const UpdateRepositoryIssueInput = builder.inputType("UpdateRepositoryIssueInput", {
  fields: (t) => issueFields(t, false),
});

builder.queryFields((t) => ({
  getRepositoryIssue: t.field({
    type: RepositoryIssueRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.getRepositoryIssue(ctx.actor, args.id),
  }),
  listRepositoryIssues: t.field({
    type: RepositoryIssueConnection,
    args: {
      filter: t.arg({ type: RepositoryIssueFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.repositories.listRepositoryIssues(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createRepositoryIssue: t.field({
    type: RepositoryIssueRef,
    args: { input: t.arg({ type: CreateRepositoryIssueInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.createRepositoryIssue(ctx.actor, plainInput(args.input)),
  }),
  updateRepositoryIssue: t.field({
    type: RepositoryIssueRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateRepositoryIssueInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.updateRepositoryIssue(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteRepositoryIssue: t.field({
    type: RepositoryIssueRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.deleteRepositoryIssue(ctx.actor, args.id),
  }),
}));
