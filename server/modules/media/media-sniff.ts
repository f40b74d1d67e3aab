/**
 * What an uploaded file really is, read from its first bytes (never from its name or the type
 * the browser claims), and an image's pixel size read from its header. Pure functions over the
 * first bytes of the upload: the upload keeps streaming the rest to storage.
 */

/** A type the sniffer recognises: the content type it stands for, and a name for messages. */
export interface SniffedType {
  /** The content type, or null for formats that are recognised only to be named in a refusal. */
  contentType: string | null;
  label: string;
}

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** "WEBVTT" (after an optional BOM) followed by a space, a tab, a line end or the end of file. */
function isWebVtt(bytes: Uint8Array): boolean {
  const at = startsWith(bytes, UTF8_BOM) ? 3 : 0;
  if (ascii(bytes, at, 6) !== "WEBVTT") return false;
  const next = bytes[at + 6];
  return next === undefined || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

/** The leading text of the file, lower-cased, for recognising markup (SVG, HTML) to refuse. */
function leadingText(bytes: Uint8Array): string {
  const at = startsWith(bytes, UTF8_BOM) ? 3 : 0;
  return new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(at, at + 1024))
    .trimStart()
    .toLowerCase();
}

/**
 * The type of a file from its first bytes (16 are enough for the binary formats; markup is
 * recognised within the first KiB). Unknown content comes back as `{contentType: null}`.
 */
export function sniffType(head: Uint8Array): SniffedType {
  if (startsWith(head, PNG)) return { contentType: "image/png", label: "PNG image" };
  if (startsWith(head, JPEG)) return { contentType: "image/jpeg", label: "JPEG image" };
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") {
    return { contentType: "image/gif", label: "GIF image" };
  }
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WEBP") {
    return { contentType: "image/webp", label: "WebP image" };
  }
  if (ascii(head, 4, 4) === "ftyp") {
    const brand = ascii(head, 8, 4);
    if (brand === "qt  ") return { contentType: null, label: "QuickTime movie" };
    if (brand === "M4A " || brand === "M4B ") return { contentType: null, label: "MPEG-4 audio" };
    if (/^(heic|heix|mif1|msf1|avif)$/.test(brand)) return { contentType: null, label: "HEIF/AVIF image" };
    return { contentType: "video/mp4", label: "MP4 video" };
  }
  if (startsWith(head, EBML)) {
    // The EBML header names its DocType within its first bytes: "webm" or "matroska".
    return ascii(head, 0, 64).includes("webm")
      ? { contentType: "video/webm", label: "WebM video" }
      : { contentType: null, label: "Matroska video" };
  }
  if (isWebVtt(head)) return { contentType: "text/vtt", label: "WebVTT captions" };
  const text = leadingText(head);
  if (text.startsWith("<svg") || (text.startsWith("<?xml") && text.includes("<svg"))) {
    return { contentType: null, label: "SVG image" };
  }
  if (text.startsWith("<!doctype html") || text.startsWith("<html")) {
    return { contentType: null, label: "HTML page" };
  }
  if (ascii(head, 0, 5) === "%PDF-") return { contentType: null, label: "PDF document" };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { contentType: null, label: "ZIP archive" };
  return { contentType: null, label: "unrecognised content" };
}

export interface ImageSize {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + u16be(b, at + 2);

/** JPEG start-of-frame markers (SOF0–SOF15 but DHT, JPG and DAC), which carry the frame size. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan before any frame
    if (isStartOfFrame(marker)) return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    at += 2 + u16be(b, at + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8X" && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === "VP8 " && b.length >= 30 && startsWith(b, [0x9d, 0x01, 0x2a], 23)) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return {
      width: 1 + (((b1 & 0x3f) << 8) | b0),
      height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)),
    };
  }
  return null;
}

/**
 * The pixel size an image's header declares (PNG IHDR, GIF screen, WebP VP8/VP8L/VP8X, JPEG
 * start of frame), or null when the header is cut short or malformed. A JPEG's frame comes after
 * its metadata segments, so give it the first few hundred KiB.
 */
export function readImageSize(contentType: string, b: Uint8Array): ImageSize | null {
  let size: ImageSize | null = null;
  if (contentType === "image/png" && b.length >= 24 && ascii(b, 12, 4) === "IHDR") {
    size = { width: u32be(b, 16), height: u32be(b, 20) };
  } else if (contentType === "image/gif" && b.length >= 10) {
    size = { width: u16le(b, 6), height: u16le(b, 8) };
  } else if (contentType === "image/webp") size = webpSize(b);
  else if (contentType === "image/jpeg") size = jpegSize(b);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
