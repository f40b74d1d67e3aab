import { describe, expect, it } from "vitest";
import {
  formatClock,
  isoDuration,
  parseClock,
  parseIsoDuration,
  readVideoParts,
  writeVideoParts,
} from "./video-parts.ts";

const CLIP = "media:0190a1b2-c3d4-7e5f-8a9b-000000000001";
const VTT = "media:0190a1b2-c3d4-7e5f-8a9b-000000000002";

describe("video parts", () => {
  it("reads clocks and ISO durations both ways", () => {
    expect(parseClock("1:05")).toBe(65);
    expect(parseClock("01:02:03")).toBe(3723);
    expect(parseClock("90")).toBe(90);
    expect(parseClock("1:60")).toBeNull();
    expect(parseClock("abc")).toBeNull();
    expect(formatClock(65)).toBe("1:05");
    expect(formatClock(3723)).toBe("1:02:03");
    expect(parseIsoDuration("PT2M30S")).toBe(150);
    expect(parseIsoDuration("PT")).toBeNull();
    expect(isoDuration(150)).toBe("PT2M30S");
    expect(isoDuration(3600)).toBe("PT1H");
    expect(isoDuration(0)).toBe("PT0S");
  });

  it("round-trips a VideoObject, keeping its other properties and sorting chapters", () => {
    const data = {
      "@context": "https://schema.org",
      "@type": "VideoObject",
      name: "Demo",
      description: "kept",
      duration: "PT3M",
      contentUrl: CLIP,
      caption: { "@type": "MediaObject", contentUrl: VTT, inLanguage: "de", name: "Deutsch" },
      hasPart: [
        { "@type": "Clip", name: "Later", startOffset: 60 },
        { "@type": "Clip", name: "Intro", startOffset: 0 },
      ],
    };
    const parts = readVideoParts(data);
    expect(parts).toEqual({
      contentUrl: CLIP,
      thumbnailUrl: null,
      captions: [{ contentUrl: VTT, inLanguage: "de", name: "Deutsch" }],
      chapters: [
        { startOffset: 0, name: "Intro" },
        { startOffset: 60, name: "Later" },
      ],
      durationS: 180,
    });
    const written = writeVideoParts(
      data,
      { ...parts, chapters: [...parts.chapters, { startOffset: 30, name: "Middle" }] },
      "x",
    ) as Record<string, unknown>;
    expect(written.description).toBe("kept");
    expect(written.hasPart).toEqual([
      { "@type": "Clip", name: "Intro", startOffset: 0, endOffset: 30 },
      { "@type": "Clip", name: "Middle", startOffset: 30, endOffset: 60 },
      { "@type": "Clip", name: "Later", startOffset: 60, endOffset: 180 },
    ]);
    expect(written.caption).toEqual([
      {
        "@type": "MediaObject",
        contentUrl: VTT,
        encodingFormat: "text/vtt",
        inLanguage: "de",
        name: "Deutsch",
      },
    ]);
  });

  it("starts a VideoObject when there is none, and removes emptied parts", () => {
    const written = writeVideoParts(
      null,
      { contentUrl: CLIP, thumbnailUrl: null, captions: [], chapters: [], durationS: null },
      "Title",
    );
    expect(written).toEqual({
      "@context": "https://schema.org",
      "@type": "VideoObject",
      name: "Title",
      contentUrl: CLIP,
    });
    const list = writeVideoParts([{ "@type": "Person", name: "A" }], readVideoParts(null), "T") as unknown[];
    expect(list).toHaveLength(2);
  });
});
