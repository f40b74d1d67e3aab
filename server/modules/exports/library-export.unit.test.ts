import { describe, expect, it } from "vitest";
import { type ExportedItem, frontMatter, markdownDocument, safeName } from "./library-export.ts";

const item: ExportedItem = {
  id: "0199",
  title: 'Prompts: "the four parts" — a #guide',
  slug: "prompt-parts",
  type: "article",
  section: "ai-education",
  category: "prompting",
  categoryLabel: "Prompting",
  tier: "pro",
  status: "review",
  summary: "Line one\nline two: yes",
  tags: ["prompts", "true", "null"],
  author: "writer@demo.local",
  authorName: "Writer",
  createdAt: "2026-01-01T00:00:00.000Z",
  publishedAt: null,
  updatedAt: "2026-02-01T00:00:00.000Z",
  image: "media:0b0e2f6e-7d0c-4e5a-9f0e-1c2d3e4f5a6b",
  imageAlt: null,
  ogImage: null,
  media: [
    {
      ref: "media:0b0e2f6e-7d0c-4e5a-9f0e-1c2d3e4f5a6b",
      key: "media/x.png",
      kind: "image",
      contentType: "image/png",
      fileName: "x.png",
      alt: null,
    },
  ],
  bodyFormat: "markdown",
  body: "---\nnot front matter\n---\n\n# Body",
};

describe("the Markdown exporter", () => {
  it("writes the importer's keys in order, strings double-quoted, nulls left out", () => {
    const text = markdownDocument(item);
    const head = text.slice(0, text.indexOf("\n---\n") + 5);
    expect(head).toBe(
      [
        "---",
        `title: ${JSON.stringify(item.title)}`,
        'slug: "prompt-parts"',
        'type: "article"',
        'section: "ai-education"',
        'category: "prompting"',
        'tier: "pro"',
        'status: "review"',
        'summary: "Line one\\nline two: yes"',
        "tags:",
        '  - "prompts"',
        '  - "true"',
        '  - "null"',
        'author: "writer@demo.local"',
        'updated: "2026-02-01T00:00:00.000Z"',
        "draft: true",
        'image: "media:0b0e2f6e-7d0c-4e5a-9f0e-1c2d3e4f5a6b"',
        "media:",
        '  - "media:0b0e2f6e-7d0c-4e5a-9f0e-1c2d3e4f5a6b"',
        "---",
        "",
      ].join("\n"),
    );
    // The body follows as stored, after one blank line, ending with a line break.
    expect(text.slice(head.length)).toBe(`\n${item.body}\n`);
  });

  it("writes empty lists as [] and a published item as not a draft with its date", () => {
    expect(frontMatter({ tags: [], draft: false, n: 2, gone: null })).toBe(
      "---\ntags: []\ndraft: false\nn: 2\n---\n",
    );
    const published = markdownDocument({
      ...item,
      status: "published",
      publishedAt: "2026-03-01T00:00:00.000Z",
    });
    expect(published).toContain('\ndate: "2026-03-01T00:00:00.000Z"\n');
    expect(published).toContain("\ndraft: false\n");
  });

  it("makes file names of slugs and sections that cannot leave their folder", () => {
    expect(safeName("ai-education", "x")).toBe("ai-education");
    expect(safeName("../../etc/passwd", "x")).toBe("etc-passwd");
    expect(safeName("Ünïcode Title", "x")).toBe("n-code-title");
    expect(safeName("..", "fallback")).toBe("fallback");
  });
});
