/**
 * Repository administration REST handlers (issue 6 item 5): the admin screen's API over the
 * repositories service (decision 008). Platform administrators only (app-admin, app-owner): the
 * service's `requirePlatformAdmin` rule decides; organisation admins are refused (repositories are
 * platform-wide). Signed-in sessions only: API keys and bearer tokens are refused (403).
 *
 * - GET    /api/admin/repositories → {repositories: [AdminRepository], categories: [RepositoryCategory]}
 *          (every repository, disabled ones too, ordered by sortOrder then name)
 * - POST   /api/admin/repositories {source: "local", localPath, …} | {source: "github", owner, name, …}
 *          → 201 {repository}
 * - PATCH  /api/admin/repositories/{id} {version, isEnabled?, sortOrder?, category?, tags?,
 *          displayName?, description?} → {repository} | 409 CONFLICT (stale version)
 * - POST   /api/admin/repositories/{id}/sync → {outcome, repository} (a failed sync is 200 with
 *          `outcome.ok: false`; its reason stays on the repository as `lastSyncError`)
 * - DELETE /api/admin/repositories/{id} → 204
 * - POST   /api/admin/repository-categories {slug, name, …} → 201 {category}
 * - PATCH  /api/admin/repository-categories/{id} {version, name?, sortOrder?, isVisible?, …} → {category}
 *
 * State changes need this site's Origin (CSRF); bodies are at most 64 KB. Errors: the REST
 * envelope `{error: {code, message, field?: {name: problem}}}`.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { BadInputError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import type { GitHubRepository, RepositoryCategory } from "../modules/repositories/repositories.service.ts";
import { safeDirectory } from "../modules/repositories/sources/paths.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { fail, handler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** Largest JSON body of this API. */
export const ADMIN_REPOSITORIES_BODY_LIMIT = 64 * 1024;

export type RepositorySyncStatus = "never-synced" | "synced" | "failed";

/** A repository as the admin screen sees it: the row plus its sync status. */
export type AdminRepository = GitHubRepository & { status: RepositorySyncStatus };

/** The first zod issue as a BadInputError naming its field ("owner: …", field {owner: …}). */
function invalid(error: z.ZodError): BadInputError {
  const issue = error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "field";
    return new BadInputError(`${key}: cannot be set here`, { field: { [key]: "cannot be set here" } });
  }
  const field = issue?.path.length ? issue.path.map(String).join(".") : undefined;
  const message = issue?.message ?? "is not valid";
  return new BadInputError(field ? `${field}: ${message}` : message, {
    field: field ? { [field.split(".")[0]!]: message } : undefined,
  });
}

const slug = z
  .string()
  .trim()
  .min(1, "required")
  .max(100, "at most 100 characters")
  .regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and hyphens");
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v));
const tags = z
  .array(z.string().trim().min(1, "a tag cannot be empty").max(50, "a tag has at most 50 characters"))
  .max(50, "at most 50 tags")
  .transform((list) => [...new Set(list)]);
const sortOrder = z
  .number({ message: "expected a number" })
  .int("expected a whole number")
  .min(-1_000_000)
  .max(1_000_000);
const category = z
  .string()
  .trim()
  .max(100, "at most 100 characters")
  .nullable()
  .optional()
  .transform((v) => (v === "" ? null : v));

const localPath = z
  .string({ message: "required" })
  .trim()
  .min(1, "required")
  .max(300, "at most 300 characters")
  .refine((value) => {
    try {
      return safeDirectory(value) !== "";
    } catch {
      return false;
    }
  }, "must be a folder inside the repositories folder (no '..', no absolute path)");
const common = {
  slug: slug.optional(),
  displayName: optionalText(200),
  description: optionalText(2000),
  category,
  tags: tags.optional(),
  sortOrder: sortOrder.optional(),
  isEnabled: z.boolean({ message: "expected true or false" }).optional(),
};
const AddBody = z.discriminatedUnion(
  "source",
  [
    z.strictObject({ source: z.literal("local"), localPath, ...common }),
    z.strictObject({
      source: z.literal("github"),
      owner: z
        .string({ message: "required" })
        .trim()
        .min(1, "required")
        .max(39, "at most 39 characters")
        .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/, "a GitHub user or organisation name"),
      name: z
        .string({ message: "required" })
        .trim()
        .min(1, "required")
        .max(100, "at most 100 characters")
        .regex(/^[A-Za-z0-9._-]+$/, "a GitHub repository name")
        .refine((v) => v !== "." && v !== "..", "a GitHub repository name"),
      ...common,
    }),
  ],
  { message: "expected 'local' or 'github'" },
);
const version = z
  .number({ message: "required: the version you loaded" })
  .int("expected a whole number")
  .min(1, "expected a whole number from 1");
