/**
 * The operator's command line (`npm run hub`, decision 035), per database, on a demo hub of its
 * own: each command's work, its `--json` answer and its exit codes (2 wrong usage, 3 unknown
 * user, 1 refused), the audit entries as the system with `via: "cli"`, and the exporters (every
 * item, gated bodies included, front matter the Markdown importer reads; the JSON document).
 * Most runs go through the runner in-process; the `--password-stdin` runs and the script's own
 * behaviour run `scripts/hub.ts` as a child process.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPasswordProblem } from "../../server/auth/password-policy.ts";
import { accountKey } from "../../server/auth/throttle.ts";
import { COMMANDS } from "../../server/cli/commands/index.ts";
import { runCli } from "../../server/cli/run.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { type Env, parseEnv } from "../../server/env.ts";
import { ownBodyKey } from "../../server/modules/content/body-key.ts";
import { createRuntime, type Runtime } from "../../server/runtime.ts";
import { createTestPostgresDatabase, DIALECTS } from "../helpers/test-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const STRONG = "Operat0r-Keeps-Watch!";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Reads the YAML front matter the exporter writes: `key: value` lines and `- item` lists. */
function parseFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n?/.exec(text);
  if (!match) throw new Error("no front matter");
  const data: Record<string, unknown> = {};
  let list: unknown[] | null = null;
  for (const line of match[1]!.split("\n")) {
    const item = /^ {2}- (.*)$/.exec(line);
    if (item) {
      if (!list) throw new Error(`list item outside a list: ${line}`);
      list.push(JSON.parse(item[1]!));
      continue;
    }
    const pair = /^([A-Za-z]+):(?: (.*))?$/.exec(line);
    if (!pair) throw new Error(`not a front matter line: ${line}`);
    if (pair[2] === undefined) {
      list = [];
      data[pair[1]!] = list;
    } else {
      list = null;
      data[pair[1]!] = JSON.parse(pair[2]);
    }
  }
  return { data, body: text.slice(match[0].length) };
}

