import path from "node:path";
import { LocalObjectStore } from "./local-store.ts";
import type { ObjectStore } from "./object-store.ts";
import { parseS3Url, S3ObjectStore } from "./s3-store.ts";

export { LocalObjectStore } from "./local-store.ts";
export * from "./object-store.ts";
export { parseS3Url, S3ObjectStore } from "./s3-store.ts";
export { canAccessStoragePath, type StorageAction, type StorageActor } from "./storage-access.ts";

export interface ObjectStoreConfig {
  /** STORAGE_URL: `s3://bucket?endpoint=…&region=…&forcePathStyle=true` or a folder path; empty → DATA_DIR/objects. */
  storageUrl?: string;
  dataDir: string;
  /** AUTH_SECRET, from which the local store derives its link-signing key. */
  secret?: string;
  /** PUBLIC_URL: origin of the local store's links (paths when absent). */
  publicUrl?: string;
  /** The clock (epoch ms) for signing and checking links. */
  now?: () => number;
}

/** Builds the object store STORAGE_URL names (see parseS3Url for the S3 form and its credentials). */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  const url = config.storageUrl ?? "";
  if (url.startsWith("s3://")) return new S3ObjectStore({ ...parseS3Url(url), now: config.now });
  return new LocalObjectStore(url || path.join(config.dataDir, "objects"), {
    secret: config.secret,
    baseUrl: config.publicUrl,
    now: config.now,
  });
}
