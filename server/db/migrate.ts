/**
 * Applies the app's migrations (Kysely `Migrator`, static provider). PostgreSQL takes an advisory
 * lock, so replicas starting together migrate once; SQLite runs them in one `begin immediate`
 * transaction. Better Auth's own additive migrations (plugins) run after these. At start-up the
 * runtime calls this under the start-up lock (`start-up-lock.ts`), which also covers Better Auth's
 * migrations and the demo seed.
 */
import { type Kysely, type MigrationResult, Migrator } from "kysely";
import { migrations } from "./migrations/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: accepts the app's Kysely<DB> or an untyped one
type AnyKysely = Kysely<any>;

function createMigrator(db: AnyKysely): Migrator {
  return new Migrator({
    db,
    provider: {
      async getMigrations() {
        return migrations;
      },
    },
  });
}

/** Brings the schema up to date. Running it again is a no-op. Throws with the failing migration's name. */
export async function migrateToLatest(db: AnyKysely): Promise<MigrationResult[]> {
  const { error, results } = await createMigrator(db).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === "Error");
    const reason = error instanceof Error ? error.message : String(error);
    const where = failed ? ` in migration "${failed.migrationName}"` : "";
    throw new Error(`Database migration failed${where}: ${reason}`, { cause: error });
  }
  return results ?? [];
}

export interface MigrationStatus {
  name: string;
  executedAt: string | null;
}

/** Every known migration and when it was applied (null if pending). */
export async function migrationStatus(db: AnyKysely): Promise<MigrationStatus[]> {
  const infos = await createMigrator(db).getMigrations();
  return infos.map((m) => ({ name: m.name, executedAt: m.executedAt ? m.executedAt.toISOString() : null }));
}
