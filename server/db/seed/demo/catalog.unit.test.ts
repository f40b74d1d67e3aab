import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DemoContent, DemoContentType, DemoSectionSlug, DemoTier } from "./catalog.ts";
import {
  DEMO_AUTHORS,
  DEMO_CATEGORIES,
  DEMO_CONTENT,
  DEMO_SECTIONS,
  DEMO_VIDEO_FILES,
  loadDemoBody,
  loadDemoVideoFile,
} from "./index.ts";

const TYPES: readonly DemoContentType[] = [
  "article",
  "course",
  "video",
  "markdown",
  "category",
  "collection",
];
const TIERS: readonly DemoTier[] = ["Free", "Basic", "Pro", "Enterprise"];
const SECTIONS: readonly DemoSectionSlug[] = [
  "ai-education",
  "workforce-tools",
  "resources",
  "ai-news",
  "documentation",
];
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const slugs = new Set(DEMO_CONTENT.map((item) => item.slug));
const bySlug = new Map(DEMO_CONTENT.map((item) => [item.slug, item]));
const categoryBySlug = new Map(DEMO_CATEGORIES.map((category) => [category.slug, category]));
const bodies = new Map<string, string>();

async function body(slug: string): Promise<string> {
  const cached = bodies.get(slug);
  if (cached !== undefined) return cached;
  const text = await loadDemoBody(slug);
  bodies.set(slug, text);
  return text;
}

