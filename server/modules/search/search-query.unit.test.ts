import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markdownToText } from "./markdown-text.ts";
import {
  HIT_END,
  HIT_START,
  MAX_QUERY_LENGTH,
  MAX_QUERY_WORDS,
  parseSearchQuery,
  splitHighlighted,
  stripSentinels,
  toFts5Query,
  toTsQuery,
} from "./search-query.ts";

describe("parseSearchQuery", () => {
  it("keeps words only: operators, quotes and punctuation become separators", () => {
    expect(parseSearchQuery('  "prompt design" OR (agents*) -chat NEAR/3 ').words).toEqual([
      "prompt",
      "design",
      "or",
      "agents",
      "chat",
      "near",
      "3",
    ]);
    expect(parseSearchQuery("title:rag {body}: x^y").words).toEqual(["title", "rag", "body", "x", "y"]);
    expect(parseSearchQuery("'; drop table content; --").words).toEqual(["drop", "table", "content"]);
  });

  it("lower-cases, removes repeats, and keeps letters of every script and combining marks", () => {
    expect(parseSearchQuery("RAG rag Rag").words).toEqual(["rag"]);
    expect(parseSearchQuery("Café naïve 東京 Ελλάδα").words).toEqual(["café", "naïve", "東京", "ελλάδα"]);
    expect(parseSearchQuery("cafe\u0301").words).toEqual(["café"]); // NFC
    expect(parseSearchQuery("🙂 ✨").words).toEqual([]);
  });

  it("trims, cuts to the length and word limits, and ignores non-strings", () => {
    expect(parseSearchQuery("   ").words).toEqual([]);
    expect(parseSearchQuery(undefined).text).toBe("");
    expect(parseSearchQuery(42).words).toEqual([]);
    expect(parseSearchQuery("x".repeat(1000)).text).toHaveLength(MAX_QUERY_LENGTH);
    expect(parseSearchQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ")).words).toHaveLength(
      MAX_QUERY_WORDS,
    );
  });

  it("turns any input into FTS5 and tsquery text made of quoted words only", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (raw) => {
        const { words, text } = parseSearchQuery(raw);
        expect(text.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
        if (words.length === 0) return;
        expect(toFts5Query(words)).toMatch(/^("[\p{L}\p{N}\p{M}]+" )*"[\p{L}\p{N}\p{M}]+"\*$/u);
        expect(toTsQuery(words)).toMatch(/^('[\p{L}\p{N}\p{M}]+' & )*'[\p{L}\p{N}\p{M}]+':\*$/u);
      }),
    );
  });

  it("builds the expected expressions", () => {
    expect(toFts5Query(["prompt", "desi"])).toBe('"prompt" "desi"*');
    expect(toTsQuery(["prompt", "desi"])).toBe("'prompt' & 'desi':*");
    expect(() => toFts5Query([])).toThrow();
  });
});

describe("highlight parts", () => {
  it("splits marked text into text parts, tolerating odd markers", () => {
    expect(splitHighlighted(`a ${HIT_START}rag${HIT_END} b`)).toEqual([
      { text: "a ", hit: false },
      { text: "rag", hit: true },
      { text: " b", hit: false },
    ]);
    expect(splitHighlighted(`${HIT_START}x${HIT_END}${HIT_START}y${HIT_END}`)).toEqual([
      { text: "xy", hit: true },
    ]);
    expect(splitHighlighted(`${HIT_END}a${HIT_START}`)).toEqual([{ text: "a", hit: false }]);
    expect(splitHighlighted("")).toEqual([]);
    expect(splitHighlighted("<script>alert(1)</script>")).toEqual([
      { text: "<script>alert(1)</script>", hit: false },
    ]);
  });

  it("removes sentinel characters from indexed text", () => {
    expect(stripSentinels(`a${HIT_START}b${HIT_END}c\uF000`)).toBe("a b c ");
  });
});

describe("markdownToText", () => {
  it("keeps the words a reader sees and drops markup, URLs and tags", () => {
    const md = [
      "# Prompt *design*",
      "",
      "Read [the guide](https://example.test/secret-url) and `inline code`.",
      "",
      "- one",
      "- two",
      "",
      "| a | b |",
      "|---|---|",
      "| c | d |",
      "",
      "```ts",
      "const x = 1;",
      "```",
      "",
      '![diagram of vectors](img.png) <span class="x">inline html</span>',
      "",
      "<script>alert(1)</script>",
    ].join("\n");
    const text = markdownToText(md);
    expect(text).toBe(
      "Prompt design Read the guide and inline code. one two a b c d const x = 1; diagram of vectors inline html alert(1)",
    );
    expect(text).not.toContain("https://");
    expect(text).not.toContain("<");
  });

  it("cuts to the maximum length", () => {
    expect(markdownToText("word ".repeat(100), 20)).toHaveLength(20);
  });
});
