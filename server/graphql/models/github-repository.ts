/**
 * GitHubRepository (spec §3) in the data API: readable by everyone (API keys and services with
 * `repositories:read`), a disabled repository only by platform admins; written by platform
 * admins (versioned). Nested: its category (by slug) and the first 100 cached files, branches,
 * issues and workflows (the list queries page through the rest), each through a loader that reads
 * with the caller's access. Rules live in `server/modules/repositories/repositories.service.ts`.
 */
import { REPOSITORY_FILTER_FIELDS } from "../../modules/repositories/repositories.service.ts";
import {
  builder,
  connectionType,
  filterInput,
  type InputFields,
  IntKeyCondition,
  plainInput,
  SortDirection,
} from "../builder.ts";
import {
  GitHubRepositoryRef,
  RepositoryBranchRef,
  RepositoryCategoryRef,
  RepositoryFileRef,
  RepositoryIssueRef,
  RepositoryWorkflowRef,
} from "./refs.ts";

const NESTED = "The first 100 by id; listRepository…s with a repositoryId filter pages through all.";

GitHubRepositoryRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    githubId: t.exposeFloat("githubId", { nullable: true }),
    name: t.exposeString("name", { nullable: true }),
    fullName: t.exposeString("fullName", { nullable: true }),
    owner: t.exposeString("owner", { nullable: true }),
    htmlUrl: t.exposeString("htmlUrl", { nullable: true }),
    slug: t.exposeString("slug"),
    description: t.exposeString("description", { nullable: true }),
    defaultBranch: t.exposeString("defaultBranch", { nullable: true }),
    isPrivate: t.exposeBoolean("isPrivate"),
    language: t.exposeString("language", { nullable: true }),
    stargazersCount: t.exposeInt("stargazersCount"),
    forksCount: t.exposeInt("forksCount"),
    size: t.exposeFloat("size"),
    displayName: t.exposeString("displayName", { nullable: true }),
    category: t.exposeString("category", {
      nullable: true,
      description: "The slug of its RepositoryCategory",
    }),
    tags: t.exposeStringList("tags"),
    isEnabled: t.exposeBoolean("isEnabled"),
    sortOrder: t.exposeInt("sortOrder"),
    lastSyncAt: t.expose("lastSyncAt", { type: "DateTime", nullable: true }),
    cacheExpiry: t.expose("cacheExpiry", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    version: t.exposeInt("version"),
    repositoryCategory: t.field({
      type: RepositoryCategoryRef,
      nullable: true,
      description: "The category named by `category` (null when absent or hidden).",
      resolve: (repo, _args, ctx) =>
        repo.category ? ctx.loaders.repositoryCategoryBySlug.load(repo.category) : null,
    }),
    files: t.field({
      type: [RepositoryFileRef],
      description: NESTED,
      resolve: (repo, _args, ctx) => ctx.loaders.filesByRepository.load(repo.id),
    }),
    branches: t.field({
      type: [RepositoryBranchRef],
      description: NESTED,
      resolve: (repo, _args, ctx) => ctx.loaders.branchesByRepository.load(repo.id),
    }),
    issues: t.field({
      type: [RepositoryIssueRef],
      description: NESTED,
      resolve: (repo, _args, ctx) => ctx.loaders.issuesByRepository.load(repo.id),
    }),
    workflows: t.field({
      type: [RepositoryWorkflowRef],
      description: NESTED,
      resolve: (repo, _args, ctx) => ctx.loaders.workflowsByRepository.load(repo.id),
    }),
  }),
});

const GitHubRepositoryFilter = filterInput("GitHubRepositoryFilter", REPOSITORY_FILTER_FIELDS, [
  "githubId",
  "size",
]);
const GitHubRepositoryConnection = connectionType("GitHubRepository", GitHubRepositoryRef);

