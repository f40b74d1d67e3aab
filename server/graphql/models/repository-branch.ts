/**
 * RepositoryBranch (spec §3) in the data API: a repository's cached branch, readable when its
 * repository is (everyone; disabled repositories only for platform admins), written by platform
 * admins (not versioned: syncs replace the cache). Rules live in
 * `server/modules/repositories/repositories.service.ts`.
 */
import { BRANCH_FILTER_FIELDS } from "../../modules/repositories/repositories.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import { GitHubRepositoryRef, RepositoryBranchRef } from "./refs.ts";

RepositoryBranchRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    repositoryId: t.exposeString("repositoryId"),
    name: t.exposeString("name"),
    sha: t.exposeString("sha"),
    isDefault: t.exposeBoolean("isDefault"),
    lastCommitMessage: t.exposeString("lastCommitMessage", { nullable: true }),
    lastCommitDate: t.expose("lastCommitDate", { type: "DateTime", nullable: true }),
    repository: t.field({
      type: GitHubRepositoryRef,
      nullable: true,
      resolve: (row, _args, ctx) => ctx.loaders.repository.load(row.repositoryId),
    }),
  }),
});

const RepositoryBranchFilter = filterInput("RepositoryBranchFilter", BRANCH_FILTER_FIELDS);
const RepositoryBranchConnection = connectionType("RepositoryBranch", RepositoryBranchRef);

const branchFields = (t: InputFields, create: boolean) => ({
  name: t.string({ required: create }),
  sha: t.string({ required: create }),
  isDefault: t.boolean(),
  lastCommitMessage: t.string(),
  lastCommitDate: t.field({ type: "DateTime" }),
});
const CreateRepositoryBranchInput = builder.inputType("CreateRepositoryBranchInput", {
  fields: (t) => ({ repositoryId: t.string({ required: true }), ...branchFields(t, true) }),
});
const UpdateRepositoryBranchInput = builder.inputType("UpdateRepositoryBranchInput", {
  fields: (t) => branchFields(t, false),
});

builder.queryFields((t) => ({
  getRepositoryBranch: t.field({
    type: RepositoryBranchRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.getRepositoryBranch(ctx.actor, args.id),
  }),
  listRepositoryBranches: t.field({
    type: RepositoryBranchConnection,
    args: {
      filter: t.arg({ type: RepositoryBranchFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.repositories.listRepositoryBranches(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createRepositoryBranch: t.field({
    type: RepositoryBranchRef,
    args: { input: t.arg({ type: CreateRepositoryBranchInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.createRepositoryBranch(ctx.actor, plainInput(args.input)),
  }),
  updateRepositoryBranch: t.field({
    type: RepositoryBranchRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateRepositoryBranchInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.updateRepositoryBranch(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteRepositoryBranch: t.field({
    type: RepositoryBranchRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.deleteRepositoryBranch(ctx.actor, args.id),
  }),
}));
