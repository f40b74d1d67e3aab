/**
 * Backups, restores and the migration rehearsal (decision 031), per database: a backup taken
 * while the hub keeps writing restores into an empty hub that serves the same content and signs
 * the same people in (a staff account's encrypted TOTP secret included); a damaged backup and a
 * non-empty or running target change nothing; the rehearsal migrates a copy and leaves none behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackupError, createBackup, restoreBackup, verifyBackup } from "../../server/backup/backup.ts";
import { rehearseMigrations } from "../../server/backup/rehearse.ts";
import { createDatabase } from "../../server/db/database.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { type Env, parseEnv } from "../../server/env.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { type RunningServer, startServer } from "../../server/server.ts";
import { signInThroughSecondFactor } from "../helpers/second-factor.ts";
import {
  createTestPostgresDatabase,
  DIALECTS,
  signIn,
  startTestServer,
  type TestServer,
} from "../helpers/test-server.ts";

const PRO = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired)!;

describe.each(DIALECTS)("backup and restore (%s)", (dialect) => {
  let server: TestServer;
  const cleanups: Array<() => Promise<void> | void> = [];
  const temp = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  /** An empty hub's settings: its own DATA_DIR and, on PostgreSQL, its own empty database. */
  const emptyHub = async (): Promise<Env> => {
    const dataDir = temp("lumen-restore-");
    let url = "";
    if (dialect === "postgres") {
      const database = await createTestPostgresDatabase();
      cleanups.push(() => database.drop());
      url = database.url;
    }
    return parseEnv({
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      LOG_LEVEL: "silent",
      SEED_DEMO: "0",
    });
  };
  const tableCount = async (env: Env) => {
    const database = createDatabase(env.DATABASE_URL || path.join(env.DATA_DIR, "app.db"));
    try {
      const tables =
        dialect === "postgres"
          ? await database.db
              .selectFrom("information_schema.tables" as never)
              .select("table_name" as never)
              .where("table_schema" as never, "=", "public" as never)
              .execute()
          : await database.db
              .selectFrom("sqlite_master" as never)
              .select("name" as never)
              .where("type" as never, "=", "table" as never)
              .execute();
      return tables.length;
    } finally {
      await database.close();
    }
  };

  let backupDir = "";
  let restoredEnv: Env;
  let restored: RunningServer | null = null;
  const before = `Backed up ${Date.now()}`;
  const after = `Written after the backup ${Date.now()}`;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await restored?.close();
    await server?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("backs up a running hub while it writes, and the copy names every object it needs", async () => {
    const repo = createContentRepo(server.runtime.database.db);
    const item = (await repo.getByIdOrSlug(PRO.slug))!;
    await repo.update(item.id, item.version, { title: before });
    const extra = await server.runtime.storage.put("media/backup-test.txt", "kept by the backup", {
      contentType: "text/plain",
      metadata: { purpose: "test" },
    });
    expect(extra.size).toBeGreaterThan(0);

    backupDir = path.join(temp("lumen-backup-"), "backup");
    // Writers keep going during the backup (page views are counted in the database).
    let writing = true;
    const writes = (async () => {
      let n = 0;
      while (writing) {
        await fetch(`${server.url}/api/content/${PRO.slug}/view`, { method: "POST" }).catch(() => {});
        n++;
      }
      return n;
    })();
    const manifest = await createBackup(server.runtime.env, backupDir);
    writing = false;
    expect(await writes).toBeGreaterThan(0);

    expect(manifest.database.dialect).toBe(dialect);
    expect(manifest.database.latestMigration).toMatch(/^\d{3}-/);
    expect(manifest.objects.count).toBeGreaterThan(10);
    expect(manifest.missingObjects).toEqual([]);
    expect(manifest.secretIncluded).toBe(true);
    expect(manifest.dataFiles.some((f) => f.path === path.join("secrets", "auth-secret"))).toBe(true);
    // Private: the folder and every file are the owner's only.
    expect(statSync(backupDir).mode & 0o077).toBe(0);
    expect(statSync(path.join(backupDir, manifest.database.file)).mode & 0o077).toBe(0);
    // Keys never become paths inside the backup.
    expect(readdirSync(path.join(backupDir, "objects")).every((f) => /^[0-9a-f]{64}$/.test(f))).toBe(true);
    await expect(verifyBackup(backupDir)).resolves.toBeTruthy();
    await expect(createBackup(server.runtime.env, backupDir)).rejects.toThrow(/not empty/);

    const now = (await repo.getByIdOrSlug(PRO.slug))!;
    await repo.update(now.id, now.version, { title: after });
  }, 120_000);

  it("refuses a running hub's database, and a damaged backup changes nothing", async () => {
    await expect(restoreBackup(server.runtime.env, backupDir, { force: true })).rejects.toThrow(
      /process\(es\) of the hub are running/,
    );

    const damaged = path.join(temp("lumen-damaged-"), "copy");
    const { cpSync } = await import("node:fs");
    cpSync(backupDir, damaged, { recursive: true });
    const objects = JSON.parse(readFileSync(path.join(damaged, "objects.json"), "utf8")) as Array<{
      file: string;
    }>;
    writeFileSync(path.join(damaged, "objects", objects[0]!.file), "tampered");
    const target = await emptyHub();
    await expect(restoreBackup(target, damaged)).rejects.toThrow(BackupError);
    await expect(restoreBackup(target, damaged)).rejects.toThrow(/missing or damaged/);
    expect(await tableCount(target)).toBe(0);
    await expect(restoreBackup(target, path.join(damaged, "no-such-folder"))).rejects.toThrow(
      /no readable manifest/,
    );
  });

  it("restores into an empty hub that serves the backed-up content and signs the same people in", async () => {
    restoredEnv = await emptyHub();
    const report = await restoreBackup(restoredEnv, backupDir);
    expect(report.objects).toBeGreaterThan(10);
    await expect(restoreBackup(restoredEnv, backupDir)).rejects.toThrow(/not empty/);

    restored = await startServer(restoredEnv);
    const cookie = await signIn(restored.url, "pro@demo.local", DEMO_PASSWORD);
    const page = await fetch(`${restored.url}/api/content/${PRO.slug}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const item = (await page.json()) as { title: string; presignedUrl?: string };
    expect(item.title).toBe(before);
    expect(item.title).not.toBe(after);
    // The body object came back, and the link signed with the restored secret opens it.
    const body = await fetch(new URL(item.presignedUrl!, restored.url));
    expect(body.status).toBe(200);
    expect((await body.text()).length).toBeGreaterThan(50);
    const extra = await restored.runtime.storage.get("media/backup-test.txt");
    expect(new TextDecoder().decode(extra?.body)).toBe("kept by the backup");
    expect(extra?.properties.contentType).toBe("text/plain");
    // A staff account's TOTP secret is stored encrypted with the auth secret: it still verifies.
    const staff = await signInThroughSecondFactor(restored.url, "admin@demo.local", DEMO_PASSWORD);
    expect(staff.status).toBe(200);
  }, 120_000);

  it("rehearses this release's migrations on a copy and leaves no copy behind", async () => {
    const databasesBefore = dialect === "postgres" ? await rehearsalDatabases() : [];
    const report = await rehearseMigrations(server.runtime.env);
    expect(report.dialect).toBe(dialect);
    expect(report.integrity).toBe("ok");
    expect(report.pending).toEqual([]);
    expect(report.latestMigration).toMatch(/^\d{3}-/);
    expect(report.rows.user?.before).toBeGreaterThan(5);
    expect(report.rows.user?.after).toBe(report.rows.user?.before);
    expect(report.rows.content?.after).toBe(report.rows.content?.before);
    if (dialect === "postgres") expect(await rehearsalDatabases()).toEqual(databasesBefore);
  }, 120_000);
});

async function rehearsalDatabases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where datname like 'lumen_rehearsal_%' order by 1",
    );
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}