const repositoryFields = (t: InputFields, create: boolean) => ({
  githubId: t.float({ description: "A whole number" }),
  name: t.string(),
  fullName: t.string(),
  owner: t.string(),
  htmlUrl: t.string({ description: "An https URL" }),
  slug: t.string({ required: create, description: "Lower-case letters, digits and hyphens" }),
  description: t.string(),
  defaultBranch: t.string(),
  isPrivate: t.boolean(),
  language: t.string(),
  stargazersCount: t.int(),
  forksCount: t.int(),
  size: t.float({ description: "A whole number" }),
  displayName: t.string(),
  category: t.string({ description: "The slug of a RepositoryCategory" }),
  tags: t.stringList(),
  isEnabled: t.boolean(),
  sortOrder: t.int(),
  lastSyncAt: t.field({ type: "DateTime" }),
  cacheExpiry: t.field({ type: "DateTime" }),
});
const CreateGitHubRepositoryInput = builder.inputType("CreateGitHubRepositoryInput", {
  fields: (t) => repositoryFields(t, true),
});
const UpdateGitHubRepositoryInput = builder.inputType("UpdateGitHubRepositoryInput", {
  fields: (t) => repositoryFields(t, false),
});

const LIMIT = "1 to 100, default 20";

builder.queryFields((t) => ({
  getGitHubRepository: t.field({
    type: GitHubRepositoryRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.getGitHubRepository(ctx.actor, args.id),
  }),
  listGitHubRepositories: t.field({
    type: GitHubRepositoryConnection,
    args: {
      filter: t.arg({ type: GitHubRepositoryFilter }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.repositories.listGitHubRepositories(ctx.actor, args),
  }),
  listGitHubRepositoryByOwner: t.field({
    type: GitHubRepositoryConnection,
    description: "An owner's repositories by id (index github_repository_owner_idx); no sort key.",
    args: {
      owner: t.arg.string({ required: true }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { owner, ...args }, ctx) =>
      ctx.services.repositories.listGitHubRepositoryByOwner(ctx.actor, owner, args),
  }),
  listGitHubRepositoryBySlug: t.field({
    type: GitHubRepositoryConnection,
    description: "The repository with this slug (unique index github_repository_slug_uidx); no sort key.",
    args: {
      slug: t.arg.string({ required: true }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { slug, ...args }, ctx) =>
      ctx.services.repositories.listGitHubRepositoryBySlug(ctx.actor, slug, args),
  }),
  listGitHubRepositoryByCategoryAndSortOrder: t.field({
    type: GitHubRepositoryConnection,
    description: "A category's repositories by sortOrder (index github_repository_category_sortOrder_idx).",
    args: {
      category: t.arg.string({ required: true }),
      sortOrder: t.arg({ type: IntKeyCondition }),
      sortDirection: t.arg({ type: SortDirection }),
      limit: t.arg.int({ description: LIMIT }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, { category, sortOrder, ...args }, ctx) =>
      ctx.services.repositories.listGitHubRepositoryByCategoryAndSortOrder(ctx.actor, category, {
        ...args,
        sortKey: sortOrder,
      }),
  }),
}));

builder.mutationFields((t) => ({
  createGitHubRepository: t.field({
    type: GitHubRepositoryRef,
    args: { input: t.arg({ type: CreateGitHubRepositoryInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.createGitHubRepository(ctx.actor, plainInput(args.input)),
  }),
  updateGitHubRepository: t.field({
    type: GitHubRepositoryRef,
    description: "Applies the changes when the stored version is still `version`; otherwise CONFLICT.",
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
      input: t.arg({ type: UpdateGitHubRepositoryInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.updateGitHubRepository(
        ctx.actor,
        args.id,
        args.version,
        plainInput(args.input),
      ),
  }),
  deleteGitHubRepository: t.field({
    type: GitHubRepositoryRef,
    description: "Deletes the repository and everything cached for it; returns the repository.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.deleteGitHubRepository(ctx.actor, args.id),
  }),
}));
