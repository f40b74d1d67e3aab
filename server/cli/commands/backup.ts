/** `backup [folder]`: the consistent backup of `npm run backup` (server/backup/backup.ts, decision 031). */
import path from "node:path";
import { createBackup } from "../../backup/backup.ts";
import type { CliCommand } from "../command.ts";
import { noMorePositionals } from "../operator.ts";

export const backupCommand: CliCommand = {
  name: "backup",
  summary: "Back up the database, stored objects and data folder into a new folder",
  usage: `Usage: npm run hub -- backup [folder]

  The same backup as \`npm run backup\`: database, object store and DATA_DIR's secrets and
  repositories, taken while the hub keeps running, into a new (or empty) folder; default
  ./backups/lumen-hub-<UTC time>. \`npm run restore -- <folder>\` puts one back.`,
  async run(ctx, args) {
    noMorePositionals(args, 1);
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    const out = path.resolve(args.positional[0] ?? path.join("backups", `lumen-hub-${stamp}`));
    // The environment as the runtime read it (DATA_DIR, DATABASE_URL, STORAGE_URL).
    const { env } = await ctx.runtime();
    const manifest = await createBackup(env, out, {
      progress: (step, done, total) => ctx.progress(step, done ?? 0, total ?? null),
    });
    ctx.out(`Backup written to ${out}`);
    ctx.out(
      `  database: ${manifest.database.dialect}, ${manifest.database.bytes} bytes, latest migration ${manifest.database.latestMigration}`,
    );
    ctx.out(`  objects: ${manifest.objects.count} (${manifest.objects.bytes} bytes)`);
    ctx.out(
      `  files of DATA_DIR: ${manifest.dataFiles.length}${manifest.secretIncluded ? " (including the generated auth secret: keep this folder private)" : ""}`,
    );
    if (manifest.missingObjects.length > 0) {
      ctx.out(
        `  warning: ${manifest.missingObjects.length} object(s) the database names were deleted during the backup`,
      );
    }
    return { folder: out, ...manifest };
  },
};
