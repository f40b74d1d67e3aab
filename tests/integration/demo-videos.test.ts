/**
 * The demo's videos play: the seed uploads each video's committed clip, poster and captions as
 * media and names them in the VideoObject, so a reader who may read the item gets a source that
 * serves the clip and a captions track, and anyone else gets the paywall and no media link.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT, loadDemoVideoFile } from "../../server/db/seed/demo/index.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const VIDEOS = DEMO_CONTENT.filter((i) => i.type === "video");
const PRO_VIDEO = "video-automating-a-weekly-report";

const unescapeHtml = (s: string) => s.replace(/&amp;/g, "&");

/** The player's source, poster and caption tracks in a page's HTML. */
function player(html: string) {
  const video = /<video\b[^>]*>/.exec(html)?.[0] ?? null;
  const attr = (tag: string | null, name: string) => {
    const m = tag ? new RegExp(`\\s${name}="([^"]*)"`).exec(tag) : null;
    return m ? unescapeHtml(m[1]!) : null;
  };
  const tracks = [...html.matchAll(/<track\b[^>]*>/g)].map((m) => ({
    src: attr(m[0], "src"),
    srclang: attr(m[0], "srcLang") ?? attr(m[0], "srclang"),
  }));
  return { video, src: attr(video, "src"), poster: attr(video, "poster"), tracks };
}

describe.each(DIALECTS)("demo videos (%s)", (dialect) => {
  let server: TestServer;
  let proCookie = "";

  beforeAll(async () => {
    server = await startTestServer(dialect);
    proCookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const page = async (slug: string, cookie?: string) => {
    const res = await fetch(`${server.url}/content/${slug}`, { headers: cookie ? { cookie } : {} });
    expect(res.status).toBe(200);
    return res.text();
  };
  const get = (url: string) => fetch(new URL(url, server.url));

  it("names uploaded media (owned by the item's author) as the clip, poster and captions of every demo video", async () => {
    const { db } = server.runtime.database;
    for (const item of VIDEOS) {
      const row = await db
        .selectFrom("content")
        .select(["structuredData", "authorId"])
        .where("slug", "=", item.slug)
        .executeTakeFirstOrThrow();
      const data = (
        typeof row.structuredData === "string" ? JSON.parse(row.structuredData) : row.structuredData
      ) as Record<string, unknown>;
      const caption = (data.caption as Array<Record<string, unknown>>)[0]!;
      const refs = [data.contentUrl, data.thumbnailUrl, caption.contentUrl] as string[];
      for (const ref of refs) expect(ref, item.slug).toMatch(/^media:[0-9a-f-]{36}$/);
      const media = await db
        .selectFrom("media_object")
        .select(["id", "key", "contentType", "ownerId"])
        .where(
          "id",
          "in",
          refs.map((r) => r.slice("media:".length)),
        )
        .execute();
      expect(media.map((m) => m.contentType).sort(), item.slug).toEqual([
        "image/jpeg",
        "text/vtt",
        "video/webm",
      ]);
      for (const m of media) {
        expect(m.ownerId, item.slug).toBe(row.authorId);
        expect(m.key, item.slug).toMatch(new RegExp(`^media/${m.id}\\.(webm|jpg|vtt)$`));
        expect(await server.runtime.storage.head(m.key), m.key).not.toBeNull();
      }
    }
  });

  it("gives a Pro reader every demo video's player: the source serves the committed clip, the track its captions", async () => {
    for (const item of VIDEOS) {
      const html = await page(item.slug, proCookie);
      expect(html, item.slug).not.toContain("Video playback is not available");
      const p = player(html);
      expect(p.src, item.slug).toBeTruthy();
      const clip = await get(p.src!);
      expect(clip.status, item.slug).toBe(200);
      expect(clip.headers.get("content-type"), item.slug).toContain("video/webm");
      expect(new Uint8Array(await clip.arrayBuffer()), item.slug).toEqual(
        await loadDemoVideoFile(item.slug, ".webm"),
      );

      expect(p.tracks, item.slug).toHaveLength(1);
      expect(p.tracks[0]!.srclang).toBe("en");
      const vtt = await get(p.tracks[0]!.src!);
      expect(vtt.status, item.slug).toBe(200);
      expect(vtt.headers.get("content-type"), item.slug).toContain("text/vtt");
      expect(await vtt.text(), item.slug).toBe(
        new TextDecoder().decode(await loadDemoVideoFile(item.slug, ".en.vtt")),
      );

      const poster = await get(p.poster!);
      expect(poster.status, item.slug).toBe(200);
      expect(poster.headers.get("content-type"), item.slug).toContain("image/jpeg");

      for (const chapter of item.video!.chapters) expect(html, item.slug).toContain(chapter.title);
    }
  });

  it("the clip's source answers the range requests a browser's player seeks with", async () => {
    const p = player(await page(PRO_VIDEO, proCookie));
    const file = await loadDemoVideoFile(PRO_VIDEO, ".webm");
    const whole = await get(p.src!);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    await whole.arrayBuffer();
    const res = await fetch(new URL(p.src!, server.url), { headers: { range: "bytes=1000-1999" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1000-1999/${file.byteLength}`);
    expect(res.headers.get("content-type")).toContain("video/webm");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(file.subarray(1000, 2000));
    const past = await fetch(new URL(p.src!, server.url), {
      headers: { range: `bytes=${file.byteLength}-` },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${file.byteLength}`);
  });

  it("gives a Free reader and a visitor the paywall on the Pro video, and no clip or captions link", async () => {
    const { db } = server.runtime.database;
    const keys = (
      await db
        .selectFrom("media_object")
        .select("key")
        .where("contentType", "in", ["video/webm", "text/vtt"])
        .execute()
    ).map((m) => m.key);
    expect(keys.length).toBe(VIDEOS.length * 2);
    const freeCookie = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
    for (const cookie of [freeCookie, undefined]) {
      const html = await page(PRO_VIDEO, cookie);
      expect(html).toContain("Premium Content");
      expect(html).not.toContain("<video");
      expect(html).not.toContain("<track");
      for (const key of keys) expect(html).not.toContain(key);
      expect(html).not.toMatch(/media:[0-9a-f]{8}-/);
    }
  });
});
