import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  assertValidKey,
  assertValidPrefix,
  type ObjectProperties,
  type ObjectStore,
  type PutOptions,
} from "./object-store.ts";

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

  constructor(root: string) {
    this.root = path.resolve(root);
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
