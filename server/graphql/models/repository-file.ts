/**
 * RepositoryFile (spec §3) in the data API: a repository's cached file or directory entry,
 * readable when its repository is (everyone; disabled repositories only for platform admins),
 * written by platform admins (not versioned: syncs replace the cache). Rules live in
 * `server/modules/repositories/repositories.service.ts`.
 */
import { FILE_FILTER_FIELDS } from "../../modules/repositories/repositories.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import { GitHubRepositoryRef, RepositoryFileRef } from "./refs.ts";

RepositoryFileRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    repositoryId: t.exposeString("repositoryId"),
    path: t.exposeString("path"),
    name: t.exposeString("name", { nullable: true }),
    type: t.exposeString("type", { description: "file, dir, symlink or submodule" }),
    size: t.exposeFloat("size", { nullable: true }),
    sha: t.exposeString("sha", { nullable: true }),
    extension: t.exposeString("extension", { nullable: true }),
    mimeType: t.exposeString("mimeType", { nullable: true }),
    encoding: t.exposeString("encoding", { nullable: true }),
    isReadme: t.exposeBoolean("isReadme"),
    content: t.exposeString("content", {
      nullable: true,
      description: "The cached text (raw, not rendered)",
    }),
    lastFetchAt: t.expose("lastFetchAt", { type: "DateTime", nullable: true }),
    cacheExpiry: t.expose("cacheExpiry", { type: "DateTime", nullable: true }),
    repository: t.field({
      type: GitHubRepositoryRef,
      nullable: true,
      resolve: (row, _args, ctx) => ctx.loaders.repository.load(row.repositoryId),
    }),
  }),
});

const RepositoryFileFilter = filterInput("RepositoryFileFilter", FILE_FILTER_FIELDS, ["size"]);
const RepositoryFileConnection = connectionType("RepositoryFile", RepositoryFileRef);

const fileFields = (t: InputFields, create: boolean) => ({
  path: t.string({ required: create, description: "A relative path inside the repository" }),
  type: t.string({ required: create, description: "file, dir, symlink or submodule" }),
  name: t.string(),
  size: t.float({ description: "A whole number of bytes" }),
  sha: t.string(),
  extension: t.string(),
  mimeType: t.string(),
  encoding: t.string(),
  isReadme: t.boolean(),
  content: t.string(),
  lastFetchAt: t.field({ type: "DateTime" }),
  cacheExpiry: t.field({ type: "DateTime" }),
});
const CreateRepositoryFileInput = builder.inputType("CreateRepositoryFileInput", {
  fields: (t) => ({ repositoryId: t.string({ required: true }), ...fileFields(t, true) }),
});
const UpdateRepositoryFileInput = builder.inputType("UpdateRepositoryFileInput", {
  fields: (t) => fileFields(t, false),
});

builder.queryFields((t) => ({
  getRepositoryFile: t.field({
    type: RepositoryFileRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.getRepositoryFile(ctx.actor, args.id),
  }),
  listRepositoryFiles: t.field({
    type: RepositoryFileConnection,
    args: {
      filter: t.arg({ type: RepositoryFileFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.repositories.listRepositoryFiles(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createRepositoryFile: t.field({
    type: RepositoryFileRef,
    args: { input: t.arg({ type: CreateRepositoryFileInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.createRepositoryFile(ctx.actor, plainInput(args.input)),
  }),
  updateRepositoryFile: t.field({
    type: RepositoryFileRef,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateRepositoryFileInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.updateRepositoryFile(ctx.actor, args.id, plainInput(args.input)),
  }),
  deleteRepositoryFile: t.field({
    type: RepositoryFileRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.deleteRepositoryFile(ctx.actor, args.id),
  }),
}));
