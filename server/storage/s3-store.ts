import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
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

export interface S3StoreOptions {
  bucket: string;
  /** Custom endpoint (MinIO, s3rver, R2, …); AWS when absent. */
  endpoint?: string;
  region?: string;
  forcePathStyle?: boolean;
  /** Static credentials; when absent the AWS SDK's default chain (AWS_ACCESS_KEY_ID, …) applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** The clock (epoch ms) used as the signing time of links; tests move it. Default Date.now. */
  now?: () => number;
  /** Part size of streamed uploads (S3 wants at least 5 MiB for every part but the last). */
  partBytes?: number;
}

/** Part size of streamed uploads: one part is held in memory at a time. */
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

/** Pieces of a stream regrouped into buffers of `size` bytes (the last one shorter). */
async function* partsOf(body: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let part = new Uint8Array(size);
  let filled = 0;
  for await (const chunk of body) {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const n = Math.min(size - filled, chunk.byteLength - offset);
      part.set(chunk.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === size) {
        yield part;
        part = new Uint8Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part.subarray(0, filled);
}

/**
 * Parses STORAGE_URL `s3://bucket?endpoint=https://…&region=eu-west-1&forcePathStyle=true`.
 * Credentials come from the `accessKeyId` and `secretAccessKey` (optional `sessionToken`) query
 * parameters, or else from the AWS SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
 * AWS_SESSION_TOKEN, shared config files, instance roles). Region defaults to us-east-1.
 */
export function parseS3Url(storageUrl: string): S3StoreOptions {
  const match = /^s3:\/\/([^/?#]+)\/?(?:\?(.*))?$/.exec(storageUrl);
  if (!match) throw new Error("STORAGE_URL: expected s3://bucket?endpoint=…&region=…");
  const bucket = decodeURIComponent(match[1]!);
  const query = new URLSearchParams(match[2] ?? "");
  const accessKeyId = query.get("accessKeyId");
  const secretAccessKey = query.get("secretAccessKey");
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new Error("STORAGE_URL: accessKeyId and secretAccessKey go together");
  }
  const forcePathStyle = query.get("forcePathStyle");
  return {
    bucket,
    endpoint: query.get("endpoint") ?? undefined,
    region: query.get("region") ?? "us-east-1",
    forcePathStyle: forcePathStyle === "true" || forcePathStyle === "1",
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, sessionToken: query.get("sessionToken") ?? undefined }
        : undefined,
  };
}

/** Turns an SDK failure into an ObjectServiceError (HTTP status and S3 error code). */
export function parseServiceError(error: unknown, key: string): ObjectServiceError {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode ?? 500;
    // A HEAD answer has no body: the SDK names the error after the status ("NotFound", "403", …).
    const serviceCode =
      error.name && !/^\d+$/.test(error.name) && error.name !== "Unknown"
        ? error.name
        : status === 404
          ? "NotFound"
          : status === 403
            ? "Forbidden"
            : status === 301
              ? "PermanentRedirect"
              : `Http${status}`;
    return new ObjectServiceError({
      status,
      serviceCode,
      key,
      requestId: error.$metadata.requestId ?? null,
      message: `Storage service answered ${status} (${serviceCode}) for ${key}`,
    });
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return new ObjectServiceError({
    status: status ?? 500,
    serviceCode: (error as Error)?.name ?? "UnknownError",
    key,
    message: `Storage request failed for ${key}: ${(error as Error)?.message ?? String(error)}`,
  });
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound";
}

/** S3-compatible object storage (AWS S3, MinIO, R2, s3rver in tests). */
export class S3ObjectStore implements ObjectStore {
  readonly kind = "s3-compatible";
  readonly bucket: string;
  readonly client: S3Client;
  readonly now: () => number;
  readonly partBytes: number;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.now = options.now ?? Date.now;
    this.partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
    this.client = new S3Client({
      region: options.region ?? "us-east-1",
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // Checksums only where S3 requires them: S3-compatible services differ in their support.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private properties(key: string, out: Omit<HeadObjectCommandOutput, "$metadata">): ObjectProperties {
    return {
      key,
      contentType: out.ContentType ?? "application/octet-stream",
      size: out.ContentLength ?? 0,
      eTag: out.ETag ?? "",
      lastModified: (out.LastModified ?? new Date(0)).toISOString(),
      metadata: out.Metadata ?? {},
      versionId: out.VersionId ?? null,
    };
  }

  async put(key: string, body: Uint8Array | string, options: PutOptions = {}): Promise<ObjectProperties> {
    assertValidKey(key);
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: options.contentType ?? "application/octet-stream",
        Metadata: options.metadata,
      }),
    );
    const props = await this.head(key);
    if (!props) throw new ObjectServiceError({ status: 404, serviceCode: "NotFound", key });
    return props;
  }

  /**
   * A body of at most one part is one PUT; a longer one is a multipart upload, one part in memory
   * at a time, aborted (its parts discarded by S3) when the source or a part fails.
   */
  async putStream(
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: PutOptions = {},
  ): Promise<ObjectProperties> {
    assertValidKey(key);
    const parts = partsOf(body, this.partBytes)[Symbol.asyncIterator]();
    const first = await parts.next();
    const second = first.done ? first : await parts.next();
    if (second.done) return this.put(key, first.value ?? new Uint8Array(), options);

    const target = { Bucket: this.bucket, Key: key };
    const created = await this.client
      .send(
        new CreateMultipartUploadCommand({
          ...target,
          ContentType: options.contentType ?? "application/octet-stream",
          Metadata: options.metadata,
        }),
      )
      .catch((error: unknown) => {
        throw parseServiceError(error, key);
      });
    const uploadId = created.UploadId!;
    const done: { ETag: string; PartNumber: number }[] = [];
    const send = async (bytes: Uint8Array) => {
      const PartNumber = done.length + 1;
      const out = await this.client.send(
        new UploadPartCommand({
          ...target,
          UploadId: uploadId,
          PartNumber,
          Body: bytes,
          ContentLength: bytes.byteLength,
        }),
      );
      done.push({ ETag: out.ETag ?? "", PartNumber });
    };
    try {
      await send(first.value!);
      await send(second.value);
      for (let next = await parts.next(); !next.done; next = await parts.next()) await send(next.value);
      await this.client.send(
        new CompleteMultipartUploadCommand({
          ...target,
          UploadId: uploadId,
          MultipartUpload: { Parts: done },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId }))
        .catch(() => {});
      throw error instanceof S3ServiceException ? parseServiceError(error, key) : error;
    }
    const props = await this.head(key);
    if (!props) throw new ObjectServiceError({ status: 404, serviceCode: "NotFound", key });
    return props;
  }

  async head(key: string): Promise<ObjectProperties | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return this.properties(key, out);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw parseServiceError(error, key);
    }
  }

  async get(key: string): Promise<{ body: Uint8Array; properties: ObjectProperties } | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      return { body, properties: { ...this.properties(key, out), size: body.byteLength } };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw parseServiceError(error, key);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return;
      throw parseServiceError(error, key);
    }
  }

  /** Lists by prefix; content type and metadata come from one HEAD per object (10 at a time). */
  async list(prefix: string): Promise<ObjectProperties[]> {
    assertValidPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix || undefined,
            ContinuationToken: token,
          }),
        )
        .catch((error: unknown) => {
          throw parseServiceError(error, prefix);
        });
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    const out: ObjectProperties[] = [];
    for (let i = 0; i < keys.length; i += 10) {
      const batch = await Promise.all(keys.slice(i, i + 10).map((k) => this.head(k).catch(() => null)));
      for (const props of batch) if (props) out.push(props);
    }
    return out.sort((a, b) => a.key.localeCompare(b.key));
  }

  async ping(): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
    const started = performance.now();
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return { ok: true, latencyMs: performance.now() - started };
    } catch (error) {
      const parsed = parseServiceError(error, this.bucket);
      return { ok: false, latencyMs: performance.now() - started, error: parsed.message };
    }
  }

  async presignGet(key: string, options: PresignOptions = {}): Promise<PresignedUrl> {
    assertValidKey(key);
    const disposition = assertSafeDisposition(options.responseContentDisposition);
    const nowMs = this.now();
    const { expiresInS, expiresAt } = resolveLinkExpiry(options, nowMs);
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: disposition }),
      { expiresIn: expiresInS, signingDate: new Date(nowMs) },
    );
    return { url, expiresAt };
  }

  async presignPut(key: string, options: PresignOptions = {}): Promise<PresignedUrl> {
    assertValidKey(key);
    if (options.contentType !== undefined && !isValidContentType(options.contentType)) {
      throw new InvalidPresignOptionsError(`Invalid content type: ${JSON.stringify(options.contentType)}`);
    }
    const nowMs = this.now();
    const { expiresInS, expiresAt } = resolveLinkExpiry(options, nowMs);
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType }),
      { expiresIn: expiresInS, signingDate: new Date(nowMs) },
    );
    return { url, expiresAt };
  }

  /**
   * Signed GET or HEAD (spec §7). HEAD: a status of 300 or above throws a parsed ObjectServiceError.
   * GET with `checkExists`: a HEAD first, so a missing key fails the same way before any body is read.
   */
  async signedRequest(
    method: "GET" | "HEAD",
    key: string,
    options: SignedRequestOptions = {},
  ): Promise<SignedResponse> {
    assertValidKey(key);
    const owner = options.expectedBucketOwner;
    const head = async (): Promise<SignedResponse> => {
      try {
        const out = await this.client.send(
          new HeadObjectCommand({ Bucket: this.bucket, Key: key, ExpectedBucketOwner: owner }),
        );
        return { status: out.$metadata.httpStatusCode ?? 200, properties: this.properties(key, out) };
      } catch (error) {
        throw parseServiceError(error, key);
      }
    };
    if (method === "HEAD") return head();
    if (options.checkExists) await head();
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ExpectedBucketOwner: owner }),
      );
      const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      return {
        status: out.$metadata.httpStatusCode ?? 200,
        properties: { ...this.properties(key, out), size: body.byteLength },
        body,
      };
    } catch (error) {
      throw parseServiceError(error, key);
    }
  }
}
