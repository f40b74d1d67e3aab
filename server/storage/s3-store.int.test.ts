import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createObjectStore } from "./index.ts";
import { ObjectServiceError, UrlExpirationLimitError } from "./object-store.ts";
import { parseS3Url, S3ObjectStore } from "./s3-store.ts";

describe("S3ObjectStore against s3rver", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-s3rver-"));
  let s3rver: S3rver;
  let endpoint = "";
  let clock = Date.now();
  let store: S3ObjectStore;

  beforeAll(async () => {
    s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: dir,
      configureBuckets: [{ name: "test-bucket" }],
    });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
    const made = await createObjectStore({
      storageUrl: `s3://test-bucket?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
      dataDir: dir,
      now: () => clock,
    });
    expect(made).toBeInstanceOf(S3ObjectStore);
    store = made as S3ObjectStore;
  });
  afterAll(async () => {
    store?.client.destroy();
    await s3rver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("parses STORAGE_URL", () => {
    expect(parseS3Url("s3://b?endpoint=http://x:9000&region=eu-west-1&forcePathStyle=true")).toEqual({
      bucket: "b",
      endpoint: "http://x:9000",
      region: "eu-west-1",
      forcePathStyle: true,
      credentials: undefined,
    });
    expect(parseS3Url("s3://b").region).toBe("us-east-1");
    expect(() => parseS3Url("s3://b?accessKeyId=x")).toThrow(/go together/);
    expect(() => parseS3Url("http://b")).toThrow();
  });

  it("round-trips put, get, head, list and delete; ping works", async () => {
    const put = await store.put("media/s3/one.txt", "hello s3", {
      contentType: "text/plain",
      metadata: { owner: "u1" },
    });
    expect(put).toMatchObject({
      key: "media/s3/one.txt",
      size: 8,
      contentType: "text/plain",
      metadata: { owner: "u1" },
    });
    expect(put.eTag).toMatch(/^".+"$/);
    await store.put("media/s3/two.bin", new Uint8Array([1, 2, 3]));
    const got = await store.get("media/s3/one.txt");
    expect(new TextDecoder().decode(got!.body)).toBe("hello s3");
    expect(got!.properties.contentType).toBe("text/plain");
    expect((await store.head("media/s3/two.bin"))?.size).toBe(3);
    expect((await store.list("media/s3/")).map((p) => p.key)).toEqual([
      "media/s3/one.txt",
      "media/s3/two.bin",
    ]);
    await store.delete("media/s3/one.txt");
    expect(await store.get("media/s3/one.txt")).toBeNull();
    expect(await store.head("media/s3/one.txt")).toBeNull();
    await store.delete("media/s3/never.txt");
    expect((await store.ping()).ok).toBe(true);
  });

  it("putStream sends a short body as one PUT and a long one as a multipart upload, aborted on failure", async () => {
    const small = new S3ObjectStore({
      ...parseS3Url(
        `s3://test-bucket?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
      ),
      partBytes: 1024,
    });
    async function* pieces(total: number, fail = false) {
      for (let sent = 0; sent < total; sent += 300) {
        if (fail && sent > 2000) throw new Error("the client went away");
        yield new Uint8Array(Math.min(300, total - sent)).fill(sent % 251);
      }
    }
    try {
      const one = await small.putStream("media/s3/short.bin", pieces(900), { contentType: "video/webm" });
      expect(one).toMatchObject({ size: 900, contentType: "video/webm" });
      const many = await small.putStream("media/s3/long.bin", pieces(5000), {
        contentType: "video/mp4",
        metadata: { owner: "m1" },
      });
      expect(many).toMatchObject({ size: 5000, contentType: "video/mp4", metadata: { owner: "m1" } });
      const back = await small.get("media/s3/long.bin");
      expect(back!.body.byteLength).toBe(5000);
      expect(back!.body[4999]).toBe(4800 % 251);
      await expect(small.putStream("media/s3/broken.bin", pieces(5000, true))).rejects.toThrow(/went away/);
      expect(await small.head("media/s3/broken.bin")).toBeNull();
    } finally {
      small.client.destroy();
    }
  });

  it("refuses invalid keys before calling S3", async () => {
    await expect(store.put("../x", "x")).rejects.toThrow(/Invalid object key/);
    await expect(store.presignGet("media/../x")).rejects.toThrow(/Invalid object key/);
  });

  it("presigned GET works before expiry and fails after", async () => {
    await store.put("media/s3/link.txt", "linked", { contentType: "text/plain" });
    const { url, expiresAt } = await store.presignGet("media/s3/link.txt", { expiresInS: 2 });
    expect(expiresAt.getTime()).toBe(clock + 2000);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("linked");
    // Signed 10 s ago with 2 s to live: already expired.
    clock = Date.now() - 10_000;
    try {
      const expired = await store.presignGet("media/s3/link.txt", { expiresInS: 2 });
      const res = await fetch(expired.url);
      expect(res.status).toBe(403);
      expect(await res.text()).toMatch(/expired/i);
    } finally {
      clock = Date.now();
    }
  });

  it("default expiry is 3600 s, over 7 days is refused, notAfterMs caps", async () => {
    clock = Date.now();
    const def = await store.presignGet("media/s3/link.txt");
    expect(new URL(def.url).searchParams.get("X-Amz-Expires")).toBe("3600");
    await expect(store.presignGet("media/s3/link.txt", { expiresInS: 604_801 })).rejects.toBeInstanceOf(
      UrlExpirationLimitError,
    );
    const capped = await store.presignGet("media/s3/link.txt", {
      expiresInS: 3600,
      notAfterMs: clock + 30_000,
    });
    expect(new URL(capped.url).searchParams.get("X-Amz-Expires")).toBe("30");
    expect(capped.expiresAt.getTime()).toBeLessThanOrEqual(clock + 30_000);
    const week = await store.presignGet("media/s3/link.txt", { expiresInS: 604_800 });
    expect((await fetch(week.url)).status).toBe(200);
  });

  it("presigned GET can set the download disposition", async () => {
    const { url } = await store.presignGet("media/s3/link.txt", {
      responseContentDisposition: 'attachment; filename="link.txt"',
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="link.txt"');
  });

  it("presigned PUT uploads", async () => {
    const { url } = await store.presignPut("media/s3/uploaded.png", { contentType: "image/png" });
    const res = await fetch(url, {
      method: "PUT",
      body: new Uint8Array([137, 80, 78, 71]),
      headers: { "content-type": "image/png" },
    });
    expect(res.status).toBe(200);
    expect(await store.head("media/s3/uploaded.png")).toMatchObject({ size: 4, contentType: "image/png" });
  });

  it("signedRequest: HEAD and GET, and a missing key → parsed service error with status 404", async () => {
    await store.put("media/s3/signed.txt", "signed", { contentType: "text/plain" });
    const head = await store.signedRequest("HEAD", "media/s3/signed.txt");
    expect(head.status).toBe(200);
    expect(head.properties.size).toBe(6);
    const get = await store.signedRequest("GET", "media/s3/signed.txt", { checkExists: true });
    expect(new TextDecoder().decode(get.body)).toBe("signed");
    const error = await store.signedRequest("HEAD", "media/s3/missing.txt").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ObjectServiceError);
    expect((error as ObjectServiceError).status).toBe(404);
    expect((error as ObjectServiceError).serviceCode).toBe("NotFound");
    const getError = await store.signedRequest("GET", "media/s3/missing.txt").catch((e: unknown) => e);
    expect(getError).toBeInstanceOf(ObjectServiceError);
    expect((getError as ObjectServiceError).status).toBe(404);
    expect((getError as ObjectServiceError).serviceCode).toBe("NoSuchKey");
    await expect(
      store.signedRequest("GET", "media/s3/missing.txt", { checkExists: true }),
    ).rejects.toMatchObject({ status: 404, serviceCode: "NotFound" });
  });

  it("a missing bucket gives a failed ping and parsed errors", async () => {
    const other = new S3ObjectStore({
      bucket: "no-such-bucket",
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    try {
      const ping = await other.ping();
      expect(ping.ok).toBe(false);
      const error = await other.signedRequest("HEAD", "media/x.txt").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ObjectServiceError);
      expect((error as ObjectServiceError).status).toBe(404);
    } finally {
      other.client.destroy();
    }
  });
});
