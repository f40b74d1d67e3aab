/**
 * The video template: an HTML5 player with poster and caption tracks when the VideoObject names
 * media, and the media links only for readers who may read the item.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { buildContent } from "../factories/index.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const VTT = "WEBVTT\n\n00:00.000 --> 00:02.000\nHello and welcome.\n";

describe.each(DIALECTS)("video template (%s)", (dialect) => {
  let server: TestServer;
  let slug = "";

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const { storage, database } = server.runtime;
    await storage.put(
      "content/pro/videos/walkthrough.mp4",
      new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]),
      {
        contentType: "video/mp4",
      },
    );
    await storage.put("content/pro/videos/walkthrough.en.vtt", new TextEncoder().encode(VTT), {
      contentType: "text/vtt",
    });
    const built = buildContent({
      type: "video",
      tier: "Pro",
      section: "ai-education",
      title: "Pipeline walkthrough",
      publishedAt: new Date().toISOString(),
      structuredData: {
        "@context": "https://schema.org",
        "@type": "VideoObject",
        name: "Pipeline walkthrough",
        duration: "PT1M30S",
        contentUrl: "content/pro/videos/walkthrough.mp4",
        thumbnailUrl: "media/posters/walkthrough.png",
        caption: [
          {
            "@type": "MediaObject",
            contentUrl: "content/pro/videos/walkthrough.en.vtt",
            inLanguage: "en",
            name: "English",
          },
        ],
        hasPart: [
          { "@type": "Clip", name: "Setup", startOffset: 0 },
          { "@type": "Clip", name: "Run", startOffset: 45 },
        ],
      },
    });
    await storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
      contentType: "text/markdown",
    });
    await createContentRepo(database.db).create(built.row);
    slug = built.row.slug;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a Pro reader gets the player with poster, a signed source and a captions track that loads", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const html = await (await fetch(`${server.url}/content/${slug}`, { headers: { cookie } })).text();
    expect(html).toMatch(/<video[^>]+src="[^"]*\/api\/objects\/content\/pro\/videos\/walkthrough\.mp4\?exp=/);
    expect(html).toMatch(/poster="[^"]*media\/posters\/walkthrough\.png/);
    const track = /<track[^>]+kind="captions"[^>]+src="([^"]+)"[^>]*>/.exec(html);
    expect(track).not.toBeNull();
    expect(track![0]).toMatch(/srclang="en"/i);
    const vtt = await fetch(new URL(track![1]!.replace(/&amp;/g, "&"), server.url));
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toContain("text/vtt");
    expect(await vtt.text()).toBe(VTT);
    expect(html).toContain("(play from here)");
  });

  it("a Free reader and a visitor get the paywall, the public poster at most, and no media link", async () => {
    const cookie = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
    for (const headers of [{ cookie }, {}] as Array<Record<string, string>>) {
      const html = await (await fetch(`${server.url}/content/${slug}`, { headers })).text();
      expect(html).toContain("Premium Content");
      expect(html).not.toContain("<video");
      expect(html).not.toContain("walkthrough.mp4");
      expect(html).not.toContain("walkthrough.en.vtt");
    }
  });
});