const PatchBody = z.strictObject({
  version,
  isEnabled: z.boolean({ message: "expected true or false" }).optional(),
  sortOrder: sortOrder.optional(),
  category,
  tags: tags.optional(),
  displayName: optionalText(200),
  description: optionalText(2000),
});
const CategoryBody = z.strictObject({
  slug,
  name: optionalText(200),
  description: optionalText(2000),
  icon: optionalText(100),
  sortOrder: sortOrder.optional(),
  isVisible: z.boolean({ message: "expected true or false" }).optional(),
});
const CategoryPatchBody = z.strictObject({
  version,
  name: optionalText(200),
  description: optionalText(2000),
  icon: optionalText(100),
  sortOrder: sortOrder.optional(),
  isVisible: z.boolean({ message: "expected true or false" }).optional(),
});

/** Drops keys whose value is undefined (zod keeps optional keys absent, transforms may not). */
function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function syncStatus(row: GitHubRepository): RepositorySyncStatus {
  if (row.lastSyncError) return "failed";
  return row.lastSyncAt ? "synced" : "never-synced";
}

const toAdmin = (row: GitHubRepository): AdminRepository => ({ ...row, status: syncStatus(row) });

const label = (row: GitHubRepository) => row.displayName ?? row.fullName ?? row.name ?? row.slug;

const repositoriesAdminRoute = routeGroup({
  tag: "Admin: repositories",
  access: "session",
  who: "platform admins",
});

export const adminRepositoriesRoutes = defineRoutes([
  repositoriesAdminRoute(
    "get",
    "/api/admin/repositories",
    "Every repository (disabled ones too) and the categories",
    "`{repositories, categories}`",
  ),
  repositoriesAdminRoute("post", "/api/admin/repositories", "Add a repository (local or GitHub)", undefined, {
    body: AddBody,
    responses: { 201: { description: "`{repository}`" } },
    errors: [409],
  }),
  repositoriesAdminRoute("patch", "/api/admin/repositories/:id", "Change a repository", "`{repository}`", {
    body: PatchBody,
    errors: [409],
  }),
  repositoriesAdminRoute(
    "post",
    "/api/admin/repositories/:id/sync",
    "Synchronise a repository now (a failed sync is 200 with `outcome.ok: false`)",
    "`{outcome, repository}`",
  ),
  repositoriesAdminRoute("delete", "/api/admin/repositories/:id", "Remove a repository", undefined, {
    responses: { 204: { description: "Removed." } },
  }),
  repositoriesAdminRoute(
    "post",
    "/api/admin/repository-categories",
    "Create a repository category",
    undefined,
    {
      body: CategoryBody,
      responses: { 201: { description: "`{category}`" } },
      errors: [409],
    },
  ),
  repositoriesAdminRoute(
    "patch",
    "/api/admin/repository-categories/:id",
    "Change a repository category",
    "`{category}`",
    {
      body: CategoryPatchBody,
      errors: [409],
    },
  ),
]);

