/**
 * Content coding and validators for every response (decision 020).
 *
 * - `negotiateEncoding` reads `Accept-Encoding` with its q-values (RFC 9110 §12.5.3): the coding
 *   with the highest weight among those we produce (br, gzip), brotli first on a tie; `identity`
 *   when neither is accepted.
 * - `compression()` is the app's outermost middleware: a compressible response (HTML, JSON, CSS,
 *   JavaScript, XML/RSS, SVG, plain text) of at least `MIN_COMPRESS_BYTES` is sent in the chosen
 *   coding with `Vary: Accept-Encoding`. It leaves alone 204/206/304, HEAD, bodies already
 *   encoded (precompressed static files) or already negotiated by their handler (the page cache),
 *   media and anything marked `no-transform`. JSON reads (GET 200) get an ETag from the body's hash
 *   and answer a matching `If-None-Match` with 304 and no body. Bodies of unknown length other
 *   than JSON (a streamed page render) are compressed as they stream, flushed chunk by chunk.
 */
import { hash } from "node:crypto";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";

export type ContentCoding = "br" | "gzip" | "identity";

/** Bodies smaller than this go out as they are: compression would save less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;
/** Bodies of known length up to this are compressed in one piece; longer ones as a stream. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Below this, one-shot compression runs inline; above, on the thread pool. */
const INLINE_COMPRESS_BYTES = 64 * 1024;

const COMPRESSIBLE =
  /^\s*(?:text\/(?!event-stream)[^;\s]+|application\/(?:json|javascript|ecmascript|xml|x-javascript|[^;\s]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/** Whether a response of this Content-Type is worth compressing (text formats, not media). */
export function isCompressible(contentType: string | null | undefined): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType);
}

/** The codings an `Accept-Encoding` value accepts, with their weights (lower-case names). */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [rawName, ...params] = part.split(";");
    const lower = rawName?.trim().toLowerCase();
    if (!lower) continue;
    const name = lower === "x-gzip" ? "gzip" : lower;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=");
      if (key?.trim().toLowerCase() !== "q") continue;
      const parsed = Number(value?.trim());
      q = Number.isFinite(parsed) && value?.trim() !== "" ? Math.min(Math.max(parsed, 0), 1) : 0;
    }
    // The first mention of a coding counts (a repeated name does not raise its weight).
    if (!weights.has(name)) weights.set(name, q);
  }
  return weights;
}

const negotiated = new Map<string, ContentCoding>();
const NEGOTIATED_MAX = 256;

/**
 * The coding to send for an `Accept-Encoding` value: br or gzip by weight (br on a tie), identity
 * when the header is absent, empty, or accepts neither. Results are remembered per header value
 * (clients send a handful of distinct values).
 */
export function negotiateEncoding(header: string | null | undefined): ContentCoding {
  if (!header) return "identity";
  const known = negotiated.get(header);
  if (known) return known;
  const weights = parseAcceptEncoding(header);
  const star = weights.get("*");
  const weightOf = (name: string) => weights.get(name) ?? star ?? 0;
  const br = weightOf("br");
  const gzip = weightOf("gzip");
  const chosen: ContentCoding = br > 0 && br >= gzip ? "br" : gzip > 0 ? "gzip" : "identity";
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(header, chosen);
  return chosen;
}

/** How hard to compress: `stored` bodies are compressed once and sent many times. */
export type CompressionEffort = "dynamic" | "stored";

/**
 * Levels measured on a 13 KB JSON list and an 80 KB page: brotli 3 costs about half of brotli 4
 * for 5% more bytes on a per-request body; a stored page takes brotli 6 (about 2 ms, once) and
 * gzip 9. Static files are compressed at the maximum by the build.
 */
const brotliOptions = (effort: CompressionEffort, size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: effort === "stored" ? 6 : 3,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    ...(size > 0 ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } : {}),
  },
});
const gzipOptions = (effort: CompressionEffort): zlib.ZlibOptions => ({ level: effort === "stored" ? 9 : 4 });

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

