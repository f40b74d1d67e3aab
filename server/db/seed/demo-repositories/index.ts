/**
 * Demo repositories for the repository browser: generated as git repositories under
 * DATA_DIR/repositories/<slug> (generate.ts, skipped when already there), registered as local
 * github_repository rows with their categories, and synced. Idempotent: an existing row (by slug)
 * or category is kept as it is, so a second run changes nothing.
 */
import path from "node:path";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { createRepositoriesRepo } from "../../../modules/repositories/repositories.repo.ts";
import { createRepositorySync } from "../../../modules/repositories/repository-sync.ts";
import { createRepositorySources } from "../../../modules/repositories/sources/index.ts";
import type { DB } from "../../schema.ts";
import { DEMO_REPOSITORIES, DEMO_REPOSITORY_CATEGORIES } from "./catalog.ts";
import { generateDemoRepositories } from "./generate.ts";

export { DEMO_REPOSITORIES, DEMO_REPOSITORY_CATEGORIES } from "./catalog.ts";
export { generateDemoRepositories } from "./generate.ts";

export interface SeedDemoRepositoriesDeps {
  db: Kysely<DB>;
  dataDir: string;
  /** The folder local repositories live in (REPOSITORIES_DIR; default DATA_DIR/repositories). */
  repositoriesDir?: string;
  logger?: Logger;
}

/** The folder local repositories live in. */
export function repositoriesRoot(dataDir: string): string {
  return path.join(dataDir, "repositories");
}

export async function seedDemoRepositories(
  deps: SeedDemoRepositoriesDeps,
): Promise<{ generated: number; categories: number; repositories: number }> {
  const root = deps.repositoriesDir ?? repositoriesRoot(deps.dataDir);
  const { generated } = await generateDemoRepositories(root);
  const repo = createRepositoriesRepo(deps.db);

  let categories = 0;
  for (const c of DEMO_REPOSITORY_CATEGORIES) {
    if (await repo.getCategoryBySlug(c.slug)) continue;
    await repo.createCategory({ ...c, isVisible: true });
    categories++;
  }

  const sync = createRepositorySync({
    db: deps.db,
    sources: createRepositorySources({ localRoot: root }),
    logger: deps.logger,
  });
  let repositories = 0;
  for (const r of DEMO_REPOSITORIES) {
    if (await repo.getRepositoryBySlug(r.slug)) continue;
    const row = await repo.createRepository({
      slug: r.slug,
      name: r.slug,
      displayName: r.displayName,
      description: r.description,
      language: r.language,
      category: r.category,
      tags: r.tags,
      sortOrder: r.sortOrder,
      sourceType: "local",
      localPath: r.slug,
      defaultBranch: r.branches[0]?.name ?? null,
      createdAt: r.branches[0]?.commits[0]?.date ?? "2026-01-01T00:00:00Z",
    });
    await sync.syncRepository(row);
    repositories++;
  }
  return { generated: generated.length, categories, repositories };
}
