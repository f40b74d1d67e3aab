/**
 * The one way the app signs a raw object link for a reader (decision 011): the key is checked
 * against the storage path rules of spec §6 (`canAccessStoragePath`) for the actor the link is
 * signed for, before anything is signed. Denied by default: an invalid key, an unknown area or a
 * path the actor may not use gets no link.
 */
import type { AccessContext } from "../../core/claims.ts";
import type { ObjectStore, PresignedUrl, PresignOptions } from "./object-store.ts";
import { canAccessStoragePath, type StorageAction, type StorageActor } from "./storage-access.ts";

/** The storage actor of a reader: visitors (and keys or services without a user) are guests. */
export function storageActorOf(access: AccessContext, tenantId: string | null = null): StorageActor {
  const userId = access.isAuthenticated && access.userId ? access.userId : null;
  return {
    groups: userId ? [...access.groups] : [],
    userId,
    tier: userId ? (access.tier ?? "Free") : null,
    tenantId: userId ? tenantId : null,
  };
}

export class StorageAccessDeniedError extends Error {
  override name = "StorageAccessDeniedError";
  readonly code = "FORBIDDEN";
  readonly key: string;
  constructor(key: string, action: StorageAction) {
    super(`The storage path rules do not allow this ${action} link for this reader.`);
    this.key = key;
  }
}

/** A signed GET link to `key` for `actor`; StorageAccessDeniedError when the path rules refuse. */
export async function signObjectGet(
  storage: ObjectStore,
  actor: StorageActor,
  key: string,
  options: PresignOptions = {},
): Promise<PresignedUrl> {
  if (!canAccessStoragePath(actor, key, "read")) throw new StorageAccessDeniedError(key, "read");
  return storage.presignGet(key, options);
}

/** A signed PUT link to `key` for `actor`; StorageAccessDeniedError when the path rules refuse. */
export async function signObjectPut(
  storage: ObjectStore,
  actor: StorageActor,
  key: string,
  options: PresignOptions = {},
): Promise<PresignedUrl> {
  if (!canAccessStoragePath(actor, key, "write")) throw new StorageAccessDeniedError(key, "write");
  return storage.presignPut(key, options);
}
