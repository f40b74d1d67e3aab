import { describe, expect, it } from "vitest";
import { parseXml } from "../../tests/helpers/xml.ts";
import { escapeXml, xmlElement } from "./xml.ts";

describe("escapeXml", () => {
  it("turns markup characters into entities", () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's ]]> end</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s ]]&gt; end&lt;/a&gt;",
    );
  });

  it("drops characters XML 1.0 forbids and keeps valid ones, including astral characters", () => {
    expect(escapeXml("a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uD800g\uDC00h")).toBe("abcdefgh");
    expect(escapeXml("tab\there\nnew line\r, emoji \u{1F600}, é")).toBe(
      "tab\there\nnew line\r, emoji \u{1F600}, é",
    );
  });

  it("round-trips through an XML reader", () => {
    const hostile = "</title><script>alert(1)</script> & ]]> \"'";
    const doc = parseXml(`<root>${xmlElement("title", hostile)}</root>`);
    expect(doc.children[0]?.text).toBe(hostile);
  });

  it("writes nothing for an empty value", () => {
    expect(xmlElement("lastmod", null)).toBe("");
    expect(xmlElement("lastmod", "")).toBe("");
  });
});

describe("the test XML reader", () => {
  it("rejects documents that are not well-formed, so the feed and sitemap tests can fail", () => {
    for (const bad of [
      "<a>Tom & Jerry</a>",
      "<a>1 < 2</a>",
      "<a><b></a></b>",
      "<a>",
      '<a x="1 < 2"/>',
      "<a>&nbsp;</a>",
      "<a/><b/>",
      "<a>]]</a>text",
    ]) {
      expect(() => parseXml(bad), bad).toThrow();
    }
    expect(parseXml('<a x="&amp;"><b>&lt;&#60;&#x3c;</b></a>').children[0]?.text).toBe("<<<");
  });
});
