/**
 * RepositoryCategory (spec §3) in the data API: readable by everyone (API keys and services with
 * `repositories:read`), a hidden one only by platform admins; written by platform admins
 * (versioned). Rules live in `server/modules/repositories/repositories.service.ts`.
 */
import { CATEGORY_FILTER_FIELDS } from "../../modules/repositories/repositories.service.ts";
import { builder, connectionType, filterInput, type InputFields, plainInput } from "../builder.ts";
import { RepositoryCategoryRef } from "./refs.ts";

RepositoryCategoryRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name", { nullable: true }),
    slug: t.exposeString("slug"),
    description: t.exposeString("description", { nullable: true }),
    icon: t.exposeString("icon", { nullable: true }),
    sortOrder: t.exposeInt("sortOrder"),
    isVisible: t.exposeBoolean("isVisible"),
    version: t.exposeInt("version"),
  }),
});

const RepositoryCategoryFilter = filterInput("RepositoryCategoryFilter", CATEGORY_FILTER_FIELDS);
const RepositoryCategoryConnection = connectionType("RepositoryCategory", RepositoryCategoryRef);

const categoryFields = (t: InputFields, create: boolean) => ({
  name: t.string(),
  slug: t.string({ required: create, description: "Lower-case letters, digits and hyphens" }),
  description: t.string(),
  icon: t.string(),
  sortOrder: t.int(),
  isVisible: t.boolean(),
});
const CreateRepositoryCategoryInput = builder.inputType("CreateRepositoryCategoryInput", {
  fields: (t) => categoryFields(t, true),
});
const UpdateRepositoryCategoryInput = builder.inputType("UpdateRepositoryCategoryInput", {
  fields: (t) => categoryFields(t, false),
});

builder.queryFields((t) => ({
  getRepositoryCategory: t.field({
    type: RepositoryCategoryRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.getRepositoryCategory(ctx.actor, args.id),
  }),
  listRepositoryCategories: t.field({
    type: RepositoryCategoryConnection,
    args: {
      filter: t.arg({ type: RepositoryCategoryFilter }),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.repositories.listRepositoryCategories(ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  createRepositoryCategory: t.field({
    type: RepositoryCategoryRef,
    args: { input: t.arg({ type: CreateRepositoryCategoryInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.createRepositoryCategory(ctx.actor, plainInput(args.input)),
  }),
  updateRepositoryCategory: t.field({
    type: RepositoryCategoryRef,
    description: "Applies the changes when the stored version is still `version`; otherwise CONFLICT.",
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true, description: "The version last read" }),
      input: t.arg({ type: UpdateRepositoryCategoryInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.repositories.updateRepositoryCategory(
        ctx.actor,
        args.id,
        args.version,
        plainInput(args.input),
      ),
  }),
  deleteRepositoryCategory: t.field({
    type: RepositoryCategoryRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.repositories.deleteRepositoryCategory(ctx.actor, args.id),
  }),
}));
