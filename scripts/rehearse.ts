/**
 * `npm run db:rehearse -- [backup folder] [--keep] [--json]`: runs this release's migrations on a
 * copy of the hub (restored from the given backup, or from a fresh one) in a scratch database,
 * checks it and drops it (decision 031). Exit codes: 0 the migrations ran and the copy checks out,
 * 1 they failed or the check found a problem, 2 wrong arguments.
 */
import path from "node:path";
import { BackupError } from "../server/backup/backup.ts";
import { cliArgs, fail, progressLine } from "../server/backup/cli.ts";
import { rehearseMigrations } from "../server/backup/rehearse.ts";
import { loadEnv } from "../server/env.ts";

const usage = "npm run db:rehearse -- [backup folder] [--keep] [--json]";
const { positional, flags } = cliArgs(process.argv.slice(2), ["keep", "json"], usage);
try {
  const report = await rehearseMigrations(loadEnv(), {
    from: positional[0] ? path.resolve(positional[0]) : undefined,
    keep: flags.keep,
    progress: flags.json ? undefined : progressLine,
  });
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const rows = Object.entries(report.rows)
      .map(([t, r]) => `${t} ${r.before ?? "–"} → ${r.after ?? "–"}`)
      .join(", ");
    process.stdout.write(
      `Rehearsal on a copy (${report.dialect}): ${report.pending.length ? `${report.pending.length} pending migration(s) (${report.pending.join(", ")})` : "no pending migration"}, applied in ${report.migrateMs} ms; now at ${report.latestMigration}.\n  integrity: ${report.integrity}\n  rows: ${rows}\n`,
    );
  }
  if (report.integrity !== "ok") process.exit(1);
} catch (error) {
  fail(error, BackupError);
}
