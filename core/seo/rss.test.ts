import { describe, expect, it } from "vitest";
import { childrenNamed, childText, parseXml } from "../../tests/helpers/xml.ts";
import { renderRss, rfc822 } from "./rss.ts";

describe("RSS feed", () => {
  const hostileTitle = 'Models <b>now</b> & then ]]> "quoted"';
  const xml = renderRss({
    title: "AI News · Lumen Hub",
    link: "https://hub.example/ai-news",
    description: "Dated analysis & more",
    selfUrl: "https://hub.example/ai-news/rss.xml",
    items: [
      {
        title: hostileTitle,
        link: "https://hub.example/content/models-now?x=1&y=2",
        description: "An excerpt with <em>markup</em> & an ampersand",
        publishedAt: "2026-02-10T09:30:00.000Z",
        categories: ["Policy & Regulation"],
      },
      {
        title: "Older",
        link: "https://hub.example/content/older",
        description: null,
        publishedAt: "2026-03-01T00:00:00.000Z",
        categories: [],
      },
    ],
  });

  it("is well-formed RSS 2.0 with an atom self link", () => {
    const doc = parseXml(xml);
    expect(doc.name).toBe("rss");
    expect(doc.attributes.version).toBe("2.0");
    const channel = childrenNamed(doc, "channel")[0]!;
    expect(childText(channel, "title")).toBe("AI News · Lumen Hub");
    expect(childText(channel, "description")).toBe("Dated analysis & more");
    const self = childrenNamed(channel, "atom:link")[0]!;
    expect(self.attributes).toEqual({
      href: "https://hub.example/ai-news/rss.xml",
      rel: "self",
      type: "application/rss+xml",
    });
    expect(childText(channel, "lastBuildDate")).toBe("Sun, 01 Mar 2026 00:00:00 GMT");
  });

  it("escapes titles, links and descriptions so they read back unchanged", () => {
    const channel = childrenNamed(parseXml(xml), "channel")[0]!;
    const [first, second] = childrenNamed(channel, "item");
    expect(childText(first!, "title")).toBe(hostileTitle);
    expect(childText(first!, "link")).toBe("https://hub.example/content/models-now?x=1&y=2");
    expect(childText(first!, "description")).toBe("An excerpt with <em>markup</em> & an ampersand");
    expect(childText(first!, "category")).toBe("Policy & Regulation");
    const guid = childrenNamed(first!, "guid")[0]!;
    expect(guid.text).toBe("https://hub.example/content/models-now?x=1&y=2");
    expect(guid.attributes.isPermaLink).toBe("true");
    expect(childText(first!, "pubDate")).toBe("Tue, 10 Feb 2026 09:30:00 GMT");
    expect(childrenNamed(second!, "description")).toHaveLength(0);
    expect(xml).not.toContain("]]>");
  });

  it("formats RFC 822 dates and rejects invalid ones", () => {
    expect(rfc822("2026-03-04T10:05:06Z")).toBe("Wed, 04 Mar 2026 10:05:06 GMT");
    expect(rfc822("yesterday")).toBeNull();
    expect(rfc822(null)).toBeNull();
  });
});
