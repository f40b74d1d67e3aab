import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Logger } from "pino";
import { testDialects } from "../../server/db/test-database.ts";
import { parseEnv } from "../../server/env.ts";
import { type RunningServer, startServer } from "../../server/server.ts";
import { sessionCookieOf, signInThroughSecondFactor } from "./second-factor.ts";

export type DialectName = "sqlite" | "postgres";

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (narrowed by TEST_DIALECTS). */
export const DIALECTS: DialectName[] = testDialects();

export interface TestServer extends RunningServer {
  dialect: DialectName;
  dataDir: string;
  /** The PostgreSQL database URL ("" for SQLite, whose file is in `dataDir`). */
  databaseUrl: string;
}

/** A fresh PostgreSQL database on the TEST_DATABASE_URL server; returns its URL and a drop function. */
export async function createTestPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `lumen_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The production build served on a random port with a fresh data folder and database, demo data
 * seeded. `shareWith`: a second app process on the same database and data folder (several
 * processes behind one load balancer); closing it leaves both to the first server.
 */
export async function startTestServer(
  dialect: DialectName,
  extraEnv: Record<string, string> = {},
  options: { now?: () => number; logger?: Logger; shareWith?: TestServer } = {},
): Promise<TestServer> {
  const shared = options.shareWith;
  const dataDir = shared?.dataDir ?? mkdtempSync(path.join(tmpdir(), "lumen-int-"));
  const database = shared ? null : dialect === "postgres" ? await createTestPostgresDatabase() : null;
  const databaseUrl = shared?.databaseUrl ?? database?.url ?? "";
  const env = parseEnv({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "silent",
    SEED_DEMO: "1",
    ...extraEnv,
  });
  const running = await startServer(env, { now: options.now, logger: options.logger });
  return {
    ...running,
    dialect,
    dataDir,
    databaseUrl,
    close: async () => {
      await running.close();
      if (shared) return;
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Sign in through the real auth endpoint; returns the Cookie header to send. Demo staff accounts
 * answer the second factor with their published TOTP secret (tests/helpers/second-factor.ts).
 */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await signInThroughSecondFactor(baseUrl, email, password);
  if (!res.ok) throw new Error(`sign-in failed for ${email}: ${res.status} ${await res.text()}`);
  const cookies = sessionCookieOf(res);
  if (!cookies.includes("session_token=")) throw new Error(`sign-in for ${email} set no session cookie`);
  return cookies;
}
