import { describe, expect, it } from "vitest";
import { avatarKey, avatarMimeOfKey, sniffImageType } from "./profile-image.ts";

const bytes = (...parts: Array<number[] | string>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));

describe("sniffImageType", () => {
  it("recognises PNG, JPEG and WebP by their magic bytes", () => {
    expect(
      sniffImageType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], new Array(8).fill(0))),
    ).toEqual({
      mime: "image/png",
      ext: "png",
    });
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0], new Array(8).fill(0)))?.mime).toBe("image/jpeg");
    expect(sniffImageType(bytes("RIFF", [0x10, 0, 0, 0], "WEBPVP8 ", new Array(8).fill(0)))?.mime).toBe(
      "image/webp",
    );
  });

  it("refuses text, HTML, SVG, GIF, truncated and empty input", () => {
    expect(sniffImageType(bytes("<svg xmlns='http://www.w3.org/2000/svg'><script/></svg>"))).toBeNull();
    expect(sniffImageType(bytes("<html><script>alert(1)</script></html>"))).toBeNull();
    expect(sniffImageType(bytes("GIF89a", new Array(10).fill(0)))).toBeNull();
    expect(sniffImageType(bytes([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(sniffImageType(bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe("avatar keys", () => {
  it("live in the user's private area and map back to a safe type", () => {
    expect(avatarKey("u1", "png")).toBe("private/u1/avatar.png");
    expect(avatarMimeOfKey("private/u1/avatar.webp")).toBe("image/webp");
    expect(avatarMimeOfKey("private/u1/avatar.html")).toBeNull();
  });
});
