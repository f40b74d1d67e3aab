/**
 * Raw files of the repository browser (issue 6): GET /api/repositories/{slug}/raw?branch=&path=
 * serves a file's bytes with a safe type (SECURITY.md 15): text as text/plain, raster images with
 * their own type, everything else as an application/octet-stream attachment; `download=1` makes
 * any file an attachment. nosniff and a sandboxing CSP keep a served file from running as a page.
 * Access is the service's (readRepositoryFile); a malformed or unknown path is a 404.
 */
import type { Hono } from "hono";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { fail } from "./toolkit.ts";

const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/x-icon"]);
export const RAW_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** The type a raw file is served with, and whether it must be an attachment whatever was asked. */
export function rawContentType(
  file: { isBinary: boolean; mimeType: string },
  fetchDest: string | undefined,
): { type: string; attachment: boolean } {
  const base = file.mimeType.split(";")[0]!.trim().toLowerCase();
  // An SVG is shown as an image only inside <img> (where it cannot run script); opened directly it is text.
  if (base === "image/svg+xml" && fetchDest === "image") return { type: "image/svg+xml", attachment: false };
  if (!file.isBinary) return { type: "text/plain; charset=utf-8", attachment: false };
  if (INLINE_IMAGE_TYPES.has(base)) return { type: base, attachment: false };
  return { type: "application/octet-stream", attachment: true };
}

function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const repositoriesRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/repositories/:slug/raw",
    summary: "A repository file's bytes (`?branch=&path=&download=1`)",
    description:
      "Text as text/plain, raster images with their own type, anything else as an attachment; nosniff and a sandboxing CSP.",
    tag: "Repositories",
    access: "reader",
    scopes: ["repositories:read"],
    responses: { 200: { description: "The file.", contentType: "application/octet-stream" } },
  },
]);

export function registerRepositoriesApi(
  app: Hono<{ Variables: { nonce: string; clientIp: string } }>,
  runtime: Pick<Runtime, "identity"> & { services: Pick<Runtime["services"], "repositories" | "config"> },
) {
  app.get("/api/repositories/:slug/raw", async (c) => {
    if (runtime.services.config.featureFlags.repositoryBrowser === false) {
      return fail(c, 404, "NOT_FOUND", "The repository browser is turned off on this site.");
    }
    const resolved = await runtime.identity.resolveActor(c.req.raw.headers);
    if (!resolved.ok) return fail(c, resolved.status as 401 | 403 | 429, resolved.code, resolved.message);
    const { actor } = resolved;
    const branch = c.req.query("branch") || undefined;
    const path = c.req.query("path") ?? "";
    let file: Awaited<ReturnType<typeof runtime.services.repositories.readRepositoryFile>>;
    try {
      file = await runtime.services.repositories.readRepositoryFile(actor, c.req.param("slug"), {
        branch,
        path,
      });
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      if (code === "NOT_FOUND" || code === "BAD_USER_INPUT") {
        return fail(c, 404, "NOT_FOUND", "No such file in this repository.");
      }
      if (code === "FORBIDDEN" || code === "UNAUTHENTICATED") {
        return fail(c, 403, "FORBIDDEN", "This credential may not read repositories.");
      }
      if (code === "RATE_LIMITED" || code === "SOURCE_UNAVAILABLE") {
        return fail(c, 503, code, "The repository's source cannot be reached right now.");
      }
      throw error;
    }
    const { type, attachment } = rawContentType(file, c.req.header("sec-fetch-dest"));
    const download = attachment || c.req.query("download") === "1";
    const headers = new Headers({
      "Content-Type": type,
      "Content-Length": String(file.bytes.byteLength),
      "Content-Disposition": contentDisposition(download ? "attachment" : "inline", file.name),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": RAW_CSP,
      "Cross-Origin-Resource-Policy": "same-origin",
      "Cache-Control": actor.platformAdmin ? "private, no-store" : "public, max-age=60",
    });
    if (file.sha) headers.set("ETag", `"${file.sha}"`);
    return new Response(c.req.method === "HEAD" ? null : (file.bytes as Uint8Array<ArrayBuffer>), {
      status: 200,
      headers,
    });
  });
}
