/**
 * The GitHub client's kept answers in the database (`github_response`, migration 041, decision
 * 028): an ETag with the response it validates, by request URL, so every process and a restarted
 * one send `If-None-Match` and get 304s (free of GitHub's rate limit) instead of full answers.
 *
 * Bounded: after every PRUNE_EVERY writes of a process, rows beyond the newest MAX_ROWS (by last
 * write) are deleted. The bodies are what GitHub answered, kept beside the synced tables.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { GitHubResponseStore } from "./sources/github-client.ts";

export const MAX_ROWS = 2_000;
const PRUNE_EVERY = 100;

export function createGitHubResponseStore(
  db: Kysely<DB>,
  options: { now?: () => number; maxRows?: number } = {},
): GitHubResponseStore & { prune(): Promise<void> } {
  const now = options.now ?? Date.now;
  const maxRows = options.maxRows ?? MAX_ROWS;
  let writes = 0;

  async function prune(): Promise<void> {
    const edge = await db
      .selectFrom("github_response")
      .select("usedEpoch")
      .orderBy("usedEpoch", "desc")
      .offset(maxRows)
      .limit(1)
      .executeTakeFirst();
    if (edge) await db.deleteFrom("github_response").where("usedEpoch", "<=", edge.usedEpoch).execute();
  }

  return {
    prune,
    async read(key) {
      const row = await db
        .selectFrom("github_response")
        .select(["etag", "body"])
        .where("key", "=", key)
        .executeTakeFirst();
      if (!row) return null;
      const parsed = JSON.parse(row.body) as { text: string; next: string | null };
      return { etag: row.etag, text: parsed.text, next: parsed.next ?? null };
    },
    async write(key, response) {
      const body = JSON.stringify({ text: response.text, next: response.next });
      const values = { etag: response.etag, body, bytes: body.length, usedEpoch: now() };
      await db
        .insertInto("github_response")
        .values({ key, ...values })
        .onConflict((oc) => oc.column("key").doUpdateSet(values))
        .execute();
      writes += 1;
      if (writes % PRUNE_EVERY === 0) await prune();
    },
  };
}
