/**
 * `npm run restore -- <folder> [--force] [--json]`: restores a backup made by `npm run backup`
 * into the hub the environment names (decision 031). The backup is verified first; an existing
 * database or object store is replaced only with `--force`, and never while a process of the hub
 * runs on that database. Exit codes: 0 done, 1 failed, 2 wrong arguments.
 */
import path from "node:path";
import { BackupError, restoreBackup } from "../server/backup/backup.ts";
import { cliArgs, fail, progressLine } from "../server/backup/cli.ts";
import { loadEnv } from "../server/env.ts";

const usage = "npm run restore -- <backup folder> [--force] [--json]";
const { positional, flags } = cliArgs(process.argv.slice(2), ["force", "json"], usage);
if (positional.length !== 1) {
  process.stderr.write(`Give the backup folder to restore.\nUsage: ${usage}\n`);
  process.exit(2);
}
try {
  const from = path.resolve(positional[0]!);
  const report = await restoreBackup(loadEnv(), from, {
    force: flags.force,
    progress: flags.json ? undefined : progressLine,
  });
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    process.stdout.write(
      `Restored ${from}: the ${report.dialect} database, ${report.objects} objects and ${report.dataFiles} files of DATA_DIR.${report.strayObjects ? ` ${report.strayObjects} object(s) already in the store are not in the backup and were left in place.` : ""}\nStart the hub as usual; it applies any newer migrations itself.\n`,
    );
  }
} catch (error) {
  fail(error, BackupError);
}
