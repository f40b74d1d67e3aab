/**
 * Writers cannot publish arbitrary stored objects (decision 011): storage keys are chosen by the
 * server. A body belongs to its item; media are referenced as media:<id> of uploads the writer
 * may use; every raw object link is checked against the storage path rules before it is signed.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { buildContent, contentBodyKey } from "../factories/index.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const enterpriseItem = DEMO_CONTENT.find((c) => c.tier === "Enterprise" && !c.rolesRequired?.length)!;

type Who = "visitor" | "free" | "pro" | "enterprise" | "manager";

interface Gql {
  data: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

const CREATE = `mutation ($input: CreateContentInput!) {
  createContent(input: $input) { id slug tier version bodyS3Key bodySize bodyChecksum }
}`;
const UPDATE = `mutation ($id: ID!, $version: Int!, $input: UpdateContentInput!) {
  updateContent(id: $id, version: $version, input: $input) { id tier version bodyS3Key bodySize }
}`;

describe.each(DIALECTS)("storage keys are chosen by the server (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Who, string>> = {};
  let enterpriseKey = "";
  let enterpriseMarker = "";
  /** Another user's private avatar (owner@ is none of the readers below). */
  let victimId = "";
  let avatarKey = "";
  let n = 0;
  const slugOf = (what: string) => `sk-${what}-${dialect}-${++n}`;

  async function gql(query: string, variables: Record<string, unknown>, who: Who): Promise<Gql> {
    const headers: Record<string, string> = { "content-type": "application/json", origin: server.url };
    if (cookies[who]) headers.cookie = cookies[who]!;
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query, variables }),
    });
    expect(res.status).toBeLessThan(500);
    return (await res.json()) as Gql;
  }
  const db = () => server.runtime.database.db;
  const rowBySlug = (slug: string) =>
    db().selectFrom("content").selectAll().where("slug", "=", slug).executeTakeFirst();

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    for (const who of ["free", "pro", "enterprise", "manager"] as const) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
    const row = (await rowBySlug(enterpriseItem.slug))!;
    enterpriseKey = row.bodyS3Key!;
    const text = new TextDecoder().decode((await server.runtime.storage.get(enterpriseKey))!.body);
    enterpriseMarker = text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 60 && !l.startsWith("#"))!
      .slice(0, 50);
    const victim = await db()
      .selectFrom("user")
      .select("id")
      .where("email", "=", "owner@demo.local")
      .executeTakeFirstOrThrow();
    victimId = victim.id;
    avatarKey = `private/${victimId}/avatar.png`;
    await server.runtime.storage.put(avatarKey, new Uint8Array([137, 80, 78, 71]), {
      contentType: "image/png",
    });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a manager cannot create a Free item whose bodyS3Key is an Enterprise item's body (nothing stored)", async () => {
    for (const field of [{ bodyS3Key: enterpriseKey }, { bodyS3Key: null }]) {
      const slug = slugOf("steal");
      const res = await gql(
        CREATE,
        { input: { title: "Free copy", slug, tier: "Free", status: "published", ...field } },
        "manager",
      );
      expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(res.errors?.[0]?.message).toContain("bodyS3Key");
      expect(res.data?.createContent ?? null).toBeNull();
      expect(await rowBySlug(slug)).toBeUndefined();
    }
  });

  it("a manager cannot point an existing item at another body with updateContent", async () => {
    const slug = slugOf("own");
    const created = await gql(
      CREATE,
      { input: { title: "Own", slug, tier: "Free", status: "published", body: "Own body." } },
      "manager",
    );
    const item = created.data!.createContent as { id: string; version: number; bodyS3Key: string };
    const res = await gql(
      UPDATE,
      { id: item.id, version: item.version, input: { bodyS3Key: enterpriseKey } },
      "manager",
    );
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toContain("bodyS3Key");
    expect((await rowBySlug(slug))!.bodyS3Key).toBe(item.bodyS3Key);
  });

  it("a body sent as text is stored at the item's own key with size and checksum computed", async () => {
    const slug = slugOf("body");
    const body = "## Written through the API\n\nA body the server stored itself.\n";
    const res = await gql(
      CREATE,
      { input: { title: "Body", slug, tier: "Free", status: "published", body } },
      "manager",
    );
    expect(res.errors).toBeUndefined();
    const item = res.data!.createContent as Record<string, unknown>;
    const bytes = new TextEncoder().encode(body);
    expect(item).toMatchObject({
      bodyS3Key: contentBodyKey("Free", null, slug),
      bodySize: bytes.byteLength,
      bodyChecksum: createHash("sha256").update(bytes).digest("hex"),
      version: 1,
    });
    const rest = (await (await fetch(`${server.url}/api/content/${slug}`)).json()) as {
      presignedUrl: string;
    };
    const got = await fetch(new URL(rest.presignedUrl, server.url));
    expect(await got.text()).toBe(body);
  });

  it("raising an item's tier moves its body out of the lower tier's path", async () => {
    const slug = slugOf("raise");
    const body = "## Soon Enterprise\n\nOnly Enterprise readers may read this after the change.\n";
    const created = (
      await gql(
        CREATE,
        { input: { title: "Raise", slug, tier: "Free", status: "published", body } },
        "manager",
      )
    ).data!.createContent as { id: string; version: number; bodyS3Key: string };
    const updated = await gql(
      UPDATE,
      { id: created.id, version: created.version, input: { tier: "Enterprise" } },
      "manager",
    );
    expect(updated.errors).toBeUndefined();
    // The manager's plan is Free, so the answer hides the key; the row holds it.
    expect((updated.data!.updateContent as { tier: string }).tier).toBe("Enterprise");
    expect(await server.runtime.storage.head(created.bodyS3Key)).toBeNull();
    const row = (await rowBySlug(slug))!;
    expect(row.bodyS3Key).toBe(contentBodyKey("Enterprise", null, slug));
    const asEnterprise = (await (
      await fetch(`${server.url}/api/content/${slug}`, { headers: { cookie: cookies.enterprise! } })
    ).json()) as { presignedUrl: string };
    const got = await fetch(new URL(asEnterprise.presignedUrl, server.url), {
      headers: { cookie: cookies.enterprise! },
    });
    expect(await got.text()).toBe(body);
    const asFree = (await (
      await fetch(`${server.url}/api/content/${slug}`, { headers: { cookie: cookies.free! } })
    ).json()) as { presignedUrl?: string | null };
    expect(asFree.presignedUrl ?? null).toBeNull();
  });

  it("a video naming another user's private avatar or another item's body as media is refused", async () => {
    const video = (media: Record<string, unknown>) => ({
      "@context": "https://schema.org",
      "@type": "VideoObject",
      name: "Stolen media",
      duration: "PT1M",
      ...media,
    });
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ contentUrl: avatarKey }, "structuredData.contentUrl"],
      [{ contentUrl: enterpriseKey }, "structuredData.contentUrl"],
      [{ thumbnailUrl: avatarKey }, "structuredData.thumbnailUrl"],
      [
        { caption: [{ "@type": "MediaObject", contentUrl: enterpriseKey, inLanguage: "en" }] },
        "structuredData.caption[0].contentUrl",
      ],
      [{ contentUrl: "media:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" }, "structuredData.contentUrl"],
      [{ contentUrl: `/api/objects/${avatarKey}` }, "structuredData.contentUrl"],
    ];
    for (const [media, field] of attempts) {
      const slug = slugOf("video");
      const res = await gql(
        CREATE,
        {
          input: {
            title: "Video",
            slug,
            type: "video",
            tier: "Free",
            status: "published",
            structuredData: video(media),
          },
        },
        "manager",
      );
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(media)).toBe("BAD_USER_INPUT");
      expect(res.errors?.[0]?.message).toContain(field);
      expect(await rowBySlug(slug)).toBeUndefined();
    }
  });

  it("uploaded media are referenced by id: the writer's own upload plays, someone else's is refused", async () => {
    const upload = await gql(
      `mutation ($input: CreateMediaUploadInput!) {
        createMediaUpload(input: $input) { uploadUrl media { id ref contentType } }
      }`,
      { input: { contentType: "video/mp4", size: 8 } },
      "manager",
    );
    expect(upload.errors).toBeUndefined();
    const { uploadUrl, media } = upload.data!.createMediaUpload as {
      uploadUrl: string;
      media: { id: string; ref: string };
    };
    expect(media.ref).toBe(`media:${media.id}`);
    expect(decodeURIComponent(uploadUrl)).toContain(`/api/objects/media/${media.id}.mp4?`);
    const bytes = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]);
    const put = await fetch(new URL(uploadUrl, server.url), {
      method: "PUT",
      headers: { "content-type": "video/mp4" },
      body: bytes,
    });
    expect(put.status).toBe(200);

    const slug = slugOf("own-media");
    const structuredData = {
      "@type": "VideoObject",
      name: "Own media",
      duration: "PT1M",
      contentUrl: media.ref,
    };
    const res = await gql(
      CREATE,
      {
        input: { title: "Own media", slug, type: "video", tier: "Free", status: "published", structuredData },
      },
      "manager",
    );
    expect(res.errors).toBeUndefined();
    const html = await (await fetch(`${server.url}/content/${slug}`)).text();
    const src = /<video[^>]+src="([^"]+)"/.exec(html)?.[1];
    expect(src).toMatch(new RegExp(`/api/objects/media/${media.id}\\.mp4\\?exp=`));
    const played = await fetch(new URL(src!.replace(/&amp;/g, "&"), server.url));
    expect(new Uint8Array(await played.arrayBuffer())).toEqual(bytes);

    const admin = await db()
      .selectFrom("user")
      .select("id")
      .where("email", "=", "admin@demo.local")
      .executeTakeFirstOrThrow();
    const theirs = await server.runtime.services.contentModels.media.store(admin.id, "video/mp4", bytes);
    const other = slugOf("their-media");
    const refused = await gql(
      CREATE,
      {
        input: {
          title: "Their media",
          slug: other,
          type: "video",
          tier: "Free",
          structuredData: { ...structuredData, contentUrl: `media:${theirs.id}` },
        },
      },
      "manager",
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(refused.errors?.[0]?.message).toContain("belongs to someone else");
    expect(await rowBySlug(other)).toBeUndefined();
  });

  it("only content writers may register uploads, and only of the allowed types", async () => {
    const q = `mutation ($input: CreateMediaUploadInput!) { createMediaUpload(input: $input) { uploadUrl } }`;
    const visitor = await gql(q, { input: { contentType: "video/mp4", size: 8 } }, "visitor");
    expect(visitor.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const free = await gql(q, { input: { contentType: "video/mp4", size: 8 } }, "free");
    expect(free.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const html = await gql(q, { input: { contentType: "text/html", size: 8 } }, "manager");
    expect(html.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(html.errors?.[0]?.message).toContain("contentType");
    expect(
      await db().selectFrom("media_object").select("id").where("contentType", "=", "text/html").execute(),
    ).toEqual([]);
  });

  it("even if such a row existed, no reader gets a signed link to private/… or a higher tier's body", async () => {
    const built = buildContent({
      type: "video",
      tier: "Free",
      title: "Planted video",
      bodyS3Key: enterpriseKey,
      structuredData: {
        "@context": "https://schema.org",
        "@type": "VideoObject",
        name: "Planted video",
        duration: "PT1M",
        contentUrl: avatarKey,
        thumbnailUrl: enterpriseKey,
        caption: [{ "@type": "MediaObject", contentUrl: enterpriseKey, inLanguage: "en", name: "English" }],
      },
    });
    await createContentRepo(db()).create(built.row);
    const slug = built.row.slug;
    for (const who of ["visitor", "free", "pro", "enterprise"] as const) {
      const headers: Record<string, string> = cookies[who] ? { cookie: cookies[who]! } : {};
      const html = await (await fetch(`${server.url}/content/${slug}`, { headers })).text();
      expect(html, who).toContain("Planted video");
      for (const leak of [avatarKey, enterpriseKey, "avatar.png", enterpriseMarker]) {
        expect(html, `${who}: ${leak}`).not.toContain(leak);
      }
      expect(html, who).not.toMatch(/<video[^>]+src=/);

      const rest = (await (await fetch(`${server.url}/api/content/${slug}`, { headers })).json()) as Record<
        string,
        unknown
      >;
      expect(rest.presignedUrl ?? null, who).toBeNull();
      expect(rest.url ?? null, who).toBeNull();
      expect(rest.bodyS3Key ?? null, who).toBeNull();

      const body = await fetch(`${server.url}/api/content/${slug}/body`, { headers });
      expect(await body.text(), who).not.toContain(enterpriseMarker);

      const g = await gql(
        `query ($slug: String!) { listContentBySlug(slug: $slug) { items { bodyS3Key presignedUrl url structuredData } } }`,
        { slug },
        who,
      );
      const item = (g.data!.listContentBySlug as { items: Array<Record<string, unknown>> }).items[0]!;
      expect(item.bodyS3Key, who).toBeNull();
      expect(item.presignedUrl, who).toBeNull();
      expect(JSON.stringify(item.structuredData), who).not.toContain("avatar.png");
      expect(JSON.stringify(item.structuredData), who).not.toContain(enterpriseKey);
    }
  });
});