/**
 * Thread-pool compressions running at once. Each holds its encoder's working memory (a brotli 6
 * encoder allocates several MB outside the JavaScript heap) from its first chunk to its last, and
 * the pool interleaves their chunks: fifty at once (a burst of visitors on an expired page) held
 * several hundred MB together, which the allocator kept for the rest of the process's life. The
 * rest wait their turn, first come first served; inline ones (small bodies) are not counted.
 */
export const MAX_PARALLEL_COMPRESSIONS = 2;
let compressing = 0;
const waitingToCompress: Array<() => void> = [];

async function onThreadPool<T>(work: () => Promise<T>): Promise<T> {
  if (compressing >= MAX_PARALLEL_COMPRESSIONS) {
    await new Promise<void>((resolve) => waitingToCompress.push(resolve));
  } else {
    compressing += 1;
  }
  try {
    return await work();
  } finally {
    // The turn passes straight to the next waiter (the count stays), or is given back.
    const next = waitingToCompress.shift();
    if (next) next();
    else compressing -= 1;
  }
}

/** Thread-pool compressions running and waiting (tests, diagnostics). */
export function compressionQueue(): { running: number; waiting: number } {
  return { running: compressing, waiting: waitingToCompress.length };
}

/**
 * One body in one coding: inline for small bodies, on the thread pool for large ones, at most
 * `MAX_PARALLEL_COMPRESSIONS` of those at a time.
 */
export async function compressBody(
  body: Uint8Array,
  coding: Exclude<ContentCoding, "identity">,
  effort: CompressionEffort = "dynamic",
): Promise<Uint8Array<ArrayBuffer>> {
  const inline = body.byteLength <= INLINE_COMPRESS_BYTES;
  const out =
    coding === "br"
      ? inline
        ? zlib.brotliCompressSync(body, brotliOptions(effort, body.byteLength))
        : await onThreadPool(() => brotliAsync(body, brotliOptions(effort, body.byteLength)))
      : inline
        ? zlib.gzipSync(body, gzipOptions(effort))
        : await onThreadPool(() => gzipAsync(body, gzipOptions(effort)));
  return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength);
}

/** A strong validator for a body: its SHA-1, quoted. */
export function bodyEtag(body: Uint8Array): string {
  return `"${hash("sha1", body, "base64url")}"`;
}

/** The validator of a representation: an encoded body gets the weak form of the identity's ETag. */
export function etagFor(identityEtag: string, coding: ContentCoding): string {
  if (coding === "identity" || identityEtag.startsWith("W/")) return identityEtag;
  return `W/${identityEtag}`;
}

/** `If-None-Match` against an ETag, by weak comparison (RFC 9110 §13.1.2); `*` matches any. */
export function ifNoneMatchMatches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);
  const wanted = opaque(etag);
  for (const candidate of header.split(",")) {
    const tag = candidate.trim();
    if (tag === "*" || opaque(tag) === wanted) return true;
  }
  return false;
}

/** Adds `Accept-Encoding` to a response's Vary (once). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get("vary");
  if (!vary) headers.set("Vary", "Accept-Encoding");
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary))
    headers.set("Vary", `${vary}, Accept-Encoding`);
}

/**
 * Replaces the context's response outright. (Assigning `c.res` over an existing response copies
 * the old headers onto the new one, which would bring back a stale Content-Length or ETag.)
 */
function replaceResponse(c: Context, response: Response): void {
  c.res = undefined as unknown as Response;
  c.res = response;
}

const variesOnEncoding = (headers: Headers) => /accept-encoding|\*/i.test(headers.get("vary") ?? "");

