/**
 * Search across one branch of a repository (issue 6, repository browser): a case-insensitive
 * substring search over the branch's text files, with line numbers. Built on the browser's public
 * reads (listRepositoryTree, readRepositoryFile), so it has their access rule, path checks and
 * caching. Bounded: folders, files, bytes and hits are capped and the result says when it stopped.
 */
import { BadInputError, NotFoundError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import type { FileView, TreeListing } from "./repository-browser.ts";

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_MAX_HITS = 100;
export const SEARCH_MAX_FILES = 400;
export const SEARCH_MAX_DIRS = 200;
/** Files above this are not searched (the same limit as highlighting). */
export const SEARCH_FILE_LIMIT_BYTES = 1024 * 1024;
const LINE_PREVIEW_CHARS = 240;

export interface RepositorySearchHit {
  path: string;
  /** 1-based. */
  line: number;
  /** The line, trimmed and cut to a preview length. */
  text: string;
}

export interface RepositorySearchResult {
  branch: string;
  query: string;
  hits: RepositorySearchHit[];
  filesSearched: number;
  /** A cap was reached: there may be more matches. */
  truncated: boolean;
  stale: boolean;
}

export interface RepositorySearchReads {
  listRepositoryTree(
    actor: Actor,
    slug: string,
    options?: { branch?: string; dir?: string },
  ): Promise<TreeListing>;
  readRepositoryFile(
    actor: Actor,
    slug: string,
    options: { branch?: string; path: string },
  ): Promise<FileView>;
}

export function createRepositorySearch(reads: RepositorySearchReads) {
  return {
    /** Lines containing `query` (case-insensitive) in the text files of a branch (default branch). */
    async searchRepository(
      actor: Actor,
      slug: string,
      options: { branch?: string; query: string },
    ): Promise<RepositorySearchResult> {
      const query = typeof options.query === "string" ? options.query.trim() : "";
      if (query.length === 0) throw new BadInputError("query: enter something to search for");
      if (query.length > SEARCH_QUERY_MAX) {
        throw new BadInputError(`query: at most ${SEARCH_QUERY_MAX} characters`);
      }
      const needle = query.toLowerCase();
      const root = await reads.listRepositoryTree(actor, slug, { branch: options.branch });
      const branch = root.branch;
      let stale = root.stale;
      const hits: RepositorySearchHit[] = [];
      let filesSearched = 0;
      let truncated = false;
      const dirs: TreeListing[] = [root];
      let dirsRead = 1;

      search: while (dirs.length > 0) {
        const listing = dirs.shift()!;
        for (const entry of listing.entries) {
          if (entry.type === "dir") {
            if (dirsRead >= SEARCH_MAX_DIRS) {
              truncated = true;
              continue;
            }
            dirsRead += 1;
            const sub = await reads.listRepositoryTree(actor, slug, { branch, dir: entry.path });
            stale ||= sub.stale;
            dirs.push(sub);
            continue;
          }
          if (entry.size !== null && entry.size > SEARCH_FILE_LIMIT_BYTES) continue;
          if (filesSearched >= SEARCH_MAX_FILES) {
            truncated = true;
            break search;
          }
          let file: FileView;
          try {
            file = await reads.readRepositoryFile(actor, slug, { branch, path: entry.path });
          } catch (error) {
            if (error instanceof NotFoundError) continue; // e.g. a symlink that leads nowhere
            throw error;
          }
          filesSearched += 1;
          stale ||= file.stale;
          if (file.text === null || file.size > SEARCH_FILE_LIMIT_BYTES) continue;
          if (!file.text.toLowerCase().includes(needle)) continue;
          const lines = file.text.split(/\r?\n/);
          for (let i = 0; i < lines.length; i += 1) {
            const line = lines[i]!;
            if (!line.toLowerCase().includes(needle)) continue;
            if (hits.length >= SEARCH_MAX_HITS) {
              truncated = true;
              break search;
            }
            hits.push({ path: entry.path, line: i + 1, text: line.trim().slice(0, LINE_PREVIEW_CHARS) });
          }
        }
      }
      return { branch, query, hits, filesSearched, truncated, stale };
    },
  };
}
