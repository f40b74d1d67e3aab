import { readFile } from "node:fs/promises";

export type {
  DemoAuthor,
  DemoAuthorUsername,
  DemoCategory,
  DemoCategorySlug,
  DemoContent,
  DemoContentType,
  DemoSection,
  DemoSectionSlug,
  DemoTier,
  DemoVideo,
  DemoVideoChapter,
} from "./catalog.ts";
export { DEMO_AUTHORS, DEMO_CATEGORIES, DEMO_CONTENT, DEMO_SECTIONS } from "./catalog.ts";

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads the markdown body of a demo content item from `./bodies/<slug>.md`,
 * resolved relative to this module so it works regardless of the working directory.
 */
export async function loadDemoBody(slug: string): Promise<string> {
  if (!SLUG_PATTERN.test(slug)) {
    throw new Error(`Invalid demo content slug: ${JSON.stringify(slug)}`);
  }
  return readFile(new URL(`./bodies/${slug}.md`, import.meta.url), "utf8");
}

/** The files of a demo video (made by scripts/make-demo-videos.sh): clip, poster and captions. */
export const DEMO_VIDEO_FILES = [
  { suffix: ".webm", contentType: "video/webm", role: "clip" },
  { suffix: ".jpg", contentType: "image/jpeg", role: "poster" },
  { suffix: ".en.vtt", contentType: "text/vtt", role: "captions" },
] as const;

export type DemoVideoFileRole = (typeof DEMO_VIDEO_FILES)[number]["role"];

/** Reads one of a demo video's files from `./media/<slug><suffix>`. */
export async function loadDemoVideoFile(slug: string, suffix: string): Promise<Uint8Array> {
  if (!SLUG_PATTERN.test(slug)) {
    throw new Error(`Invalid demo content slug: ${JSON.stringify(slug)}`);
  }
  return new Uint8Array(await readFile(new URL(`./media/${slug}${suffix}`, import.meta.url)));
}
