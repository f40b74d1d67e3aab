/**
 * Front-end figures read from the server's own responses: the JavaScript a content page makes a
 * browser load first (the scripts and module preloads its server-rendered HTML references), and
 * the Content-Encoding of each kind of compressible response.
 */
import { request } from "node:http";
import { gzipSync } from "node:zlib";

/**
 * Same-origin script URLs a page's HTML references, in order, without duplicates:
 * `<script src>`, `<link rel="modulepreload" href>` and the imports of inline module scripts
 * (`import … from "…"`, `import "…"`, `import("…")`).
 */
export function firstLoadScriptUrls(html: string, pageUrl: string): string[] {
  const found: string[] = [];
  const attr = (tag: string, name: string): string | undefined =>
    new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
      .exec(tag)
      ?.slice(1)
      .find((v) => v !== undefined);
  for (const m of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attr(m[0], "src");
    if (src) found.push(src);
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(m[0], "rel")?.toLowerCase().split(/\s+/) ?? [];
    const href = attr(m[0], "href");
    if (href && rel.includes("modulepreload")) found.push(href);
  }
  for (const m of html.matchAll(/<script\b[^>]*type\s*=\s*["']?module["']?[^>]*>([\s\S]*?)<\/script>/gi)) {
    const code = m[1]!;
    for (const i of code.matchAll(/\b(?:import\s*\(?|from)\s*["']([^"']+)["']/g)) found.push(i[1]!);
  }
  const origin = new URL(pageUrl).origin;
  const urls: string[] = [];
  for (const u of found) {
    let abs: URL;
    try {
      abs = new URL(u.replaceAll("&amp;", "&"), pageUrl);
    } catch {
      continue;
    }
    if (abs.origin !== origin) continue;
    if (!urls.includes(abs.href)) urls.push(abs.href);
  }
  return urls;
}

/** Raw and gzip (level 9, node:zlib) sizes of some files, each and in total. */
export function gzipSizes(files: Array<{ name: string; bytes: Uint8Array }>): {
  files: Array<{ name: string; bytes: number; gzipBytes: number }>;
  bytes: number;
  gzipBytes: number;
} {
  const out = files.map((f) => ({
    name: f.name,
    bytes: f.bytes.byteLength,
    gzipBytes: gzipSync(f.bytes, { level: 9 }).byteLength,
  }));
  return {
    files: out,
    bytes: out.reduce((a, f) => a + f.bytes, 0),
    gzipBytes: out.reduce((a, f) => a + f.gzipBytes, 0),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly the given headers (fetch would add Accept-Encoding and decode the body). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.end();
  });
}

export interface FirstLoadJs {
  page: string;
  requests: number;
  bytes: number;
  gzipBytes: number;
  files: Array<{ name: string; bytes: number; gzipBytes: number }>;
}

/** The JavaScript a page's first load fetches: its count and gzip size. */
export async function firstLoadJs(pageUrl: string, headers: Record<string, string>): Promise<FirstLoadJs> {
  const page = await rawGet(pageUrl, { ...headers, "accept-encoding": "identity" });
  if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}`);
  const urls = firstLoadScriptUrls(page.body.toString("utf8"), pageUrl);
  const files: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const u of urls) {
    const r = await rawGet(u, { ...headers, "accept-encoding": "identity" });
    if (r.status !== 200) throw new Error(`${u} (referenced by ${pageUrl}) answered ${r.status}`);
    files.push({ name: new URL(u).pathname, bytes: r.body });
  }
  const sizes = gzipSizes(files);
  return { page: new URL(pageUrl).pathname, requests: files.length, ...sizes };
}

export interface EncodingCheck {
  kind: string;
  path: string;
  status: number;
  contentType: string;
  contentEncoding: string;
  vary: string;
  bytesSent: number;
}

/** Each response fetched with `Accept-Encoding: br, gzip`, and the encoding the server chose. */
export async function compressionChecks(
  base: string,
  targets: Array<{ kind: string; path: string }>,
  headers: Record<string, string>,
): Promise<EncodingCheck[]> {
  const out: EncodingCheck[] = [];
  for (const t of targets) {
    const r = await rawGet(base + t.path, { ...headers, "accept-encoding": "br, gzip" });
    const h = (name: string) => {
      const v = r.headers[name];
      return Array.isArray(v) ? v.join(", ") : (v ?? "");
    };
    out.push({
      kind: t.kind,
      path: t.path,
      status: r.status,
      contentType: h("content-type").split(";")[0]!,
      contentEncoding: h("content-encoding") || "none",
      vary: h("vary"),
      bytesSent: r.body.byteLength,
    });
  }
  return out;
}
