/**
 * Repository sources: which source reads a github_repository row.
 */

import type { CacheStats } from "../../../bounded-cache.ts";
import { BadInputError } from "../../../errors.ts";
import { createGitHubClient, type GitHubClient, type GitHubClientOptions } from "./github-client.ts";
import { createGitHubSource } from "./github-source.ts";
import { createLocalSource } from "./local-source.ts";
import type { RepositorySource, SourceKind } from "./types.ts";

export * from "./errors.ts";
export * from "./file-types.ts";
export { createGitHubClient, type GitHubClient } from "./github-client.ts";
export { checkGitHubName, createGitHubSource } from "./github-source.ts";
export { createLocalSource } from "./local-source.ts";
export * from "./paths.ts";
export * from "./types.ts";

/** The fields of a github_repository row a source is chosen by. */
export interface SourceRow {
  sourceType: SourceKind;
  localPath: string | null;
  owner: string | null;
  name: string | null;
}

export interface RepositorySources {
  forRepository(row: SourceRow): RepositorySource;
  /** The GitHub client's kept responses (/super-admin/infrastructure), when it reports them. */
  githubCacheStats?(): CacheStats | null;
}

export interface RepositorySourcesOptions {
  /** Local repositories live under this folder (DATA_DIR/repositories). */
  localRoot: string;
  github?: GitHubClientOptions | GitHubClient;
}

export function createRepositorySources(options: RepositorySourcesOptions): RepositorySources {
  const github =
    options.github && "get" in options.github ? options.github : createGitHubClient(options.github ?? {});
  // One source per repository, so isomorphic-git's pack cache and sizes are reused between requests.
  const made = new Map<string, RepositorySource>();
  function remember(key: string, make: () => RepositorySource): RepositorySource {
    let source = made.get(key);
    if (!source) {
      if (made.size >= 200) made.delete(made.keys().next().value as string);
      source = make();
      made.set(key, source);
    }
    return source;
  }
  return {
    githubCacheStats: () => github.cacheStats?.() ?? null,
    forRepository(row) {
      if (row.sourceType === "local") {
        const localPath = row.localPath;
        if (!localPath) throw new BadInputError("local repository has no path");
        return remember(`local\0${localPath}`, () =>
          createLocalSource({ root: options.localRoot, path: localPath }),
        );
      }
      const { owner, name } = row;
      if (!owner || !name) throw new BadInputError("GitHub repository has no owner/name");
      return remember(`github\0${owner}/${name}`, () => createGitHubSource({ client: github, owner, name }));
    },
  };
}
