/**
 * Object storage behind one interface: the local-disk default (files under DATA_DIR/objects,
 * links signed by the app) and S3-compatible storage (s3-store.ts). Keys are validated here so no caller can
 * reach outside the store.
 */
import {
  PRESIGN_DEFAULT_EXPIRY_S,
  PRESIGN_MAX_EXPIRY_S,
  PresignExpiryLimitError,
  resolvePresignExpiry,
} from "../../core/constants.ts";

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

/** Options of a presigned link. */
export interface PresignOptions {
  /** Requested lifetime in seconds (default 3600; above 7 days → UrlExpirationLimitError). */
  expiresInS?: number;
  /**
   * Epoch ms after which the link must not work: the end of the requesting session or credential.
   * The link's lifetime is capped to it; a moment already past refuses to sign.
   */
  notAfterMs?: number;
  /** Content-Disposition the download is served with (GET only). */
  responseContentDisposition?: string;
  /** Content type the upload is stored with (PUT only). */
  contentType?: string;
}

export interface PresignedUrl {
  url: string;
  expiresAt: Date;
}

/** Options of `signedRequest` (spec §7 "signed GET or HEAD"). */
export interface SignedRequestOptions {
  /** S3: the account expected to own the bucket (x-amz-expected-bucket-owner); ignored by local disk. */
  expectedBucketOwner?: string;
  /** GET: check existence with a HEAD first (a missing key then fails before any body is read). */
  checkExists?: boolean;
}

export interface SignedResponse {
  status: number;
  properties: ObjectProperties;
  /** GET only. */
  body?: Uint8Array;
}

export interface ObjectStore {
  readonly kind: string;
  put(key: string, body: Uint8Array | string, options?: PutOptions): Promise<ObjectProperties>;
  /**
   * Stores a body that arrives in pieces (an upload) without holding it whole. All or nothing: when
   * the source or the store fails, no object and no part of one is left at `key` or beside it.
   */
  putStream(key: string, body: AsyncIterable<Uint8Array>, options?: PutOptions): Promise<ObjectProperties>;
  get(key: string): Promise<{ body: Uint8Array; properties: ObjectProperties } | null>;
  head(key: string): Promise<ObjectProperties | null>;
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<ObjectProperties[]>;
  /** Round-trip check for diagnostics. */
  ping(): Promise<{ ok: boolean; latencyMs: number; error?: string }>;
  /** A link that downloads (GET or HEAD) the object until `expiresAt`. */
  presignGet(key: string, options?: PresignOptions): Promise<PresignedUrl>;
  /** A link that uploads (PUT) the object until `expiresAt`. */
  presignPut(key: string, options?: PresignOptions): Promise<PresignedUrl>;
  /** Signed GET or HEAD; a status of 300 or above throws an ObjectServiceError. */
  signedRequest(method: "GET" | "HEAD", key: string, options?: SignedRequestOptions): Promise<SignedResponse>;
}

/** Spec §8 "Expiry over the maximum": a URL-expiration-limit error (a bad-input error, HTTP 400). */
export class UrlExpirationLimitError extends Error {
  override name = "UrlExpirationLimitError";
  readonly code = "BAD_USER_INPUT";
  readonly reason = "URL_EXPIRATION_LIMIT";
  readonly requestedS: number;
  readonly maxS: number;
  constructor(requestedS: number, maxS: number = PRESIGN_MAX_EXPIRY_S) {
    super(
      `URL expiration limit exceeded: ${requestedS} s requested, the maximum is ${maxS} s (${maxS / 86_400} days)`,
    );
    this.requestedS = requestedS;
    this.maxS = maxS;
  }
}

/** A presign option that is not usable (non-positive expiry, unsafe disposition, …). */
export class InvalidPresignOptionsError extends Error {
  override name = "InvalidPresignOptionsError";
  readonly code = "BAD_USER_INPUT";
}

/** The session or credential the link would be signed for has already ended. */
export class PresignNotAllowedError extends Error {
  override name = "PresignNotAllowedError";
  readonly code = "UNAUTHENTICATED";
}

/** Spec §8 "Object HEAD status 300 or above": the storage service's answer, parsed. */
export class ObjectServiceError extends Error {
  override name = "ObjectServiceError";
  readonly code = "STORAGE_SERVICE_ERROR";
  /** HTTP status of the storage service's answer. */
  readonly status: number;
  /** The service's error code, e.g. NoSuchKey, NotFound, AccessDenied. */
  readonly serviceCode: string;
  readonly key: string;
  readonly requestId: string | null;
  constructor(options: {
    status: number;
    serviceCode: string;
    key: string;
    message?: string;
    requestId?: string | null;
  }) {
    super(
      options.message ??
        `Storage service answered ${options.status} (${options.serviceCode}) for ${options.key}`,
    );
    this.status = options.status;
    this.serviceCode = options.serviceCode;
    this.key = options.key;
    this.requestId = options.requestId ?? null;
  }
}

/**
 * The lifetime of a link signed at `nowMs`: the requested seconds (default 3600), refused above
 * 7 days, capped to `notAfterMs` (never later than the session or credential).
 */
export function resolveLinkExpiry(
  options: Pick<PresignOptions, "expiresInS" | "notAfterMs">,
  nowMs: number,
): { expiresInS: number; expiresAt: Date } {
  const requested = options.expiresInS ?? PRESIGN_DEFAULT_EXPIRY_S;
  if (typeof requested !== "number" || !Number.isFinite(requested) || requested < 1) {
    throw new InvalidPresignOptionsError(
      `Presigned URL expiry must be at least 1 second, got ${String(requested)}`,
    );
  }
  if (requested > PRESIGN_MAX_EXPIRY_S) throw new UrlExpirationLimitError(requested);
  let remainingS: number | null = null;
  if (options.notAfterMs !== undefined) {
    if (!Number.isFinite(options.notAfterMs)) {
      throw new InvalidPresignOptionsError("notAfterMs must be an epoch time in milliseconds");
    }
    remainingS = Math.floor((options.notAfterMs - nowMs) / 1000);
    if (remainingS < 1) {
      throw new PresignNotAllowedError("The session or credential has ended; no link can be signed for it.");
    }
  }
  let expiresInS: number;
  try {
    expiresInS = resolvePresignExpiry(requested, remainingS);
  } catch (error) {
    if (error instanceof PresignExpiryLimitError) throw new UrlExpirationLimitError(requested);
    throw error;
  }
  return { expiresInS, expiresAt: new Date(nowMs + expiresInS * 1000) };
}

/** A Content-Disposition value safe to echo: inline or attachment, optional plain filename. */
const DISPOSITION = /^(inline|attachment)(; ?filename="[A-Za-z0-9 ._()-]{1,200}")?$/;

export function assertSafeDisposition(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!DISPOSITION.test(value)) {
    throw new InvalidPresignOptionsError(
      'responseContentDisposition must be inline or attachment with an optional filename="…" of safe characters',
    );
  }
  return value;
}

const CONTENT_TYPE = /^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*(; ?charset=[a-z0-9-]+)?$/i;

export function isValidContentType(value: string): boolean {
  return value.length <= 200 && CONTENT_TYPE.test(value);
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
