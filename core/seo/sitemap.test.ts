import { describe, expect, it } from "vitest";
import { childrenNamed, childText, parseXml } from "../../tests/helpers/xml.ts";
import { newest, renderSitemapIndex, renderUrlset, sitemapPage, sitemapPageCount } from "./sitemap.ts";

describe("sitemap", () => {
  it("renders a urlset with escaped locations and W3C dates, omitting invalid dates", () => {
    const xml = renderUrlset([
      { loc: "https://hub.example/content/a?x=1&y=<2>", lastmod: "2026-03-04T10:00:00.000Z" },
      { loc: "https://hub.example/pricing" },
      { loc: "https://hub.example/bad-date", lastmod: "not a date" },
    ]);
    const doc = parseXml(xml);
    expect(doc.name).toBe("urlset");
    expect(doc.attributes.xmlns).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const urls = childrenNamed(doc, "url");
    expect(urls.map((u) => childText(u, "loc"))).toEqual([
      "https://hub.example/content/a?x=1&y=<2>",
      "https://hub.example/pricing",
      "https://hub.example/bad-date",
    ]);
    expect(urls.map((u) => childText(u, "lastmod"))).toEqual(["2026-03-04T10:00:00.000Z", "", ""]);
  });

  it("renders a sitemap index", () => {
    const doc = parseXml(
      renderSitemapIndex([
        { loc: "https://hub.example/sitemaps/1.xml", lastmod: "2026-01-01T00:00:00Z" },
        { loc: "https://hub.example/sitemaps/2.xml" },
      ]),
    );
    expect(doc.name).toBe("sitemapindex");
    expect(childrenNamed(doc, "sitemap").map((s) => childText(s, "loc"))).toEqual([
      "https://hub.example/sitemaps/1.xml",
      "https://hub.example/sitemaps/2.xml",
    ]);
  });

  it("splits URLs into pages of at most `limit`", () => {
    const urls = ["a", "b", "c", "d", "e"];
    expect(sitemapPageCount(0, 2)).toBe(1);
    expect(sitemapPageCount(4, 2)).toBe(2);
    expect(sitemapPageCount(5, 2)).toBe(3);
    expect(sitemapPage(urls, 1, 2)).toEqual(["a", "b"]);
    expect(sitemapPage(urls, 3, 2)).toEqual(["e"]);
    expect(sitemapPage(urls, 4, 2)).toBeNull();
    expect(sitemapPage(urls, 0, 2)).toBeNull();
    expect(sitemapPage(urls, 1.5, 2)).toBeNull();
  });

  it("finds the newest date", () => {
    expect(
      newest(["2026-01-02T00:00:00Z", null, "2026-03-01T00:00:00Z", "junk", "2025-12-31T00:00:00Z"]),
    ).toBe("2026-03-01T00:00:00Z");
    expect(newest([null, undefined])).toBeNull();
  });
});
