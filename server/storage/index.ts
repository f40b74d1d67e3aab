import path from "node:path";
import { LocalObjectStore } from "./local-store.ts";
import type { ObjectStore } from "./object-store.ts";

export { LocalObjectStore } from "./local-store.ts";
export * from "./object-store.ts";
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

/**
 * Builds the object store STORAGE_URL names (see parseS3Url in s3-store.ts for the S3 form and its
 * credentials). The S3 SDK is imported only when the store is S3.
 */
export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  const url = config.storageUrl ?? "";
  if (url.startsWith("s3://")) {
    const { parseS3Url, S3ObjectStore } = await import("./s3-store.ts");
    return new S3ObjectStore({ ...parseS3Url(url), now: config.now });
  }
  return new LocalObjectStore(url || path.join(config.dataDir, "objects"), {
    secret: config.secret,
    baseUrl: config.publicUrl,
    now: config.now,
  });
}