/** Removes fenced code blocks and inline code spans, leaving prose only. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function mmss(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

function count<K extends string>(key: (item: DemoContent) => K): Map<K, number> {
  const result = new Map<K, number>();
  for (const item of DEMO_CONTENT) result.set(key(item), (result.get(key(item)) ?? 0) + 1);
  return result;
}

describe("demo sections and categories", () => {
  it("defines the five sections exactly once", () => {
    expect(DEMO_SECTIONS.map((s) => s.slug).sort()).toEqual([...SECTIONS].sort());
    for (const section of DEMO_SECTIONS) {
      expect(section.label.length).toBeGreaterThan(0);
      expect(section.description.length).toBeGreaterThan(20);
    }
  });

  it("has 10–13 well-formed categories covering every section", () => {
    expect(DEMO_CATEGORIES.length).toBeGreaterThanOrEqual(10);
    expect(DEMO_CATEGORIES.length).toBeLessThanOrEqual(13);
    expect(categoryBySlug.size).toBe(DEMO_CATEGORIES.length);
    for (const category of DEMO_CATEGORIES) {
      expect(category.slug).toMatch(SLUG);
      expect(category.isActive).toBe(true);
      expect(category.icon).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(category.s3Prefix.startsWith(`content/${category.defaultTier.toLowerCase()}/`)).toBe(true);
      expect(category.s3Prefix.endsWith("/")).toBe(true);
    }
    for (const section of SECTIONS) {
      expect(DEMO_CATEGORIES.some((c) => c.section === section)).toBe(true);
    }
  });
});

describe("demo content catalog", () => {
  it("has at least 44 items with unique kebab-case slugs", () => {
    expect(DEMO_CONTENT.length).toBeGreaterThanOrEqual(44);
    expect(slugs.size).toBe(DEMO_CONTENT.length);
    for (const item of DEMO_CONTENT) expect(item.slug).toMatch(SLUG);
  });

  it("covers every type, tier and section", () => {
    const types = count((item) => item.type);
    const tiers = count((item) => item.tier);
    const sections = count((item) => item.section);
    for (const type of TYPES) expect(types.get(type) ?? 0, type).toBeGreaterThan(0);
    for (const tier of TIERS) expect(tiers.get(tier) ?? 0, tier).toBeGreaterThanOrEqual(5);
    for (const section of SECTIONS) expect(sections.get(section) ?? 0, section).toBeGreaterThan(0);
    expect(types.get("course")).toBeGreaterThanOrEqual(3);
    expect(types.get("video")).toBeGreaterThanOrEqual(4);
    expect(types.get("collection")).toBeGreaterThanOrEqual(3);
    expect(types.get("category")).toBeGreaterThanOrEqual(2);
  });

  it("references existing categories in the item's own section", () => {
    for (const item of DEMO_CONTENT) {
      const category = categoryBySlug.get(item.categorySlug);
      expect(category, `${item.slug} -> ${item.categorySlug}`).toBeDefined();
      expect(category?.section, item.slug).toBe(item.section);
    }
  });

  it("uses only known authors, templates and valid metadata", () => {
    const authors = new Set(DEMO_AUTHORS.map((a) => a.username));
    expect([...authors].sort()).toEqual(["admin", "manager", "owner"]);
    for (const item of DEMO_CONTENT) {
      expect(authors.has(item.author), item.slug).toBe(true);
      if (item.templateId !== undefined) expect(TYPES).toContain(item.templateId);
      expect(item.title.length, item.slug).toBeGreaterThan(0);
      expect(item.excerpt.length, item.slug).toBeGreaterThan(30);
      expect(item.metaDescription.length, item.slug).toBeLessThanOrEqual(155);
      expect(item.tags.length, item.slug).toBeGreaterThanOrEqual(3);
      expect(item.tags.length, item.slug).toBeLessThanOrEqual(5);
      expect(item.body).toBe(`${item.slug}.md`);
    }
  });

  it("has exactly one role-restricted item, for content managers", () => {
    const restricted = DEMO_CONTENT.filter((item) => (item.rolesRequired?.length ?? 0) > 0);
    expect(restricted).toHaveLength(1);
    expect(restricted[0]?.rolesRequired).toEqual(["ContentManager"]);
  });

  it("publishes in 2026 (January–November), with AI news the most recent", () => {
    for (const item of DEMO_CONTENT) {
      const date = new Date(item.publishedAt);
      expect(Number.isNaN(date.getTime()), item.slug).toBe(false);
      expect(date.toISOString(), item.slug).toBe(item.publishedAt);
      expect(date.getUTCFullYear(), item.slug).toBe(2026);
      expect(date.getUTCMonth(), item.slug).toBeLessThanOrEqual(10);
    }
    const news = DEMO_CONTENT.filter((i) => i.section === "ai-news").map((i) => Date.parse(i.publishedAt));
    const rest = DEMO_CONTENT.filter((i) => i.section !== "ai-news").map((i) => Date.parse(i.publishedAt));
    expect(Math.min(...news)).toBeGreaterThan(Math.max(...rest));
  });

  it("features a handful of items across several tiers with distinct orders", () => {
    const featured = DEMO_CONTENT.filter((item) => item.featured);
    expect(featured.length).toBeGreaterThanOrEqual(4);
    expect(featured.length).toBeLessThanOrEqual(8);
    expect(new Set(featured.map((i) => i.tier)).size).toBeGreaterThanOrEqual(3);
    const orders = featured.map((i) => i.featuredOrder);
    for (const order of orders) expect(typeof order).toBe("number");
    expect(new Set(orders).size).toBe(featured.length);
  });

  it("links related items and lessons to existing slugs", () => {
    for (const item of DEMO_CONTENT) {
      for (const target of item.related ?? []) {
        expect(slugs.has(target), `${item.slug} related -> ${target}`).toBe(true);
        expect(target, item.slug).not.toBe(item.slug);
      }
      for (const target of item.lessons ?? []) {
        expect(slugs.has(target), `${item.slug} lesson -> ${target}`).toBe(true);
      }
    }
  });

  it("gives each course 3–4 article lessons and only courses have lessons", () => {
    for (const item of DEMO_CONTENT) {
      if (item.type !== "course") {
        expect(item.lessons, item.slug).toBeUndefined();
        continue;
      }
      const lessons = item.lessons ?? [];
      expect(lessons.length, item.slug).toBeGreaterThanOrEqual(3);
      expect(lessons.length, item.slug).toBeLessThanOrEqual(4);
      expect(new Set(lessons).size).toBe(lessons.length);
      for (const lesson of lessons) expect(bySlug.get(lesson)?.type, lesson).toBe("article");
    }
  });

  it("gives each collection 3–6 related items", () => {
    for (const item of DEMO_CONTENT.filter((i) => i.type === "collection")) {
      expect(item.related?.length ?? 0, item.slug).toBeGreaterThanOrEqual(3);
      expect(item.related?.length ?? 0, item.slug).toBeLessThanOrEqual(6);
    }
  });

  it("gives only videos chapter data, ordered and within the duration", () => {
    for (const item of DEMO_CONTENT) {
      if (item.type !== "video") {
        expect(item.video, item.slug).toBeUndefined();
        continue;
      }
      const video = item.video;
      expect(video, item.slug).toBeDefined();
      if (!video) continue;
      expect(video.chapters.length).toBeGreaterThanOrEqual(3);
      expect(video.chapters[0]?.atS).toBe(0);
      for (let i = 1; i < video.chapters.length; i++) {
        expect(video.chapters[i]?.atS ?? 0).toBeGreaterThan(video.chapters[i - 1]?.atS ?? 0);
      }
      expect(video.chapters.at(-1)?.atS ?? 0).toBeLessThan(video.durationS);
    }
  });
});

describe("demo bodies", () => {
  it("has a non-trivial body file for every item and no orphan files", async () => {
    for (const item of DEMO_CONTENT) {
      expect(existsSync(new URL(`./bodies/${item.body}`, import.meta.url)), item.body).toBe(true);
      const text = await body(item.slug);
      expect(wordCount(text), item.slug).toBeGreaterThanOrEqual(150);
      expect(text.toLowerCase(), item.slug).not.toContain("lorem");
    }
    const { readdir } = await import("node:fs/promises");
    const files = await readdir(new URL("./bodies/", import.meta.url));
    expect(files.filter((f) => f.endsWith(".md")).sort()).toEqual(DEMO_CONTENT.map((i) => i.body).sort());
  });

  it("gives articles 350–900 words with section headings", async () => {
    for (const item of DEMO_CONTENT.filter((i) => i.type === "article")) {
      const text = await body(item.slug);
      const words = wordCount(text);
      expect(words, item.slug).toBeGreaterThanOrEqual(350);
      expect(words, item.slug).toBeLessThanOrEqual(900);
      expect(text, item.slug).toMatch(/^## /m);
    }
  });

  it("puts fenced code in at least a third of the articles", async () => {
    const articles = DEMO_CONTENT.filter((i) => i.type === "article");
    let withCode = 0;
    for (const item of articles) if (/^```[a-z]+$/m.test(await body(item.slug))) withCode++;
    expect(withCode * 3).toBeGreaterThanOrEqual(articles.length);
  });

  it("lists every video chapter with its timestamp under a Chapters heading", async () => {
    for (const item of DEMO_CONTENT.filter((i) => i.type === "video")) {
      const text = await body(item.slug);
      expect(text, item.slug).toMatch(/^## Chapters$/m);
      for (const chapter of item.video?.chapters ?? []) {
        expect(text, `${item.slug}: ${chapter.title}`).toContain(`${mmss(chapter.atS)} ${chapter.title}`);
      }
    }
  });

  it("links only to catalog items or site pages, with no raw HTML or images", async () => {
    for (const item of DEMO_CONTENT) {
      // The one comment a body may hold: the public-preview marker line (core/content-preview.ts).
      const text = prose(await body(item.slug)).replace(/^[ \t]*<!--[ \t]*more[ \t]*-->[ \t]*$/gim, "");
      expect(text, `${item.slug} has raw HTML`).not.toMatch(/<[a-zA-Z/!]/);
      expect(text, `${item.slug} has an image`).not.toMatch(/!\[/);
      expect(text, `${item.slug} starts with a duplicate H1`).not.toMatch(/^# /m);
      for (const match of text.matchAll(/\]\(([^)]*)\)/g)) {
        const href = match[1] ?? "";
        const content = /^\/content\/([a-z0-9-]+)$/.exec(href);
        if (content) {
          expect(slugs.has(content[1] ?? ""), `${item.slug} links to missing ${href}`).toBe(true);
          expect(content[1], `${item.slug} links to itself`).not.toBe(item.slug);
        } else {
          expect(["/pricing", "/resources"], `${item.slug} links to ${href}`).toContain(href);
        }
      }
    }
  });

  it("rejects slugs that could escape the bodies folder", async () => {
    await expect(loadDemoBody("../catalog")).rejects.toThrow(/Invalid demo content slug/);
  });
});

describe("demo video files", () => {
  const videos = DEMO_CONTENT.filter((i) => i.type === "video");
  const cueTime = (t: string) => {
    const [m, sec] = t.split(":");
    return Number(m) * 60 + Number(sec);
  };

  it("ships a clip, a poster and captions for every video, a few hundred KB each at most", async () => {
    let total = 0;
    for (const item of videos) {
      for (const file of DEMO_VIDEO_FILES) {
        const bytes = await loadDemoVideoFile(item.slug, file.suffix);
        expect(bytes.byteLength, `${item.slug}${file.suffix}`).toBeGreaterThan(100);
        expect(bytes.byteLength, `${item.slug}${file.suffix}`).toBeLessThan(400_000);
        total += bytes.byteLength;
      }
      const clip = await loadDemoVideoFile(item.slug, ".webm");
      // EBML header, and the WebM doctype.
      expect([...clip.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
      expect(new TextDecoder("latin1").decode(clip.subarray(0, 64))).toContain("webm");
      const poster = await loadDemoVideoFile(item.slug, ".jpg");
      expect([...poster.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
    expect(total).toBeLessThan(2_000_000);
    const { readdir } = await import("node:fs/promises");
    const files = await readdir(new URL("./media/", import.meta.url));
    expect(files.filter((f) => f !== "README.md").sort()).toEqual(
      videos.flatMap((i) => DEMO_VIDEO_FILES.map((f) => `${i.slug}${f.suffix}`)).sort(),
    );
  });

  it("captions each video with one cue per catalog chapter, at the chapter's time, up to its end", async () => {
    for (const item of videos) {
      const vtt = new TextDecoder().decode(await loadDemoVideoFile(item.slug, ".en.vtt"));
      expect(vtt.startsWith("WEBVTT\n"), item.slug).toBe(true);
      const cues = [...vtt.matchAll(/^(\d\d:\d\d\.\d{3}) --> (\d\d:\d\d\.\d{3})\n(.+)$/gm)].map((m) => ({
        from: cueTime(m[1]!),
        to: cueTime(m[2]!),
        text: m[3],
      }));
      const chapters = item.video?.chapters ?? [];
      expect(
        cues.map((c) => ({ atS: c.from, title: c.text })),
        item.slug,
      ).toEqual(chapters.map((c) => ({ atS: c.atS, title: c.title })));
      expect(cues.at(-1)?.to, item.slug).toBe(item.video?.durationS);
      expect(item.video?.durationS ?? 0).toBeGreaterThanOrEqual(10);
      expect(item.video?.durationS ?? 0).toBeLessThanOrEqual(20);
    }
  });

  it("rejects slugs that could escape the media folder", async () => {
    await expect(loadDemoVideoFile("../catalog", ".ts")).rejects.toThrow(/Invalid demo content slug/);
  });
});
