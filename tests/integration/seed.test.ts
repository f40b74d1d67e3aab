import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../server/db/seed/accounts.ts";
import { DEMO_CATEGORIES, DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { DEMO_COMMENTS } from "../../server/db/seed/demo/comments.ts";
import { DEMO_MODERATION_COMMENTS } from "../../server/db/seed/demo-moderation.ts";
import { seedDemo } from "../../server/db/seed/seed.ts";
import { parseEnv } from "../../server/env.ts";
import { createRuntime, type Runtime } from "../../server/runtime.ts";
import { createTestPostgresDatabase, DIALECTS } from "../helpers/test-server.ts";

describe.each(DIALECTS)("demo seed (%s)", (dialect) => {
  let runtime: Runtime;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "lumen-seed-"));
    const pg = dialect === "postgres" ? await createTestPostgresDatabase() : null;
    drop = pg?.drop;
    runtime = await createRuntime(
      parseEnv({ DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? "", LOG_LEVEL: "silent", SEED_DEMO: "1" }),
    );
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const TABLES = [
    "user",
    "user_subscription",
    "user_group",
    "content",
    "content_category",
    "comment",
    "media_object",
  ] as const;
  const count = async (table: (typeof TABLES)[number]) =>
    Number(
      (
        await runtime.database.db
          .selectFrom(table)
          .select(runtime.database.db.fn.countAll().as("n"))
          .executeTakeFirst()
      )?.n ?? 0,
    );

  it("seeds every account, category and item, with bodies in object storage", async () => {
    expect(await count("user")).toBe(DEMO_ACCOUNTS.length);
    expect(await count("user_subscription")).toBe(DEMO_ACCOUNTS.length);
    expect(await count("content_category")).toBe(DEMO_CATEGORIES.length);
    expect(await count("content")).toBe(DEMO_CONTENT.length);
    const rows = await runtime.database.db
      .selectFrom("content")
      .select(["bodyS3Key", "bodySize", "tier"])
      .execute();
    for (const row of rows) {
      const head = await runtime.storage.head(row.bodyS3Key!);
      expect(head?.size).toBe(row.bodySize);
      expect(row.bodyS3Key!.startsWith(`content/${row.tier.toLowerCase()}/`)).toBe(true);
    }
  });

  it("gives each demo account its tier and roles through real rows", async () => {
    for (const account of DEMO_ACCOUNTS) {
      const user = await runtime.database.db
        .selectFrom("user")
        .select(["id", "emailVerified"])
        .where("email", "=", account.email)
        .executeTakeFirstOrThrow();
      expect(Boolean(user.emailVerified)).toBe(true);
      const groups = (
        await runtime.database.db
          .selectFrom("user_group")
          .select("groupName")
          .where("userId", "=", user.id)
          .execute()
      ).map((g) => g.groupName);
      expect(groups.sort()).toEqual([...account.groups].sort());
      const sub = await runtime.database.db
        .selectFrom("user_subscription")
        .select(["tier", "status"])
        .where("userId", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(sub).toEqual({ tier: account.subscriptionTier, status: "active" });
    }
  });

  it("seeds the demo comments, with replies, and keeps each item's commentCount in step", async () => {
    const db = runtime.database.db;
    expect(await count("comment")).toBe(DEMO_COMMENTS.length + DEMO_MODERATION_COMMENTS.length);
    const comments = await db
      .selectFrom("comment")
      .innerJoin("content", "content.id", "comment.contentId")
      .innerJoin("user", "user.id", "comment.authorId")
      .select([
        "comment.id",
        "comment.body",
        "comment.status",
        "comment.createdAt",
        "comment.parentCommentId",
        "content.slug",
        "user.email",
      ])
      .execute();
    // The moderation queue's demo: one reported (published) comment and one held as pending.
    for (const demo of DEMO_MODERATION_COMMENTS) {
      expect(comments.find((c) => c.body === demo.body)).toMatchObject({
        slug: demo.contentSlug,
        status: demo.status,
      });
    }
    const reports = await db.selectFrom("comment_report").select(["reason", "resolvedAt"]).execute();
    expect(reports).toEqual([{ reason: "spam", resolvedAt: null }]);
    for (const demo of DEMO_COMMENTS) {
      const row = comments.find((c) => c.body === demo.body);
      expect(row, demo.key).toBeDefined();
      expect(row).toMatchObject({ slug: demo.contentSlug, status: "published", createdAt: demo.createdAt });
      expect(row!.email).toBe(DEMO_ACCOUNTS.find((a) => a.key === demo.author)!.email);
      const parent = demo.replyTo ? DEMO_COMMENTS.find((p) => p.key === demo.replyTo)! : null;
      const parentRow = parent ? comments.find((c) => c.body === parent.body)! : null;
      expect(row!.parentCommentId).toBe(parentRow?.id ?? null);
    }
    const counts = await db.selectFrom("content").select(["slug", "commentCount"]).execute();
    for (const item of counts) {
      const expected =
        DEMO_COMMENTS.filter((c) => c.contentSlug === item.slug).length +
        DEMO_MODERATION_COMMENTS.filter((c) => c.contentSlug === item.slug && c.status === "published")
          .length;
      expect(Number(item.commentCount), item.slug).toBe(expected);
    }
  });

  it("is idempotent: running it again adds nothing and changes nothing", async () => {
    const before = await Promise.all(TABLES.map(count));
    const counters = () =>
      runtime.database.db
        .selectFrom("content")
        .select(["id", "commentCount", "structuredData"])
        .orderBy("id")
        .execute();
    const countersBefore = await counters();
    const summary = await seedDemo({
      db: runtime.database.db,
      auth: runtime.auth,
      storage: runtime.storage,
      logger: runtime.logger,
    });
    expect(summary.content).toBe(0);
    expect(summary.comments).toBe(0);
    const after = await Promise.all(TABLES.map(count));
    expect(after).toEqual(before);
    expect(await counters()).toEqual(countersBefore);
  });
});

describe("demo seed on S3 storage", () => {
  const dialect = DIALECTS.at(-1)!;
  let runtime: Runtime;
  let dataDir: string;
  let s3rver: S3rver;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "lumen-seed-s3-"));
    s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: path.join(dataDir, "s3"),
      configureBuckets: [{ name: "demo-bucket" }],
    });
    const { port } = await s3rver.run();
    const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
    const pg = dialect === "postgres" ? await createTestPostgresDatabase() : null;
    drop = pg?.drop;
    runtime = await createRuntime(
      parseEnv({
        DATA_DIR: dataDir,
        DATABASE_URL: pg?.url ?? "",
        LOG_LEVEL: "silent",
        SEED_DEMO: "1",
        STORAGE_URL: `s3://demo-bucket?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await s3rver?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`stores every demo video's clip, poster and captions in the bucket under media/ (${dialect})`, async () => {
    const media = await runtime.database.db
      .selectFrom("media_object")
      .select(["key", "contentType", "size"])
      .execute();
    const videos = DEMO_CONTENT.filter((i) => i.type === "video");
    expect(media).toHaveLength(videos.length * 3);
    for (const m of media) {
      expect(m.key).toMatch(/^media\/[0-9a-f-]{36}\.(webm|jpg|vtt)$/);
      const head = await runtime.storage.head(m.key);
      expect(head, m.key).not.toBeNull();
      expect(head!.contentType, m.key).toBe(m.contentType);
      expect(Number(head!.size), m.key).toBe(Number(m.size));
    }
  });
});
