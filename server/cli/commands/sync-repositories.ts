/** `sync-repositories [--id ID]`: the repository sync the administrators' screen runs. */
import { type CliCommand, CliNotFoundError } from "../command.ts";
import { noMorePositionals, operator } from "../operator.ts";

class SyncFailedError extends Error {
  override name = "SyncFailedError";
}

export const syncRepositoriesCommand: CliCommand = {
  name: "sync-repositories",
  summary: "Sync the repositories (every enabled one, or one by --id)",
  usage: `Usage: npm run hub -- sync-repositories [--id ID]

  Reads each repository's source again (GitHub or a local folder) and stores files, branches,
  issues and workflows, as "Sync now" on /super-admin/repositories does. Exit 1 when a sync fails
  (the others still run).

  --id ID   only this repository (its id or slug), enabled or not`,
  valueOptions: ["id"],
  async run(ctx, args) {
    noMorePositionals(args, 0);
    const runtime = await ctx.runtime();
    const db = runtime.database.db;
    const rows = await db
      .selectFrom("github_repository")
      .select(["id", "slug", "isEnabled"])
      .orderBy("sortOrder")
      .orderBy("slug")
      .execute();
    const wanted = typeof args.flags.id === "string" ? args.flags.id : null;
    const targets = wanted
      ? rows.filter((r) => r.id === wanted || r.slug === wanted)
      : rows.filter((r) => Boolean(r.isEnabled));
    if (wanted && targets.length === 0) throw new CliNotFoundError(`There is no repository ${wanted}.`);
    const actor = operator(runtime);
    const results: Array<{ id: string; slug: string; ok: boolean; error?: string; files?: number }> = [];
    for (const [i, row] of targets.entries()) {
      ctx.progress("Syncing repositories", i, targets.length);
      const { outcome } = await runtime.services.repositories.syncRepository(actor, row.id);
      if (outcome.ok) {
        results.push({ id: row.id, slug: row.slug, ok: true, files: outcome.files });
        ctx.out(`${row.slug}: synced (${outcome.files} files, ${outcome.branches} branches)`);
      } else {
        results.push({ id: row.id, slug: row.slug, ok: false, error: outcome.error });
        ctx.out(`${row.slug}: failed: ${outcome.error}`);
      }
    }
    ctx.progress("Syncing repositories", targets.length, targets.length);
    const failed = results.filter((r) => !r.ok);
    if (targets.length === 0) ctx.out("No enabled repository to sync.");
    if (failed.length) {
      throw new SyncFailedError(
        `${failed.length} of ${results.length} repositories failed: ${failed.map((f) => `${f.slug} (${f.error})`).join("; ")}`,
      );
    }
    return { synced: results.length, repositories: results };
  },
};