/** A body compressed as it streams, each chunk flushed so a streamed render still arrives in parts. */
function compressStream(
  body: ReadableStream<Uint8Array>,
  coding: Exclude<ContentCoding, "identity">,
): ReadableStream<Uint8Array> {
  const encoder =
    coding === "br"
      ? zlib.createBrotliCompress(brotliOptions("dynamic", 0))
      : zlib.createGzip(gzipOptions("dynamic"));
  const reader = body.getReader();
  let cancelled = false;
  encoder.on("close", () => {
    if (!encoder.writableFinished) {
      cancelled = true;
      reader.cancel().catch(() => {});
    }
  });
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || cancelled) break;
        if (!encoder.write(value)) await new Promise((resolve) => encoder.once("drain", resolve));
        encoder.flush();
      }
      if (!cancelled) encoder.end();
    } catch (error) {
      encoder.destroy(error as Error);
    }
  })();
  return Readable.toWeb(encoder) as ReadableStream<Uint8Array>;
}

const NO_BODY_STATUS = new Set([204, 206, 304]);
const JSON_TYPE = /^\s*application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/** The middleware (see the module comment). Register it first so it sees every final response. */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!res.body || NO_BODY_STATUS.has(res.status)) return;
    const headers = res.headers;
    const type = headers.get("content-type");
    if (!isCompressible(type)) return;
    if (headers.has("content-encoding") || variesOnEncoding(headers)) return;
    if (/\bno-transform\b/i.test(headers.get("cache-control") ?? "")) return;
    const method = c.req.method;
    const reading = method === "GET" || method === "HEAD";
    const coding = method === "HEAD" ? "identity" : negotiateEncoding(c.req.header("accept-encoding"));
    const declared = headers.get("content-length");
    const length = declared === null ? null : Number(declared);
    const isJson = JSON_TYPE.test(type ?? "");
    const validate = reading && res.status === 200 && (isJson || headers.has("etag"));

    if (coding === "identity" && !validate) {
      // Nothing to encode or validate: the body goes out untouched, marked as negotiated.
      try {
        varyOnEncoding(headers);
      } catch {
        const out = new Headers(headers);
        varyOnEncoding(out);
        replaceResponse(
          c,
          new Response(res.body, { status: res.status, statusText: res.statusText, headers: out }),
        );
      }
      return;
    }

    if (length === null ? !isJson : length > MAX_BUFFERED_BYTES) {
      // A stream (a signed-in page render) or a large body: compressed on the way out.
      const out = new Headers(headers);
      varyOnEncoding(out);
      if (coding !== "identity" && !headers.has("content-range")) {
        out.delete("content-length");
        out.delete("accept-ranges");
        out.set("Content-Encoding", coding);
        const etag = headers.get("etag");
        if (etag) out.set("ETag", etagFor(etag, coding));
        replaceResponse(
          c,
          new Response(compressStream(res.body, coding), {
            status: res.status,
            statusText: res.statusText,
            headers: out,
          }),
        );
        return;
      }
      replaceResponse(
        c,
        new Response(res.body, { status: res.status, statusText: res.statusText, headers: out }),
      );
      return;
    }

    const body = new Uint8Array(await res.arrayBuffer());
    const out = new Headers(headers);
    varyOnEncoding(out);
    const send = (payload: Uint8Array<ArrayBuffer> | null, status: number) => {
      replaceResponse(
        c,
        new Response(payload, {
          status,
          statusText: status === res.status ? res.statusText : "",
          headers: out,
        }),
      );
    };
    const useCoding = body.byteLength >= MIN_COMPRESS_BYTES ? coding : "identity";
    const etag = validate ? (headers.get("etag") ?? bodyEtag(body)) : headers.get("etag");
    if (etag) out.set("ETag", etagFor(etag, useCoding));
    if (validate && etag && ifNoneMatchMatches(c.req.header("if-none-match"), etag)) {
      for (const name of ["content-length", "content-type", "accept-ranges"]) out.delete(name);
      send(null, 304);
      return;
    }
    if (useCoding === "identity") {
      send(body, res.status);
      return;
    }
    const encoded = await compressBody(body, useCoding);
    out.set("Content-Encoding", useCoding);
    out.set("Content-Length", String(encoded.byteLength));
    out.delete("accept-ranges");
    send(encoded, res.status);
  };
}
