import type { Context, Hono } from "hono";
import type { Runtime } from "../runtime.ts";
import { LocalObjectStore } from "../storage/local-store.ts";
import { assertValidKey, isValidContentType } from "../storage/object-store.ts";
import { keyFromObjectsPath, OBJECTS_PATH } from "../storage/url-signer.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { errorResponse, readLimited } from "./toolkit.ts";

/** Largest body a presigned PUT link accepts. */
export const OBJECT_UPLOAD_LIMIT = 25 * 1024 * 1024;

/** Types served inline; anything else is a download (application/octet-stream, attachment). */
const SAFE_INLINE_TYPES = new Set([
  "text/markdown",
  "text/plain",
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "application/json",
  "video/mp4",
  "video/webm",
  "text/vtt",
]);

/** The served Content-Type and Content-Disposition for a stored type (and a signed disposition). */
export function downloadHeaders(
  storedType: string,
  signedDisposition?: string,
): { contentType: string; disposition: string | null } {
  const base = storedType.split(";")[0]!.trim().toLowerCase();
  if (SAFE_INLINE_TYPES.has(base)) {
    const contentType =
      base.startsWith("text/") || base === "application/json" ? `${base}; charset=utf-8` : base;
    return { contentType, disposition: signedDisposition ?? null };
  }
  const filename = signedDisposition?.match(/filename="[^"]*"/)?.[0];
  return {
    contentType: "application/octet-stream",
    disposition: filename ? `attachment; ${filename}` : "attachment",
  };
}

const isKey = (key: string) => {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
};

/**
 * The one byte range a `Range: bytes=…` header asks of an object of `size` bytes (media players
 * seek with these), null to send the whole object (no header, several ranges, an `If-Range` that
 * no longer matches), or "unsatisfiable" when the range lies outside it.
 */
export function byteRange(
  header: string | undefined,
  size: number,
  ifRange?: { header: string | undefined; eTag: string | null },
): { start: number; end: number } | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (ifRange?.header !== undefined && ifRange.header !== ifRange.eTag) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0
      ? "unsatisfiable"
      : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || start > end ? "unsatisfiable" : { start, end };
}

const error = (status: 400 | 403 | 404 | 405 | 413, code: string, message: string): Response =>
  errorResponse(status, code, message, { headers: { "x-content-type-options": "nosniff" } });

export const objectsRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/objects/*",
    summary: "A stored object behind a signed link (`?exp=&sig=`; Range supported)",
    description:
      "Links come from the API (local storage only; with S3 the links point at S3 and this path answers 404).",
    tag: "Objects",
    access: "signed-link",
    responses: {
      200: { description: "The object.", contentType: "application/octet-stream" },
      206: { description: "The requested range.", contentType: "application/octet-stream" },
    },
    errors: [404, 416],
  },
  {
    method: "put",
    path: "/api/objects/*",
    summary: "Upload to a signed upload link (up to 25 MiB)",
    tag: "Objects",
    access: "signed-link",
    rawBody: { contentType: "application/octet-stream", description: "The object's bytes." },
    responses: { 200: { description: "Stored." } },
    errors: [404, 413],
  },
]);

/**
 * The local store's signed links: `/api/objects/<key>?exp=<epoch s>&sig=<base64url>` for GET and
 * HEAD (links from presignGet) and PUT (links from presignPut, up to 25 MiB). Order of checks:
 * a bad key (traversal, encodings, backslashes) → 400; a missing, tampered or expired signature →
 * 403; an unknown object → 404. With S3 storage the links point at S3 and this path answers 404.
 */
export function registerObjectsApi(
  app: Hono<{ Variables: { nonce: string; clientIp: string } }>,
  runtime: Pick<Runtime, "storage">,
) {
  const handle = async (c: Context) => {
    const store = runtime.storage;
    if (!(store instanceof LocalObjectStore)) {
      return error(404, "NOT_FOUND", "Object links are served by the storage service, not by this app.");
    }
    const url = new URL(c.req.url);
    const key = keyFromObjectsPath(url.pathname, isKey);
    if (key === null) {
      return error(400, "BAD_USER_INPUT", "Invalid object key: the path must be a plain relative key.");
    }
    const method = c.req.method === "PUT" ? "PUT" : "GET";
    const verdict = store.verifyLink(method, key, url.searchParams);
    if (!verdict.ok) return error(403, "FORBIDDEN", verdict.message);

    if (method === "PUT") {
      const body = await readLimited(c.req.raw, OBJECT_UPLOAD_LIMIT);
      if (body === null) {
        return error(
          413,
          "PAYLOAD_TOO_LARGE",
          `The upload is larger than ${OBJECT_UPLOAD_LIMIT / 1024 / 1024} MiB.`,
        );
      }
      const requested = c.req.header("content-type") ?? "";
      const contentType =
        verdict.ct ?? (isValidContentType(requested) ? requested : "application/octet-stream");
      const props = await store.put(key, body, { contentType });
      return new Response(JSON.stringify({ key: props.key, size: props.size, eTag: props.eTag }), {
        status: 200,
        headers: {
          "content-type": "application/json",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          etag: props.eTag,
        },
      });
    }

    const head = c.req.method === "HEAD";
    const object = head ? await store.head(key) : await store.get(key);
    if (!object) return error(404, "NOT_FOUND", "No object at this key.");
    const props = "properties" in object ? object.properties : object;
    const { contentType, disposition } = downloadHeaders(props.contentType, verdict.rcd);
    const headers = new Headers({
      "content-type": contentType,
      "content-length": String(props.size),
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "content-security-policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
      "last-modified": new Date(props.lastModified).toUTCString(),
    });
    if (props.eTag) headers.set("etag", props.eTag);
    if (disposition) headers.set("content-disposition", disposition);
    headers.set("accept-ranges", "bytes");
    const body = "body" in object ? object.body : null;
    const range = byteRange(c.req.header("range"), props.size, {
      header: c.req.header("if-range"),
      eTag: props.eTag || null,
    });
    if (range === "unsatisfiable") {
      headers.set("content-range", `bytes */${props.size}`);
      headers.set("content-length", "0");
      return new Response(null, { status: 416, headers });
    }
    if (range) {
      headers.set("content-range", `bytes ${range.start}-${range.end}/${props.size}`);
      headers.set("content-length", String(range.end - range.start + 1));
      const part = body ? body.subarray(range.start, range.end + 1) : null;
      return new Response(head ? null : (part as BodyInit | null), { status: 206, headers });
    }
    return new Response(head ? null : (body as BodyInit | null), { status: 200, headers });
  };

  // Hono answers HEAD with the GET handler (body dropped); the handler skips reading it.
  app.get(`${OBJECTS_PATH}*`, handle);
  app.put(`${OBJECTS_PATH}*`, handle);
  app.all(`${OBJECTS_PATH}*`, () =>
    error(405, "METHOD_NOT_ALLOWED", "Object links accept GET, HEAD and PUT."),
  );
}
