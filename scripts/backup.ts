/**
 * `npm run backup -- [folder] [--json]`: a consistent backup of the hub the environment names
 * (database, object store, DATA_DIR's secrets and repositories) into a new folder, default
 * `./backups/lumen-hub-<UTC time>`, while the hub keeps running (decision 031).
 * `npm run restore -- <folder> [--force] [--json]` puts one back; `npm run db:rehearse` runs this
 * release's migrations on a copy first. Exit codes: 0 done, 1 failed, 2 wrong arguments.
 */
import path from "node:path";
import { BackupError, createBackup } from "../server/backup/backup.ts";
import { cliArgs, fail, progressLine } from "../server/backup/cli.ts";
import { loadEnv } from "../server/env.ts";

const { positional, flags } = cliArgs(process.argv.slice(2), ["json"], "npm run backup -- [folder] [--json]");
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
const out = path.resolve(positional[0] ?? path.join("backups", `lumen-hub-${stamp}`));
try {
  const manifest = await createBackup(loadEnv(), out, { progress: flags.json ? undefined : progressLine });
  if (flags.json) process.stdout.write(`${JSON.stringify({ folder: out, ...manifest }, null, 2)}\n`);
  else {
    process.stdout.write(
      `Backup written to ${out}\n  database: ${manifest.database.dialect}, ${manifest.database.bytes} bytes, latest migration ${manifest.database.latestMigration}\n  objects: ${manifest.objects.count} (${manifest.objects.bytes} bytes)\n  files of DATA_DIR: ${manifest.dataFiles.length}${manifest.secretIncluded ? " (including the generated auth secret: keep this folder private)" : ""}\n`,
    );
    if (manifest.missingObjects.length > 0) {
      process.stdout.write(
        `  warning: ${manifest.missingObjects.length} object(s) the database names were deleted during the backup: ${manifest.missingObjects.slice(0, 5).join(", ")}\n`,
      );
    }
  }
} catch (error) {
  fail(error, BackupError);
}