describe.each(DIALECTS)("the hub command line (%s)", (dialect) => {
  let env: Env;
  let envVars: Record<string, string>;
  let inspect: Runtime;
  const cleanups: Array<() => Promise<void> | void> = [];
  const temp = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  /** The runner in-process, on this hub's environment. */
  async function hub(...argv: string[]): Promise<Ran> {
    let stdout = "";
    let stderr = "";
    const code = await runCli(argv, COMMANDS, {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      env: envVars,
    });
    return { code, stdout, stderr };
  }

  /** `node scripts/hub.ts …` as a child process, `input` on its standard input. */
  function hubProcess(argv: string[], input = ""): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["scripts/hub.ts", ...argv], {
        cwd: ROOT,
        env: { ...process.env, ...envVars },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  const db = () => inspect.database.db;
  const userId = async (email: string) =>
    (await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const lastAudit = async (action: string) =>
    db()
      .selectFrom("audit_log")
      .select(["actorId", "targetId", "details"])
      .where("action", "=", action)
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();

  beforeAll(async () => {
    const dataDir = temp("lumen-hub-cli-");
    let databaseUrl = "";
    if (dialect === "postgres") {
      const database = await createTestPostgresDatabase();
      cleanups.push(() => database.drop());
      databaseUrl = database.url;
    }
    envVars = {
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "silent",
      SEED_DEMO: "0",
    };
    env = parseEnv(envVars);
    inspect = await createRuntime(env, { seed: true });
    await inspect.stopBackground();
  }, 120_000);

  afterAll(async () => {
    await inspect?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  describe("usage", () => {
    it("answers --help for the hub and for each command, exit 0", async () => {
      const all = await hubProcess(["--help"]);
      expect(all.code).toBe(0);
      for (const command of COMMANDS) expect(all.stdout).toContain(command.name);
      const one = await hub("grant-plan", "--help");
      expect(one.code).toBe(0);
      expect(one.stdout).toContain("--until DATE");
    });

    it("exits 2 with the usage on stderr for an unknown command, option, missing or bad argument", async () => {
      const cases: string[][] = [
        [],
        ["no-such-command"],
        ["unlock"],
        ["unlock", "pro@demo.local", "--bogus"],
        ["unlock", "not-an-address"],
        ["grant-plan", "pro@demo.local", "gold"],
        ["grant-plan", "pro@demo.local", "pro", "--days", "ten"],
        ["grant-plan", "pro@demo.local", "pro", "--until"],
        ["export", "--format", "pdf"],
        ["reindex", "extra"],
      ];
      for (const argv of cases) {
        const ran = await hub(...argv);
        expect({ argv, code: ran.code }).toEqual({ argv, code: 2 });
        expect(ran.stdout).toBe("");
        expect(ran.stderr).toMatch(/Usage: npm run hub --/);
      }
      const json = await hub("grant-plan", "pro@demo.local", "gold", "--json");
      expect(JSON.parse(json.stdout)).toEqual({
        error: { code: "USAGE", message: expect.stringContaining("gold") },
      });
    });

    it("exits 3 for an unknown account, whatever the command", async () => {
      for (const argv of [
        ["unlock", "nobody@example.com"],
        ["reset-password", "nobody@example.com"],
        ["grant-plan", "nobody@example.com", "pro"],
        ["sync-repositories", "--id", "no-such-repository"],
      ]) {
        const ran = await hub(...argv, "--json");
        expect({ argv, code: ran.code }).toEqual({ argv, code: 3 });
        expect(JSON.parse(ran.stdout).error.code).toBe("NOT_FOUND");
      }
    });
  });

  describe("create-admin", () => {
    it("creates a confirmed platform administrator with the password from stdin, audited as the system", async () => {
      const ran = await hubProcess(
        ["create-admin", "ops@example.com", "--name", "Ops", "--password-stdin", "--json"],
        `${STRONG}\n`,
      );
      expect(ran.code, ran.stderr).toBe(0);
      const result = JSON.parse(ran.stdout);
      expect(result).toEqual({
        id: expect.any(String),
        email: "ops@example.com",
        username: "ops",
        groups: expect.arrayContaining(["app-admin"]),
      });
      const user = await db()
        .selectFrom("user")
        .select(["name", "emailVerified"])
        .where("id", "=", result.id)
        .executeTakeFirstOrThrow();
      expect(user.name).toBe("Ops");
      expect(Boolean(user.emailVerified)).toBe(true);
      const auth = await inspect.auth.$context;
      const account = await auth.internalAdapter.findCredentialAccount(result.id);
      expect(await auth.password.verify({ password: STRONG, hash: account!.password! })).toBe(true);
      // The administrator signs in with it at once (the e-mail needs no confirmation code).
      const signIn = await inspect.auth.api.signInEmail({
        body: { email: "ops@example.com", password: STRONG },
        asResponse: true,
      });
      expect(signIn.status).toBe(200);
      const audit = await lastAudit("user_groups_changed");
      expect(audit).toMatchObject({ actorId: null, targetId: result.id });
      expect(JSON.parse(String(audit!.details))).toMatchObject({ added: ["app-admin"], via: "cli" });
    });

    it("generates a strong password when none is given and prints it once", async () => {
      const ran = await hub("create-admin", "ops2@example.com", "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const { password } = JSON.parse(ran.stdout);
      expect(await newPasswordProblem(password)).toBeNull();
      const human = await hub("create-admin", "ops3@example.com");
      expect(human.code).toBe(0);
      expect(human.stdout.match(/Password \(shown once, keep it safe\): (\S+)/)?.[1]).toBeTruthy();
    });

    it("refuses a weak password and an address already in use (exit 1), creating nothing", async () => {
      const weak = await hubProcess(["create-admin", "weak@example.com", "--password-stdin"], "password1\n");
      expect(weak.code).toBe(1);
      expect(weak.stderr).toMatch(/create-admin: Password/);
      expect(
        await db().selectFrom("user").select("id").where("email", "=", "weak@example.com").execute(),
      ).toEqual([]);
      const taken = await hub("create-admin", "pro@demo.local", "--json");
      expect(taken.code).toBe(1);
      expect(JSON.parse(taken.stdout).error).toMatchObject({ code: "CONFLICT" });
      const groups = await db()
        .selectFrom("user_group")
        .select("groupName")
        .where("userId", "=", await userId("pro@demo.local"))
        .execute();
      expect(groups.map((g) => g.groupName)).not.toContain("app-admin");
    });
  });

  describe("reset-password", () => {
    it("sets the new password and revokes every session of the account", async () => {
      const id = await userId("basic@demo.local");
      const auth = await inspect.auth.$context;
      await auth.internalAdapter.createSession(id);
      await auth.internalAdapter.createSession(id);
      const ran = await hubProcess(
        ["reset-password", "basic@demo.local", "--password-stdin", "--json"],
        STRONG,
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toEqual({ id, email: "basic@demo.local", sessionsRevoked: 2 });
      expect(await db().selectFrom("session").select("id").where("userId", "=", id).execute()).toEqual([]);
      const account = await auth.internalAdapter.findCredentialAccount(id);
      expect(await auth.password.verify({ password: STRONG, hash: account!.password! })).toBe(true);
      const audit = await lastAudit("password_reset");
      expect(audit).toMatchObject({ actorId: null, targetId: id });
      expect(JSON.parse(String(audit!.details))).toMatchObject({ via: "cli" });
    });

    it("refuses a weak password (exit 1) and leaves the old one", async () => {
      const id = await userId("basic@demo.local");
      const ran = await hubProcess(["reset-password", "basic@demo.local", "--password-stdin"], "short");
      expect(ran.code).toBe(1);
      const auth = await inspect.auth.$context;
      const account = await auth.internalAdapter.findCredentialAccount(id);
      expect(await auth.password.verify({ password: STRONG, hash: account!.password! })).toBe(true);
    });
  });

  describe("unlock", () => {
    it("clears a lockout, as the admin screen does, and says when there was none", async () => {
      const id = await userId("enterprise@demo.local");
      const now = Date.now();
      await db()
        .insertInto("login_throttle")
        .values({
          key: accountKey(id).key,
          failures: 10,
          windowStart: now,
          lockedUntil: now + 3_600_000,
          updatedAt: now,
        })
        .execute();
      const ran = await hub("unlock", "enterprise@demo.local", "--note", "called the help desk", "--json");
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toEqual({ id, email: "enterprise@demo.local", unlocked: true });
      expect(
        await db().selectFrom("login_throttle").select("key").where("key", "=", accountKey(id).key).execute(),
      ).toEqual([]);
      const audit = await lastAudit("admin_unlock");
      expect(audit).toMatchObject({ actorId: null, targetId: id });
      expect(JSON.parse(String(audit!.details))).toEqual({
        wasLocked: true,
        note: "called the help desk",
        via: "cli",
      });
      const again = await hub("unlock", "enterprise@demo.local");
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("was not locked");
    });
  });

  describe("grant-plan", () => {
    it("grants the tier's plan until a date, as the subscriptions screen does", async () => {
      const id = await userId("free@demo.local");
      const until = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
      const ran = await hub("grant-plan", "free@demo.local", "pro", "--until", until, "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const granted = JSON.parse(ran.stdout);
      expect(granted).toMatchObject({
        user: { id, email: "free@demo.local" },
        tier: "pro",
        source: "admin",
        expiresAt: `${until}T23:59:59.999Z`,
      });
      const audit = await lastAudit("subscription_granted");
      expect(audit).toMatchObject({ actorId: null, targetId: id });
      expect(JSON.parse(String(audit!.details))).toMatchObject({
        note: "Granted on the command line",
        via: "cli",
      });
      const claims = await db()
        .selectFrom("user_subscription")
        .select(["tier", "status"])
        .where("id", "=", granted.id)
        .executeTakeFirstOrThrow();
      expect(claims.status).toBe("active");
    });

    it("passes the service's refusals on with exit 1: the free tier, an end in the past", async () => {
      const free = await hub("grant-plan", "free@demo.local", "free", "--json");
      expect(free.code).toBe(1);
      expect(JSON.parse(free.stdout).error).toEqual({
        code: "BAD_USER_INPUT",
        message: "Choose an offered, paid individual plan.",
        field: { planId: "not a grantable plan" },
      });
      const past = await hub("grant-plan", "free@demo.local", "basic", "--until", "2020-01-01");
      expect(past.code).toBe(1);
      expect(past.stderr).toContain("grant-plan: The end date must be in the future.");
    });
  });

  describe("export", () => {
    it("writes every item as Markdown with the importer's front matter, gated bodies included", async () => {
      const out = path.join(temp("lumen-export-md-"), "library");
      const ran = await hub("export", "--out", out, "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const summary = JSON.parse(ran.stdout);
      const rows = await db().selectFrom("content").selectAll().execute();
      expect(summary).toMatchObject({ format: "markdown", path: out, items: rows.length, missingBodies: [] });
      const files = readdirSync(out, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".md"));
      expect(files).toHaveLength(rows.length);
      for (const item of DEMO_CONTENT) expect(rows.some((r) => r.slug === item.slug)).toBe(true);
      expect(rows.filter((r) => r.status === "published").length).toBeGreaterThan(0);
      const categories = new Map(
        (await db().selectFrom("content_category").select(["id", "section"]).execute()).map((c) => [
          c.id,
          c.section,
        ]),
      );
      const users = new Map(
        (await db().selectFrom("user").select(["id", "email"]).execute()).map((u) => [u.id, u.email]),
      );
      let gated = 0;
      for (const row of rows) {
        const section =
          row.section ?? (row.categoryId ? categories.get(row.categoryId) : null) ?? "unsectioned";
        const file = path.join(out, section, `${row.slug}.md`);
        expect(existsSync(file), file).toBe(true);
        const { data, body } = parseFrontMatter(readFileSync(file, "utf8"));
        const importerKeys = [
          "title",
          "slug",
          "type",
          "section",
          "category",
          "tier",
          "status",
          "summary",
          "tags",
          "author",
          "date",
          "updated",
          "draft",
        ].filter((k) => k in data);
        expect(Object.keys(data).slice(0, importerKeys.length)).toEqual(importerKeys);
        for (const key of ["title", "slug", "type", "tier", "status", "tags", "updated", "draft"])
          expect(data).toHaveProperty(key);
        expect(data).toMatchObject({
          title: row.title,
          slug: row.slug,
          type: row.type,
          tier: String(row.tier).toLowerCase(),
          status: row.status,
          updated: row.updatedAt,
          draft: row.status !== "published",
        });
        if (row.publishedAt) expect(data.date).toBe(row.publishedAt);
        if (row.authorId) expect(data.author).toBe(users.get(row.authorId));
        expect(data.tags).toEqual(JSON.parse(row.tags as string));
        const key = ownBodyKey(row);
        if (key) {
          const stored = new TextDecoder().decode((await inspect.storage.get(key))!.body);
          expect(body.trimEnd()).toBe(stored.trimEnd());
          expect(body.length).toBeGreaterThan(0);
          if (String(row.tier).toLowerCase() !== "free") gated++;
        }
      }
      expect(gated).toBeGreaterThan(0);
    });

    it("writes the JSON document with every item and its body, and refuses a folder in use (exit 1)", async () => {
      const out = temp("lumen-export-json-");
      const ran = await hub("export", "--format", "json", "--out", out, "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const doc = JSON.parse(readFileSync(path.join(out, "library.json"), "utf8"));
      const rows = await db().selectFrom("content").select(["id", "slug", "bodyS3Key"]).execute();
      expect(doc).toMatchObject({ format: "lumen-hub-library", version: 1, exportedAt: expect.any(String) });
      expect(doc.categories.length).toBeGreaterThan(0);
      expect(doc.items.map((i: { id: string }) => i.id).sort()).toEqual(rows.map((r) => r.id).sort());
      for (const item of doc.items) {
        expect(Object.keys(item)).toEqual(
          expect.arrayContaining([
            "title",
            "slug",
            "type",
            "section",
            "category",
            "tier",
            "status",
            "summary",
            "tags",
            "author",
            "publishedAt",
            "updatedAt",
            "media",
            "body",
          ]),
        );
        const row = rows.find((r) => r.id === item.id)!;
        if (row.bodyS3Key) expect(item.body.length).toBeGreaterThan(0);
      }
      const busy = temp("lumen-export-busy-");
      writeFileSync(path.join(busy, "keep.txt"), "mine");
      const refused = await hub("export", "--out", busy);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is not empty");
      expect(readdirSync(busy)).toEqual(["keep.txt"]);
    });
  });

  describe("reindex, sync-repositories, backup", () => {
    it("rebuilds a search index that lost its documents", async () => {
      await db().deleteFrom("content_search").execute();
      const ran = await hub("reindex", "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const count = Number(
        (
          await db()
            .selectFrom("content")
            .select(db().fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(JSON.parse(ran.stdout)).toMatchObject({ indexed: count, failed: 0 });
      const indexed = Number(
        (
          await db()
            .selectFrom("content_search")
            .select(db().fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(indexed).toBe(count);
    });

    it("syncs the enabled repositories, or one named by --id", async () => {
      const ran = await hub("sync-repositories", "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const result = JSON.parse(ran.stdout);
      expect(result.synced).toBeGreaterThan(0);
      for (const r of result.repositories) expect(r).toMatchObject({ ok: true });
      const slug = result.repositories[0].slug;
      const one = await hub("sync-repositories", "--id", slug, "--json");
      expect(one.code).toBe(0);
      expect(JSON.parse(one.stdout).repositories.map((r: { slug: string }) => r.slug)).toEqual([slug]);
      const row = await db()
        .selectFrom("github_repository")
        .select("lastSyncAt")
        .where("slug", "=", slug)
        .executeTakeFirstOrThrow();
      expect(row.lastSyncAt).not.toBeNull();
    });

    it("backs the hub up into a new folder and refuses one in use", async () => {
      const root = temp("lumen-hub-backup-");
      const out = path.join(root, "b1");
      const ran = await hub("backup", out, "--json");
      expect(ran.code, ran.stderr).toBe(0);
      const manifest = JSON.parse(ran.stdout);
      expect(manifest).toMatchObject({ folder: out, database: { dialect } });
      expect(existsSync(path.join(out, "manifest.json"))).toBe(true);
      mkdirSync(path.join(root, "b2"));
      writeFileSync(path.join(root, "b2", "x"), "");
      const refused = await hub("backup", path.join(root, "b2"));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("is not empty");
    });
  });
});