export function registerAdminRepositoriesApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & {
    services: Pick<Runtime["services"], "repositories">;
  },
): void {
  const service = () => runtime.services.repositories;

  /** The actor from the session cookie; credentials other than the session are refused. */
  const actorOf = async (c: Context): Promise<Actor | Response> => {
    if (c.req.header("authorization") || c.req.header("x-api-key")) {
      return fail(
        c,
        403,
        "FORBIDDEN",
        "Repository administration takes a signed-in session; API keys and tokens are refused.",
      );
    }
    return runtime.identity.resolveSessionActor(c.req.raw.headers);
  };

  /** Refuses anyone but a platform admin before any input is read (401 visitor, 403 others). */
  const requireAdmin = (actor: Actor, c: Context): Response | null => {
    if (actor.kind !== "user") return fail(c, 401, "UNAUTHENTICATED", "Sign in first.");
    if (!actor.platformAdmin) {
      return fail(c, 403, "FORBIDDEN", "Only platform administrators may manage repositories.");
    }
    return null;
  };

  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, opts: { mutates?: boolean } = {}) =>
    handler(
      runtime,
      async (c) => {
        const actor = await actorOf(c);
        if (actor instanceof Response) return actor;
        const refused = requireAdmin(actor, c);
        if (refused) return refused;
        return fn(c, actor);
      },
      { ...opts, logMessage: "admin repositories request failed" },
    );

  /** A handler with a JSON object body parsed by `schema`. */
  const withBody = <S extends z.ZodType>(
    schema: S,
    fn: (c: Context, actor: Actor, body: z.output<S>) => Promise<Response>,
  ) =>
    handle(
      async (c, actor) => {
        const body = await readJsonObject(c, { limit: ADMIN_REPOSITORIES_BODY_LIMIT });
        const result = schema.safeParse(body);
        if (!result.success) throw invalid(result.error);
        return fn(c, actor, result.data);
      },
      { mutates: true },
    );

  async function allCategories(actor: Actor): Promise<RepositoryCategory[]> {
    const out: RepositoryCategory[] = [];
    let nextToken: string | null = null;
    do {
      const page = await service().listRepositoryCategories(actor, { limit: 100, nextToken });
      out.push(...page.items);
      nextToken = page.nextToken;
    } while (nextToken && out.length < 10_000);
    return out.sort(
      (a, b) => a.sortOrder - b.sortOrder || (a.name ?? a.slug).localeCompare(b.name ?? b.slug),
    );
  }

  async function allRepositories(actor: Actor): Promise<GitHubRepository[]> {
    const out: GitHubRepository[] = [];
    let nextToken: string | null = null;
    do {
      const page = await service().listGitHubRepositories(actor, { limit: 100, nextToken });
      out.push(...page.items);
      nextToken = page.nextToken;
    } while (nextToken && out.length < 10_000);
    return out.sort((a, b) => a.sortOrder - b.sortOrder || label(a).localeCompare(label(b)));
  }

  /** A category slug must name an existing category (null clears it). */
  async function checkCategory(actor: Actor, value: string | null | undefined): Promise<void> {
    if (value === undefined || value === null) return;
    const known = await allCategories(actor);
    if (known.some((k) => k.slug === value)) return;
    throw new BadInputError(`category: no category '${value}'`, {
      field: { category: `no category '${value}'` },
    });
  }

  app.get(
    "/api/admin/repositories",
    handle(async (c, actor) => {
      const [repositories, categories] = await Promise.all([allRepositories(actor), allCategories(actor)]);
      return c.json({ repositories: repositories.map(toAdmin), categories });
    }),
  );

  app.post(
    "/api/admin/repositories",
    withBody(AddBody, async (c, actor, body) => {
      await checkCategory(actor, body.category);
      // A new repository goes to the end of the list unless an order is given.
      const sortOrder =
        body.sortOrder ??
        Math.min(
          1_000_000,
          (await allRepositories(actor)).reduce((max, r) => Math.max(max, r.sortOrder), 0) + 10,
        );
      const repository = await service().addRepository(actor, defined({ ...body, sortOrder }));
      return c.json({ repository: toAdmin(repository) }, 201);
    }),
  );

  app.patch(
    "/api/admin/repositories/:id",
    withBody(PatchBody, async (c, actor, body) => {
      await checkCategory(actor, body.category);
      const { version: expected, ...patch } = body;
      const repository = await service().updateGitHubRepository(
        actor,
        c.req.param("id") ?? "",
        expected,
        defined(patch),
      );
      return c.json({ repository: toAdmin(repository) });
    }),
  );

  app.post(
    "/api/admin/repositories/:id/sync",
    handle(
      async (c, actor) => {
        const { outcome, repository } = await service().syncRepository(actor, c.req.param("id") ?? "");
        return c.json({ outcome, repository: toAdmin(repository) });
      },
      { mutates: true },
    ),
  );

  app.delete(
    "/api/admin/repositories/:id",
    handle(
      async (c, actor) => {
        await service().deleteGitHubRepository(actor, c.req.param("id") ?? "");
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );

  app.post(
    "/api/admin/repository-categories",
    withBody(CategoryBody, async (c, actor, body) => {
      const category = await service().createRepositoryCategory(actor, defined(body));
      return c.json({ category }, 201);
    }),
  );

  app.patch(
    "/api/admin/repository-categories/:id",
    withBody(CategoryPatchBody, async (c, actor, body) => {
      const { version: expected, ...patch } = body;
      const category = await service().updateRepositoryCategory(
        actor,
        c.req.param("id") ?? "",
        expected,
        defined(patch),
      );
      return c.json({ category });
    }),
  );
}
