/**
 * RepositoryWorkflow (spec §3) in the data API: a repository's cached CI workflow, readable when
 * its repository is (everyone; disabled repositories only for platform admins), written by
 * platform admins (not versioned: syncs replace the cache). Rules live in
 * `server/modules/repositories/repositories.service.ts`.
 */
import { WORKFLOW_FILTER_FIELDS } from "../../modules/repositories/repositories.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import { GitHubRepositoryRef, RepositoryWorkflowRef } from "./refs.ts";

RepositoryWorkflowRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    repositoryId: t.exposeString("repositoryId"),
    githubWorkflowId: t.exposeFloat("githubWorkflowId", { nullable: true }),
    name: t.exposeString("name", { nullable: true }),
    path: t.exposeString("path", { nullable: true }),
    state: t.exposeString("state"),
    lastRunStatus: t.exposeString("lastRunStatus", { nullable: true }),
    lastRunDate: t.expose("lastRunDate", { type: "DateTime", nullable: true }),
    repository: t.field({
      type: GitHubRepositoryRef,
      nullable: true,
      resolve: (row, _args, ctx) => ctx.loaders.repository.load(row.repositoryId),
    }),
  }),
});

const RepositoryWorkflowFilter = filterInput("RepositoryWorkflowFilter", WORKFLOW_FILTER_FIELDS, [
  "githubWorkflowId",
]);
const RepositoryWorkflowConnection = connectionType("RepositoryWorkflow", RepositoryWorkflowRef);

const workflowFields = (t: InputFields, create: boolean) => ({
  state: t.string({ required: create }),
  githubWorkflowId: t.float({ description: "A whole number" }),
  name: t.string(),
  path: t.string(),
  lastRunStatus: t.string(),
  lastRunDate: t.field({ type: "DateTime" }),
});
const CreateRepositoryWorkflowInput = builder.inputType("CreateRepositoryWorkflowInput", {
  fields: (t) => ({ repositoryId: t.string({ required: true }), ...workflowFields(t, true) }),
});
const UpdateRepositoryWorkflowInput = builder.inputType("UpdateRepositoryWorkflowInput", {
  fields: (t) => workflowFields(t, false),
});

builder.queryFields((t) => ({
  getRepositoryWorkflow: t.field({
    type: RepositoryWorkflowRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.getRepositoryWorkflow(ctx.actor, args.id),
  }),
  listRepositoryWorkflows: t.field({
    type: RepositoryWorkflowConnection,
    args: {
      filter: t.arg({ type: RepositoryWorkflowFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.repositories.listRepositoryWorkflows(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createRepositoryWorkflow: t.field({
    type: RepositoryWorkflowRef,
    args: { input: t.arg({ type: CreateRepositoryWorkflowInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.createRepositoryWorkflow(ctx.actor, plainInput(args.input)),
  }),
  updateRepositoryWorkflow: t.field({
    type: RepositoryWorkflowRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateRepositoryWorkflowInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.updateRepositoryWorkflow(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteRepositoryWorkflow: t.field({
    type: RepositoryWorkflowRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.deleteRepositoryWorkflow(ctx.actor, args.id),
  }),
}));
