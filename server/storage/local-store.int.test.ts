import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../tests/helpers/test-server.ts";
import { LocalObjectStore } from "./local-store.ts";
import { ObjectServiceError, UrlExpirationLimitError } from "./object-store.ts";

describe("LocalObjectStore on disk", () => {
  const root = mkdtempSync(path.join(tmpdir(), "lumen-local-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const store = new LocalObjectStore(root, { secret: "local-int-secret-0123456789abcdef" });

  it("round-trips put, get, head, list and delete", async () => {
    const put = await store.put("media/a/one.txt", "hello", {
      contentType: "text/plain",
      metadata: { owner: "u1" },
    });
    expect(put).toMatchObject({
      key: "media/a/one.txt",
      size: 5,
      contentType: "text/plain",
      metadata: { owner: "u1" },
    });
    await store.put("media/a/two.bin", new Uint8Array([1, 2, 3]));
    const got = await store.get("media/a/one.txt");
    expect(new TextDecoder().decode(got!.body)).toBe("hello");
    expect((await store.head("media/a/two.bin"))?.contentType).toBe("application/octet-stream");
    expect((await store.list("media/a/")).map((p) => p.key)).toEqual(["media/a/one.txt", "media/a/two.bin"]);
    await store.delete("media/a/one.txt");
    expect(await store.get("media/a/one.txt")).toBeNull();
    expect(await store.head("media/a/one.txt")).toBeNull();
    expect((await store.ping()).ok).toBe(true);
  });

  it("putStream writes a streamed body whole, and leaves nothing when the source fails", async () => {
    async function* pieces(fail: boolean) {
      yield new TextEncoder().encode("hello ");
      yield new TextEncoder().encode("stream");
      if (fail) throw new Error("the client went away");
    }
    const put = await store.putStream("media/streamed.txt", pieces(false), { contentType: "text/plain" });
    expect(put).toMatchObject({ key: "media/streamed.txt", size: 12, contentType: "text/plain" });
    expect(new TextDecoder().decode((await store.get("media/streamed.txt"))!.body)).toBe("hello stream");
    await expect(store.putStream("media/broken.txt", pieces(true))).rejects.toThrow(/went away/);
    expect(await store.head("media/broken.txt")).toBeNull();
    const files = await import("node:fs/promises").then((fs) => fs.readdir(path.join(root, "data", "media")));
    expect(files.filter((f) => f.includes("broken"))).toEqual([]);
  });

  it("signedRequest reads the disk and throws a 404 service error for a missing key", async () => {
    await store.put("media/b.txt", "b", { contentType: "text/plain" });
    const head = await store.signedRequest("HEAD", "media/b.txt");
    expect(head.status).toBe(200);
    expect(head.properties.size).toBe(1);
    const get = await store.signedRequest("GET", "media/b.txt", { checkExists: true });
    expect(new TextDecoder().decode(get.body)).toBe("b");
    const error = await store.signedRequest("HEAD", "media/missing.txt").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ObjectServiceError);
    expect((error as ObjectServiceError).status).toBe(404);
    expect((error as ObjectServiceError).serviceCode).toBe("NotFound");
    await expect(store.signedRequest("GET", "media/missing.txt")).rejects.toMatchObject({ status: 404 });
  });

  it("refuses traversal keys", async () => {
    for (const key of ["../x", "media/../../x", "/etc/passwd", "media\\x", "media/%2e%2e/x"]) {
      await expect(store.put(key, "x")).rejects.toThrow(/Invalid object key/);
      await expect(store.get(key)).rejects.toThrow(/Invalid object key/);
    }
  });
});

/** A raw request (no client-side URL normalisation). */
function rawRequest(base: string, rawPath: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: rawPath, method: "GET" }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("signed object links over HTTP (local store)", () => {
  let server: TestServer;
  let clock = Date.now();
  let store: LocalObjectStore;

  beforeAll(async () => {
    clock = Date.now();
    server = await startTestServer("sqlite", {}, { now: () => clock });
    expect(server.runtime.storage).toBeInstanceOf(LocalObjectStore);
    store = server.runtime.storage as LocalObjectStore;
    await store.put("media/hello.md", "# Hello", { contentType: "text/markdown" });
    await store.put("media/page.html", "<script>alert(1)</script>", { contentType: "text/html" });
  });
  afterAll(async () => {
    await server?.close();
  });

  const at = (url: string) => `${server.url.replace(/\/$/, "")}${url}`;

  it("serves a valid link with its safe type and nosniff; HEAD too", async () => {
    const { url } = await store.presignGet("media/hello.md");
    const res = await fetch(at(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe("# Hello");
    const head = await fetch(at(url), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("7");
  });

  it("serves an unsafe type as an octet-stream attachment", async () => {
    const { url } = await store.presignGet("media/page.html", { responseContentDisposition: "inline" });
    const res = await fetch(at(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe("attachment");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a tampered signature, a changed key and a missing signature with 403 JSON", async () => {
    const { url } = await store.presignGet("media/hello.md");
    const u = new URL(at(url));
    const sig = u.searchParams.get("sig")!;
    u.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    const res = await fetch(u);
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toMatchObject({
      error: { code: "FORBIDDEN", message: expect.stringMatching(/signature/) },
    });
    expect((await fetch(at(url.replace("hello.md", "page.html")))).status).toBe(403);
    expect((await fetch(at("/api/objects/media/hello.md"))).status).toBe(403);
    // A GET link does not allow an upload.
    expect((await fetch(at(url), { method: "PUT", body: "x" })).status).toBe(403);
  });

  it("refuses an expired link with 403", async () => {
    const { url } = await store.presignGet("media/hello.md", { expiresInS: 2 });
    expect((await fetch(at(url))).status).toBe(200);
    clock += 2_000;
    try {
      const res = await fetch(at(url));
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { message: expect.stringMatching(/expired/) } });
    } finally {
      clock -= 2_000;
    }
  });

  it("caps a link to notAfterMs", async () => {
    const { url, expiresAt } = await store.presignGet("media/hello.md", {
      expiresInS: 3600,
      notAfterMs: clock + 5_000,
    });
    expect(expiresAt.getTime()).toBeLessThanOrEqual(clock + 5_000);
    clock += 5_000;
    try {
      expect((await fetch(at(url))).status).toBe(403);
    } finally {
      clock -= 5_000;
    }
    await expect(store.presignGet("media/hello.md", { expiresInS: 8 * 86_400 })).rejects.toBeInstanceOf(
      UrlExpirationLimitError,
    );
  });

  it("answers 404 for an unknown object with a valid link", async () => {
    const { url } = await store.presignGet("media/nothing.md");
    const res = await fetch(at(url));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("answers 400 for traversal and encoded paths", async () => {
    const { url } = await store.presignGet("media/hello.md");
    const query = url.slice(url.indexOf("?"));
    for (const p of [
      "/api/objects/media/..%2f..%2fetc%2fpasswd",
      "/api/objects/%2e%2e%2fsecret",
      "/api/objects/media%5c..%5csecret",
      "/api/objects/%2fetc%2fpasswd",
      "/api/objects/media//hello.md",
    ]) {
      const res = await fetch(at(`${p}${query}`));
      expect(res.status, p).toBe(400);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    // Raw ".." and "%2e%2e" segments are normalised before routing: never served.
    for (const p of [
      "/api/objects/../../etc/passwd",
      "/api/objects/%2e%2e/%2e%2e/etc/passwd",
      "/api/objects/media/../hello.md",
    ]) {
      const status = await rawRequest(server.url, `${p}${query}`);
      expect([400, 403, 404], p).toContain(status);
    }
  });

  it("accepts an upload through a presigned PUT link, with the signed content type and a size limit", async () => {
    const { url } = await store.presignPut("media/up/new.png", { contentType: "image/png" });
    const res = await fetch(at(url), {
      method: "PUT",
      body: new Uint8Array([137, 80, 78, 71]),
      headers: { "content-type": "text/html" },
    });
    expect(res.status).toBe(200);
    const head = await store.head("media/up/new.png");
    expect(head).toMatchObject({ size: 4, contentType: "image/png" });
    const { url: big } = await store.presignPut("media/up/big.bin");
    const tooBig = await fetch(at(big), { method: "PUT", body: new Uint8Array(25 * 1024 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    expect(await store.head("media/up/big.bin")).toBeNull();
    // A PUT link does not allow a download.
    expect((await fetch(at(url))).status).toBe(403);
  });
});
