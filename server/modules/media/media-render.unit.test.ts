import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../content/render-markdown.ts";
import type { MediaDisplay, MediaLookup } from "./media.service.ts";

const IMAGE = "0190a1b2-c3d4-7e5f-8a9b-000000000001";
const VIDEO = "0190a1b2-c3d4-7e5f-8a9b-000000000002";
const UNKNOWN = "0190a1b2-c3d4-7e5f-8a9b-0000000000ff";

const known: Record<string, MediaDisplay> = {
  [IMAGE]: { url: `/api/media/${IMAGE}/file`, kind: "image", width: 640, height: 360, alt: "Stored alt" },
  [VIDEO]: { url: `/api/media/${VIDEO}/file`, kind: "video", width: null, height: null, alt: null },
};
const asked: string[][] = [];
const lookup: MediaLookup = async (ids) => {
  asked.push([...ids]);
  return new Map(ids.flatMap((id) => (known[id] ? [[id, known[id]] as const] : [])));
};
const render = (md: string) => renderMarkdown(md, { media: lookup });

describe("media:<id> images in Markdown", () => {
  it("become images with the stable address, the recorded size and the writer's alt text", async () => {
    const out = await render(`![A chart](media:${IMAGE} "Title")`);
    expect(out.html).toContain(`src="/api/media/${IMAGE}/file"`);
    expect(out.html).toContain('width="640"');
    expect(out.html).toContain('height="360"');
    expect(out.html).toContain('alt="A chart"');
    expect(out.html).toContain('loading="lazy"');
  });

  it("take the library's alt text when the Markdown gives none, in one look-up per body", async () => {
    asked.length = 0;
    const out = await render(`![](media:${IMAGE})\n\n![x](media:${IMAGE})`);
    expect(out.html).toContain('alt="Stored alt"');
    expect(asked).toHaveLength(1);
  });

  it.each([
    `![x](media:${UNKNOWN})`,
    `![x](media:${VIDEO})`,
    "![x](media:not-an-id)",
    `![x](media:${IMAGE}/../../x)`,
    `![x](MEDIA:${IMAGE.toUpperCase()})`,
    `![x](media:${IMAGE}?onerror=alert(1))`,
    `<img src="media:${IMAGE}" onerror="alert(1)">`,
    `<img src="media:javascript:alert(1)">`,
    `[link](media:${IMAGE})`,
    `<a href="media:${IMAGE}">x</a>`,
    `<video src="media:${VIDEO}"></video>`,
    `<iframe src="media:${IMAGE}"></iframe>`,
  ])("cannot smuggle anything through %j", async (payload) => {
    const out = await render(`before\n\n${payload}\n\nafter`);
    const html = out.html.toLowerCase();
    for (const tag of html.match(/<[a-z][^>]*>/g) ?? []) {
      expect(tag).not.toMatch(/\son[a-z]+\s*=/);
      expect(tag).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|media|data):/);
    }
    expect(html).not.toContain("<iframe");
    expect(html).not.toContain("<video");
    // Only a known image's own address ever appears as a source.
    for (const src of html.match(/src="[^"]*"/g) ?? []) expect(src).toBe(`src="/api/media/${IMAGE}/file"`);
    expect(out.html).toContain("after");
  });

  it("get the stable address without their size when the renderer has no look-up", async () => {
    const out = await renderMarkdown(`![x](media:${IMAGE}) ![y](media:nope)`);
    expect(out.html).toContain(`<img src="/api/media/${IMAGE}/file" alt="x"`);
    expect(out.html).not.toContain("width=");
    expect(out.html).toContain('<img alt="y"');
  });
});
