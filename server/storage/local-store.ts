import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  assertSafeDisposition,
  assertValidKey,
  assertValidPrefix,
  InvalidPresignOptionsError,
  isValidContentType,
  type ObjectProperties,
  ObjectServiceError,
  type ObjectStore,
  type PresignedUrl,
  type PresignOptions,
  type PutOptions,
  resolveLinkExpiry,
  type SignedRequestOptions,
  type SignedResponse,
} from "./object-store.ts";
import { OBJECTS_PATH, type SignedMethod, UrlSigner } from "./url-signer.ts";

export interface LocalStoreOptions {
  /** AUTH_SECRET: the signing key of the links is derived from it. Without it, presigning throws. */
  secret?: string;
  /** Absolute origin for links (PUBLIC_URL); without it links are paths ("/api/objects/…"). */
  baseUrl?: string;
  /** The clock (epoch ms) for signing and checking links; tests move it. Default Date.now. */
  now?: () => number;
}

interface Sidecar {
  contentType: string;
  eTag: string;
  metadata: Record<string, string>;
}

/**
 * Files under `root`, one file per object plus a JSON sidecar (`.meta/<key>.json`) holding
 * content type, ETag and metadata. Writes go to a temporary file first, then rename, so a
 * reader never sees half an object.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = "local-disk";
  readonly root: string;
  readonly now: () => number;
  readonly #signer: UrlSigner | null;
  readonly #baseUrl: string;

  constructor(root: string, options: LocalStoreOptions = {}) {
    this.root = path.resolve(root);
    this.now = options.now ?? Date.now;
    this.#signer = options.secret ? new UrlSigner(options.secret) : null;
    this.#baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  }

  private signer(): UrlSigner {
    if (!this.#signer)
      throw new Error("This local object store was built without a secret: it cannot sign links");
    return this.#signer;
  }

  private link(
    method: SignedMethod,
    key: string,
    options: PresignOptions,
    extra: { rcd?: string; ct?: string },
  ): PresignedUrl {
    assertValidKey(key);
    const { expiresAt } = resolveLinkExpiry(options, this.now());
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const query = this.signer().query(method, key, { exp, ...extra });
    return { url: `${this.#baseUrl}${OBJECTS_PATH}${key}?${query}`, expiresAt: new Date(exp * 1000) };
  }

  async presignGet(key: string, options: PresignOptions = {}): Promise<PresignedUrl> {
    return this.link("GET", key, options, { rcd: assertSafeDisposition(options.responseContentDisposition) });
  }

  async presignPut(key: string, options: PresignOptions = {}): Promise<PresignedUrl> {
    if (options.contentType !== undefined && !isValidContentType(options.contentType)) {
      throw new InvalidPresignOptionsError(`Invalid content type: ${JSON.stringify(options.contentType)}`);
    }
    return this.link("PUT", key, options, { ct: options.contentType });
  }

  /** Checks a link's query for this store (used by the HTTP handler). */
  verifyLink(method: SignedMethod, key: string, query: URLSearchParams) {
    return this.signer().verify(method, key, query, this.now());
  }

  /** Local disk has no signing service: HEAD and GET read the disk; a missing key throws a 404 service error. */
  async signedRequest(
    method: "GET" | "HEAD",
    key: string,
    _options: SignedRequestOptions = {},
  ): Promise<SignedResponse> {
    const missing = () => new ObjectServiceError({ status: 404, serviceCode: "NotFound", key });
    if (method === "HEAD") {
      const properties = await this.head(key);
      if (!properties) throw missing();
      return { status: 200, properties };
    }
    const object = await this.get(key);
    if (!object) throw missing();
    return { status: 200, properties: object.properties, body: object.body };
  }

  private filePath(key: string): string {
    const full = path.resolve(this.root, "data", assertValidKey(key));
    if (!full.startsWith(path.join(this.root, "data") + path.sep)) throw new Error("Key escapes the store");
    return full;
  }

  private metaPath(key: string): string {
    return path.resolve(this.root, "meta", `${assertValidKey(key)}.json`);
  }

  async put(key: string, body: Uint8Array | string, options: PutOptions = {}): Promise<ObjectProperties> {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const file = this.filePath(key);
    const meta = this.metaPath(key);
    await mkdir(path.dirname(file), { recursive: true });
    await mkdir(path.dirname(meta), { recursive: true });
    const eTag = `"${createHash("md5").update(bytes).digest("hex")}"`;
    const sidecar: Sidecar = {
      contentType: options.contentType ?? "application/octet-stream",
      eTag,
      metadata: options.metadata ?? {},
    };
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, bytes);
    await writeFile(`${meta}.tmp`, JSON.stringify(sidecar));
    await rename(`${meta}.tmp`, meta);
    await rename(tmp, file);
    return (await this.head(key))!;
  }

  /** Streams to a temporary file beside the object, then renames it into place. */
  async putStream(
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: PutOptions = {},
  ): Promise<ObjectProperties> {
    const file = this.filePath(key);
    const meta = this.metaPath(key);
    await mkdir(path.dirname(file), { recursive: true });
    await mkdir(path.dirname(meta), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    const hash = createHash("md5");
    const handle = await open(tmp, "wx");
    try {
      try {
        for await (const chunk of body) {
          hash.update(chunk);
          await handle.write(chunk);
        }
      } finally {
        await handle.close();
      }
      const sidecar: Sidecar = {
        contentType: options.contentType ?? "application/octet-stream",
        eTag: `"${hash.digest("hex")}"`,
        metadata: options.metadata ?? {},
      };
      await writeFile(`${meta}.tmp`, JSON.stringify(sidecar));
      await rename(`${meta}.tmp`, meta);
      await rename(tmp, file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return (await this.head(key))!;
  }

  async head(key: string): Promise<ObjectProperties | null> {
    try {
      const info = await stat(this.filePath(key));
      if (!info.isFile()) return null;
      let sidecar: Sidecar = { contentType: "application/octet-stream", eTag: "", metadata: {} };
      try {
        sidecar = JSON.parse(await readFile(this.metaPath(key), "utf8")) as Sidecar;
      } catch {
        // an object without a sidecar keeps the defaults
      }
      return {
        key,
        contentType: sidecar.contentType,
        size: info.size,
        eTag: sidecar.eTag,
        lastModified: info.mtime.toISOString(),
        metadata: sidecar.metadata,
        versionId: null,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async get(key: string): Promise<{ body: Uint8Array; properties: ObjectProperties } | null> {
    const properties = await this.head(key);
    if (!properties) return null;
    const body = new Uint8Array(await readFile(this.filePath(key)));
    return { body, properties };
  }

  async delete(key: string): Promise<void> {
    await rm(this.filePath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async list(prefix: string): Promise<ObjectProperties[]> {
    assertValidPrefix(prefix);
    const base = path.join(this.root, "data");
    const out: ObjectProperties[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && !entry.name.endsWith(".tmp")) {
          const key = path.relative(base, full).split(path.sep).join("/");
          if (key.startsWith(prefix)) {
            const props = await this.head(key);
            if (props) out.push(props);
          }
        }
      }
    };
    await walk(base);
    return out.sort((a, b) => a.key.localeCompare(b.key));
  }

  async ping(): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
    const started = performance.now();
    try {
      await mkdir(path.join(this.root, "data"), { recursive: true });
      await this.put("system/health-check.txt", new Date().toISOString(), { contentType: "text/plain" });
      const back = await this.get("system/health-check.txt");
      return { ok: back !== null, latencyMs: performance.now() - started };
    } catch (error) {
      return { ok: false, latencyMs: performance.now() - started, error: (error as Error).message };
    }
  }
}
