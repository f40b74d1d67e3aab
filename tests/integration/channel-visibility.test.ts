/**
 * One rule, every channel: a draft, a published role-gated item and a published tier-gated item,
 * read by a visitor, a Free reader, a Pro reader and a content writer through the page, the REST
 * API, the body link, GraphQL, search, the RSS feed and comments.
 *
 * The rule (server/modules/content/readable-sql.ts, content-projection.ts):
 * - visible: published items to everyone; unpublished ones to content writers too. Reader-facing
 *   lists (search results, the feed) show published items only, whoever asks.
 * - readable (the body, its link, the comments): visible, and core `canAccessContent` (tier and
 *   required roles).
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createCommentsRepo } from "../../server/modules/comments/comments.repo.ts";
import { type Content, createContentRepo } from "../../server/modules/content/content.repo.ts";
import { createContentItemRepo } from "../../server/modules/content/content-item.repo.ts";
import { createSearchIndexer } from "../../server/modules/search/search-indexer.ts";
import { buildContent } from "../factories/index.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const READERS = ["visitor", "free", "pro", "writer"] as const;
type Reader = (typeof READERS)[number];
/** The demo account of each signed-in reader; the writer is the content manager (Pro plan). */
const ACCOUNT: Record<Exclude<Reader, "visitor">, string> = {
  free: "free@demo.local",
  pro: "pro@demo.local",
  writer: "manager@demo.local",
};

type Sample = "draft" | "roleGated" | "tierGated";
const SAMPLES: Sample[] = ["draft", "roleGated", "tierGated"];
/** A sentence only the body holds (never in the title, excerpt or feed). */
const FINGERPRINT = "Wombats dig burrows with their strong claws and flat heads";

/** Who sees each item at all (its metadata, its page, its comments' item). */
const VISIBLE: Record<Sample, Record<Reader, boolean>> = {
  draft: { visitor: false, free: false, pro: false, writer: true },
  roleGated: { visitor: true, free: true, pro: true, writer: true },
  tierGated: { visitor: true, free: true, pro: true, writer: true },
};
/** Who reads each item's body (and its comments). */
const READABLE: Record<Sample, Record<Reader, boolean>> = {
  draft: { visitor: false, free: false, pro: false, writer: true },
  roleGated: { visitor: false, free: false, pro: false, writer: true },
  tierGated: { visitor: false, free: false, pro: true, writer: true },
};
/** Reader-facing lists (search results, the feed) hold published items only, whoever asks. */
const LISTED: Record<Sample, boolean> = { draft: false, roleGated: true, tierGated: true };

