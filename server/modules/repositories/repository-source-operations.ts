/**
 * The repository-source operations of the repositories service (issue 6): adding a local or GitHub
 * repository and syncing it (platform admins), and the browsing reads (repository-browser.ts).
 * Without configured sources (a service built for the data API alone) the writes refuse with
 * BAD_USER_INPUT and the reads see no repository content.
 */

import type { Kysely } from "kysely";
import { z } from "zod";
import type { DB } from "../../db/schema.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import { type Actor, requirePlatformAdmin } from "../actor.ts";
import { parseInput, requireId } from "../data-service.ts";
import { createRepositoriesRepo, type GitHubRepository } from "./repositories.repo.ts";
import { createRepositoryBrowser } from "./repository-browser.ts";
import type { RepositorySync, SyncOutcome } from "./repository-sync.ts";
import { checkGitHubName, type RepositorySources, safeDirectory } from "./sources/index.ts";

const slug = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and hyphens");
const common = {
  slug: slug.optional(),
  displayName: z.string().max(200).nullable().optional(),
  description: z.string().max(2000).nullable().optional(),
  category: z.string().max(100).nullable().optional(),
  tags: z.array(z.string().min(1).max(50)).max(50).optional(),
  language: z.string().max(100).nullable().optional(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  isEnabled: z.boolean().optional(),
};
export const addRepositoryInput = z.discriminatedUnion("source", [
  z.strictObject({ source: z.literal("local"), localPath: z.string().min(1).max(300), ...common }),
  z.strictObject({
    source: z.literal("github"),
    owner: z.string().min(1).max(39),
    name: z.string().min(1).max(100),
    ...common,
  }),
]);
export type AddRepositoryInput = z.input<typeof addRepositoryInput>;

export interface RepositorySourceDeps {
  db: Kysely<DB>;
  sources?: RepositorySources;
  sync?: RepositorySync;
  now?: () => number;
}

export function createRepositorySourceOperations(deps: RepositorySourceDeps) {
  const repo = createRepositoriesRepo(deps.db);
  const sources: RepositorySources = deps.sources ?? {
    forRepository() {
      throw new BadInputError("repository sources are not configured");
    },
  };
  const browser = createRepositoryBrowser({ db: deps.db, sources, now: deps.now });

  return {
    ...browser,

    /**
     * Registers a repository (platform admins): a local git folder under DATA_DIR/repositories or a
     * public GitHub repository by owner/name. It is not read until `syncRepository`.
     */
    async addRepository(actor: Actor, input: unknown): Promise<GitHubRepository> {
      requirePlatformAdmin(actor);
      const data = parseInput(addRepositoryInput, input);
      const { source, slug: givenSlug, ...rest } = data;
      if (source === "local") {
        const { localPath, ...fields } = rest as typeof rest & { localPath: string };
        let path: string;
        try {
          path = safeDirectory(localPath);
        } catch (error) {
          if (!(error instanceof BadInputError)) throw error;
          throw new BadInputError("localPath: must be a folder inside the repositories folder", {
            field: { localPath: "must be a folder inside the repositories folder" },
          });
        }
        if (path === "") {
          throw new BadInputError("localPath: a folder under the repository root", {
            field: { localPath: "a folder under the repository root" },
          });
        }
        const slugValue =
          givenSlug ??
          path
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, "-")
            .replace(/^-+|-+$/g, "");
        if (!slugValue) throw new BadInputError("slug: required", { field: { slug: "required" } });
        return repo.createRepository({
          ...fields,
          slug: slugValue,
          sourceType: "local",
          localPath: path,
          name: path.slice(path.lastIndexOf("/") + 1),
        });
      }
      const { owner, name, ...fields } = rest as typeof rest & { owner: string; name: string };
      checkGitHubName(owner, name);
      const slugValue = givenSlug ?? `${owner}-${name}`.toLowerCase().replace(/[^a-z0-9]+/g, "-");
      return repo.createRepository({
        ...fields,
        slug: slugValue.replace(/^-+|-+$/g, ""),
        sourceType: "github",
        owner,
        name,
        fullName: `${owner}/${name}`,
        htmlUrl: `https://github.com/${owner}/${name}`,
      });
    },

    /**
     * Syncs one repository now (platform admins). A failed sync is not an error of the call: the
     * outcome names the reason, the repository row carries it in `lastSyncError`, and the cached
     * data stay as they were.
     */
    async syncRepository(
      actor: Actor,
      id: string,
    ): Promise<{ outcome: SyncOutcome; repository: GitHubRepository }> {
      requirePlatformAdmin(actor);
      if (!deps.sync) throw new BadInputError("repository sources are not configured");
      const row = await repo.getRepository(requireId(id));
      if (!row) throw new NotFoundError("repository", id);
      const outcome = await deps.sync.syncRepository(row);
      const repository = await repo.getRepository(row.id);
      if (!repository) throw new NotFoundError("repository", id);
      return { outcome, repository };
    },
  };
}
