import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readImageSize, sniffType } from "./media-sniff.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const u24le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];

const png = (w: number, h: number) =>
  bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    u32be(13),
    "IHDR",
    u32be(w),
    u32be(h),
    [8, 6, 0, 0, 0],
  );
const gif = (w: number, h: number) => bytes("GIF89a", u16le(w), u16le(h), [0, 0, 0]);
const riff = (chunk: string, payload: number[]) => bytes("RIFF", u32be(0), "WEBP", chunk, u32be(0), payload);
const webpVp8x = (w: number, h: number) => riff("VP8X", [0, 0, 0, 0, ...u24le(w - 1), ...u24le(h - 1)]);
const webpVp8 = (w: number, h: number) => riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(w), ...u16le(h)]);
/** VP8L packs width-1 and height-1 into 14 bits each. */
const webpVp8l = (w: number, h: number) => {
  const bits = (w - 1) | ((h - 1) << 14);
  return riff("VP8L", [0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255]);
};
/** A JPEG with an APP0 and a comment segment before its baseline frame header. */
const jpeg = (w: number, h: number) =>
  bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF", [0, 1, 2, 0, 0, 1, 0, 1, 0, 0], [0xff, 0xfe, 0, 6], "hi!!", [
    0xff,
    0xc0,
    0,
    17,
    8,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    3,
  ]);

const DEMO = path.resolve(import.meta.dirname, "../../db/seed/demo/media");

describe("sniffType", () => {
  it.each([
    [png(1, 1), "image/png"],
    [jpeg(1, 1), "image/jpeg"],
    [gif(1, 1), "image/gif"],
    [webpVp8x(1, 1), "image/webp"],
    [bytes(u32be(24), "ftypisom", u32be(0), "isomiso2"), "video/mp4"],
    [bytes(u32be(24), "ftypmp42"), "video/mp4"],
    [bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1, 0x42, 0x82, 0x84], "webm"), "video/webm"],
    [bytes("WEBVTT\n\n00:00.000 --> 00:01.000\nHi"), "text/vtt"],
    [bytes([0xef, 0xbb, 0xbf], "WEBVTT - title\n"), "text/vtt"],
    [bytes("WEBVTT"), "text/vtt"],
  ])("recognises %#", (head, type) => {
    expect(sniffType(head).contentType).toBe(type);
  });

  it.each([
    [bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "SVG image"],
    [bytes('<?xml version="1.0"?>\n<svg onload="alert(1)"/>'), "SVG image"],
    [bytes("  <!DOCTYPE html><html><script>x</script>"), "HTML page"],
    [bytes("%PDF-1.7"), "PDF document"],
    [bytes(u32be(20), "ftypqt  "), "QuickTime movie"],
    [bytes(u32be(20), "ftypM4A "), "MPEG-4 audio"],
    [bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], "matroska"), "Matroska video"],
    [bytes("WEBVTTX"), "unrecognised content"],
    [bytes("hello"), "unrecognised content"],
    [new Uint8Array(), "unrecognised content"],
  ])("names but does not accept %#", (head, label) => {
    expect(sniffType(head)).toEqual({ contentType: null, label });
  });

  it("recognises the demo seed's real files", () => {
    const read = (name: string) => new Uint8Array(readFileSync(path.join(DEMO, name)));
    expect(sniffType(read("video-prompt-clinic.jpg")).contentType).toBe("image/jpeg");
    expect(sniffType(read("video-prompt-clinic.webm")).contentType).toBe("video/webm");
    expect(sniffType(read("video-prompt-clinic.en.vtt")).contentType).toBe("text/vtt");
  });
});

describe("readImageSize", () => {
  it.each([
    ["image/png", png(640, 480)],
    ["image/gif", gif(640, 480)],
    ["image/webp", webpVp8x(640, 480)],
    ["image/webp", webpVp8(640, 480)],
    ["image/webp", webpVp8l(640, 480)],
    ["image/jpeg", jpeg(640, 480)],
  ])("reads %s headers", (type, head) => {
    expect(readImageSize(type, head)).toEqual({ width: 640, height: 480 });
  });

  it("reads a real JPEG's frame after its metadata segments", () => {
    const poster = new Uint8Array(readFileSync(path.join(DEMO, "video-prompt-clinic.jpg")));
    expect(readImageSize("image/jpeg", poster)).toEqual({ width: 640, height: 360 });
  });

  it("gives null for cut-short, malformed or zero-sized headers", () => {
    expect(readImageSize("image/png", png(640, 480).subarray(0, 20))).toBeNull();
    expect(readImageSize("image/png", png(0, 480))).toBeNull();
    expect(readImageSize("image/jpeg", jpeg(640, 480).subarray(0, 30))).toBeNull();
    expect(
      readImageSize("image/jpeg", bytes([0xff, 0xd8, 0xff, 0xda, 0, 2], new Array(20).fill(0))),
    ).toBeNull();
    expect(readImageSize("image/jpeg", bytes([0xff, 0xd8, 0x00], new Array(20).fill(0)))).toBeNull();
    expect(readImageSize("image/webp", riff("VP8 ", [0, 0, 0, 1, 2, 3, 4, 5, 6, 7]))).toBeNull();
    expect(readImageSize("image/gif", bytes("GIF89a"))).toBeNull();
    expect(readImageSize("video/mp4", png(1, 1))).toBeNull();
  });
});
