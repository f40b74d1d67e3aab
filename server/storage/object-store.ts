/**
 * Object storage behind one interface: the local-disk default (files under DATA_DIR/objects)
 * and, in a later release, S3-compatible storage. Keys are validated here so no caller can
 * reach outside the store.
 */
export interface ObjectProperties {
  key: string;
  contentType: string;
  size: number;
  eTag: string;
  lastModified: string;
  metadata: Record<string, string>;
  versionId: string | null;
}

export interface PutOptions {
  contentType?: string;
  metadata?: Record<string, string>;
}

export interface ObjectStore {
  readonly kind: string;
  put(key: string, body: Uint8Array | string, options?: PutOptions): Promise<ObjectProperties>;
  get(key: string): Promise<{ body: Uint8Array; properties: ObjectProperties } | null>;
  head(key: string): Promise<ObjectProperties | null>;
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<ObjectProperties[]>;
  /** Round-trip check for diagnostics. */
  ping(): Promise<{ ok: boolean; latencyMs: number; error?: string }>;
}

export class InvalidKeyError extends Error {
  override name = "InvalidKeyError";
  readonly code = "BAD_USER_INPUT";
}

const KEY_SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * A key is a relative path of safe segments: no empty, "." or ".." segment, no backslash,
 * no leading slash, no percent-encoding, at most 1024 characters.
 */
export function assertValidKey(key: string): string {
  if (typeof key !== "string" || key.length === 0 || key.length > 1024) {
    throw new InvalidKeyError("Object key must be 1–1024 characters");
  }
  const segments = key.split("/");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === ".." || !KEY_SEGMENT.test(segment)) {
      throw new InvalidKeyError(`Invalid object key: ${JSON.stringify(key)}`);
    }
  }
  return key;
}

/** Prefixes may end with a slash (or be empty for the whole store). */
export function assertValidPrefix(prefix: string): string {
  if (prefix === "") return prefix;
  return `${assertValidKey(prefix.replace(/\/$/, ""))}${prefix.endsWith("/") ? "/" : ""}`;
}
