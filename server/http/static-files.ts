/**
 * Files of the client build, served by Hono's `serveStatic`, in the coding the client prefers
 * when the build wrote a brotli or gzip copy next to the file (`scripts/precompress.ts`).
 *
 * The copies are listed once at start-up (the build does not change under a running server), so
 * a request costs no extra `stat`. The coding is chosen by `negotiateEncoding` (q-values honoured:
 * `serveStatic`'s own `precompressed` option matches names only and leaves `Vary` off identity
 * answers), the file's Content-Type stays that of the original, and every answer for a file that
 * has copies carries `Vary: Accept-Encoding`. A range request gets the identity file.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context, MiddlewareHandler } from "hono";
import { getMimeType } from "hono/utils/mime";
import { type ContentCoding, negotiateEncoding, varyOnEncoding } from "./compression.ts";

const SUFFIX: Record<Exclude<ContentCoding, "identity">, string> = { br: ".br", gzip: ".gz" };

/** URL paths (`/assets/x.js`) of the files under `root` with a `.br` / `.gz` copy, and which. */
export function listPrecompressed(root: string): Map<string, Set<ContentCoding>> {
  const found = new Map<string, Set<ContentCoding>>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
        continue;
      }
      const coding = entry.name.endsWith(".br") ? "br" : entry.name.endsWith(".gz") ? "gzip" : null;
      if (!coding) continue;
      const original = `${prefix}/${entry.name.slice(0, -3)}`;
      const set = found.get(original) ?? new Set<ContentCoding>();
      set.add(coding);
      found.set(original, set);
    }
  };
  walk(root, "");
  return found;
}

/** Whether a file name is a precompressed copy (not listed as a file of its own). */
export const isPrecompressedCopy = (name: string) => name.endsWith(".br") || name.endsWith(".gz");

/** A static-file middleware for `root` that adds `cacheControl` to the files it serves. */
export function staticFiles(
  root: string,
  cacheControl: string,
  precompressed: Map<string, Set<ContentCoding>>,
): MiddlewareHandler {
  const chosen = new WeakMap<Context, ContentCoding>();
  const serve = serveStatic({
    root,
    rewriteRequestPath: (filename, c) => {
      const coding = chosen.get(c);
      return coding && coding !== "identity" ? filename + SUFFIX[coding] : filename;
    },
  });
  return async (c, next) => {
    const copies = precompressed.get(c.req.path);
    let coding: ContentCoding = "identity";
    if (copies && !c.req.header("range")) {
      coding = negotiateEncoding(c.req.header("accept-encoding"));
      if (!copies.has(coding)) coding = "identity";
    }
    chosen.set(c, coding);
    const response = await serve(c, next);
    if (!(response instanceof Response) || !response.ok) return response;
    response.headers.set("Cache-Control", cacheControl);
    if (copies) {
      varyOnEncoding(response.headers);
      if (coding !== "identity") {
        response.headers.set("Content-Type", getMimeType(c.req.path) ?? "application/octet-stream");
        response.headers.set("Content-Encoding", coding);
      }
    }
    return response;
  };
}