describe.each(DIALECTS)("one visibility rule on every channel (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Reader, string>> = {};
  const items = {} as Record<Sample, Content>;
  /** A Free ContentItem of each sample's record: locked by the record's roles too. */
  const contentItems = {} as Record<Sample, string>;

  const headers = (reader: Reader): Record<string, string> =>
    reader === "visitor" ? {} : { cookie: cookies[reader]! };
  const get = (path: string, reader: Reader) => fetch(`${server.url}${path}`, { headers: headers(reader) });
  async function gql(query: string, variables: Record<string, unknown>, reader: Reader) {
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers(reader) },
      body: JSON.stringify({ query, variables }),
    });
    expect(res.status).toBeLessThan(500);
    return (await res.json()) as {
      data: Record<string, unknown> | null;
      errors?: Array<{ extensions?: { code?: string } }>;
    };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS);
    const { runtime } = server;
    const db = runtime.database.db;
    const indexer = createSearchIndexer({ db, storage: runtime.storage, logger: pino({ level: "silent" }) });
    const repo = createContentRepo(db, indexer.contentHooks);
    const recent = new Date(Date.now() - 60_000).toISOString();
    const body = `## Notes\n\n${FINGERPRINT}, which the notes describe at length.\n`;
    const make = async (sample: Sample, overrides: Parameters<typeof buildContent>[0]) => {
      const built = buildContent(
        {
          slug: `quokka-${sample.toLowerCase()}`,
          title: `Quokka ${sample} notes`,
          section: "ai-news",
          publishedAt: recent,
          ...overrides,
        },
        body,
      );
      await runtime.storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
        contentType: "text/markdown; charset=utf-8",
      });
      items[sample] = await repo.create(built.row);
    };
    // Created before anything is fetched, so no cache can hide them.
    await make("draft", { status: "draft", tier: "Free" });
    await make("roleGated", { tier: "Free", rolesRequired: ["ContentManager"] });
    await make("tierGated", { tier: "Pro" });
    const author = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "admin@demo.local")
      .executeTakeFirstOrThrow();
    const comments = createCommentsRepo(db);
    for (const sample of SAMPLES) {
      await comments.create({
        contentId: items[sample].id,
        authorId: author.id,
        body: `A thought on the ${sample} item.`,
        status: "published",
      });
    }
    for (const sample of SAMPLES) {
      const row = await createContentItemRepo(db).create({
        tier: items[sample].tier,
        contentId: items[sample].id,
        title: items[sample].title,
        publishedAt: recent,
      });
      contentItems[sample] = row.id;
    }
    for (const reader of ["free", "pro", "writer"] as const) {
      cookies[reader] = await signIn(server.url, ACCOUNT[reader], DEMO_PASSWORD);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  for (const reader of READERS) {
    it(`${reader}: the page shows an item exactly when visible, its body exactly when readable`, async () => {
      for (const sample of SAMPLES) {
        const res = await get(`/content/${items[sample].slug}`, reader);
        const html = await res.text();
        expect(res.status, `${reader} page of ${sample}`).toBe(VISIBLE[sample][reader] ? 200 : 404);
        expect(html.includes(FINGERPRINT), `${reader} body of ${sample}`).toBe(READABLE[sample][reader]);
      }
    });

    it(`${reader}: REST and the body link follow the same rule`, async () => {
      for (const sample of SAMPLES) {
        const res = await get(`/api/content/${items[sample].slug}`, reader);
        expect(res.status, `${reader} REST ${sample}`).toBe(VISIBLE[sample][reader] ? 200 : 404);
        if (res.status !== 200) continue;
        const json = (await res.json()) as { locked: boolean; presignedUrl?: string };
        expect(json.locked, `${reader} REST lock of ${sample}`).toBe(!READABLE[sample][reader]);
        expect(json.presignedUrl !== undefined, `${reader} link of ${sample}`).toBe(READABLE[sample][reader]);
        if (json.presignedUrl) {
          const linked = await fetch(new URL(json.presignedUrl, server.url));
          expect(linked.status).toBe(200);
          expect(await linked.text()).toContain(FINGERPRINT);
        }
      }
    });

    it(`${reader}: GraphQL getContent follows the same rule`, async () => {
      for (const sample of SAMPLES) {
        const { data } = await gql(
          "query ($id: ID!) { getContent(id: $id) { id locked bodyS3Key presignedUrl } }",
          { id: items[sample].id },
          reader,
        );
        const got = data?.getContent as {
          locked: boolean;
          bodyS3Key: string | null;
          presignedUrl: string | null;
        };
        expect(got !== null, `${reader} GraphQL ${sample}`).toBe(VISIBLE[sample][reader]);
        if (!got) continue;
        expect(got.locked, `${reader} GraphQL lock of ${sample}`).toBe(!READABLE[sample][reader]);
        expect(got.bodyS3Key !== null).toBe(READABLE[sample][reader]);
        expect(got.presignedUrl !== null).toBe(READABLE[sample][reader]);
      }
    });

    it(`${reader}: a GraphQL ContentItem is locked by its record's tier and roles`, async () => {
      for (const sample of ["roleGated", "tierGated"] as const) {
        const { data } = await gql(
          "query ($id: ID!) { getContentItem(id: $id) { id locked presignedUrl } }",
          { id: contentItems[sample] },
          reader,
        );
        const got = data?.getContentItem as { locked: boolean; presignedUrl: string | null };
        expect(got.locked, `${reader} item lock of ${sample}`).toBe(!READABLE[sample][reader]);
        expect(got.presignedUrl !== null, `${reader} item link of ${sample}`).toBe(READABLE[sample][reader]);
      }
    });

    it(`${reader}: search lists published items only, locked by the same rule`, async () => {
      const res = await get("/api/search?q=quokka&limit=50", reader);
      expect(res.status).toBe(200);
      const { items: hits } = (await res.json()) as { items: Array<{ id: string; locked: boolean }> };
      for (const sample of SAMPLES) {
        const hit = hits.find((h) => h.id === items[sample].id);
        expect(hit !== undefined, `${reader} finds ${sample}`).toBe(LISTED[sample]);
        if (hit) expect(hit.locked, `${reader} search lock of ${sample}`).toBe(!READABLE[sample][reader]);
      }
    });

    it(`${reader}: the feed lists published items only, never a body`, async () => {
      const xml = await (await get("/ai-news/rss.xml", reader)).text();
      expect(xml).not.toContain(FINGERPRINT);
      for (const sample of SAMPLES) {
        expect(xml.includes(`/content/${items[sample].slug}`), `${reader} feed holds ${sample}`).toBe(
          LISTED[sample],
        );
      }
    });

    it(`${reader}: comments are read exactly with a readable item`, async () => {
      for (const sample of SAMPLES) {
        const expected = READABLE[sample][reader]
          ? "seen"
          : VISIBLE[sample][reader]
            ? "FORBIDDEN"
            : "NOT_FOUND";
        const byKey = await gql(
          "query ($id: String!) { listCommentByContentIdAndCreatedAt(contentId: $id) { items { id } } }",
          { id: items[sample].id },
          reader,
        );
        const connection = byKey.data?.listCommentByContentIdAndCreatedAt as { items: unknown[] } | null;
        const outcome = connection
          ? connection.items.length === 1
            ? "seen"
            : "unseen"
          : byKey.errors?.[0]?.extensions?.code;
        expect(outcome, `${reader} comments of ${sample} by key`).toBe(expected);
        // The list with a filter applies the rule in SQL: the comment is there exactly when readable.
        const filtered = await gql(
          "query ($id: String!) { listComments(filter: { contentId: { eq: $id } }) { items { id } } }",
          { id: items[sample].id },
          reader,
        );
        const list = filtered.data?.listComments as { items: unknown[] };
        expect(list.items.length, `${reader} comments of ${sample} in a list`).toBe(
          READABLE[sample][reader] ? 1 : 0,
        );
      }
    });
  }
});
