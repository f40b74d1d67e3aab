/**
 * Media uploads and the media library (POST/GET/PATCH /api/media, GET /api/media/:id/file): every
 * accepted kind, types checked by their bytes, size limits declared and streamed, alt text for
 * images, who may upload, paging, and an uploaded image shown in a body through `media:<id>`.
 * The same upload is run against S3 (s3rver) to take the multipart path.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import type { MediaItem } from "../../server/modules/media/media.types.ts";
import { buildContent } from "../factories/index.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const MiB = 1024 * 1024;
const DEMO = path.resolve(import.meta.dirname, "../../server/db/seed/demo/media");
const demoFile = (name: string) => new Uint8Array(readFileSync(path.join(DEMO, name)));
const POSTER = demoFile("video-prompt-clinic.jpg");
const CLIP = demoFile("video-prompt-clinic.webm");
const CAPTIONS = demoFile("video-prompt-clinic.en.vtt");

/** A PNG header of the given size (IHDR), padded with `extra` bytes. */
function png(width: number, height: number, extra = 0): Uint8Array {
  const out = new Uint8Array(33 + extra);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(out.buffer).setUint32(16, width);
  new DataView(out.buffer).setUint32(20, height);
  return out;
}
const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

/** A body sent in pieces with no Content-Length (chunked), as a browser stream would. */
function chunked(head: Uint8Array, total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(head);
        sent = head.byteLength;
        return;
      }
      if (sent >= total) return controller.close();
      const n = Math.min(256 * 1024, total - sent);
      controller.enqueue(new Uint8Array(n));
      sent += n;
    },
  });
}

interface UploadOptions {
  type: string;
  alt?: string;
  name?: string;
  cookie?: string;
  origin?: string | null;
  signal?: AbortSignal;
}

function uploader(baseUrl: () => string) {
  return (body: Uint8Array | ReadableStream<Uint8Array>, o: UploadOptions) => {
    const query = o.alt === undefined ? "" : `?alt=${encodeURIComponent(o.alt)}`;
    const headers: Record<string, string> = { "content-type": o.type };
    if (o.origin !== null) headers.origin = o.origin ?? baseUrl();
    if (o.cookie) headers.cookie = o.cookie;
    if (o.name) headers["x-file-name"] = encodeURIComponent(o.name);
    return fetch(`${baseUrl()}/api/media${query}`, {
      method: "POST",
      headers,
      body: body as BodyInit,
      signal: o.signal,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
  };
}

/** The bytes behind a media item's stable address (it redirects to a signed link). */
async function fileOf(baseUrl: string, media: MediaItem): Promise<{ redirect: Response; file: Response }> {
  const redirect = await fetch(new URL(media.url, baseUrl), { redirect: "manual" });
  const location = redirect.headers.get("location") ?? "";
  return { redirect, file: await fetch(new URL(location, baseUrl)) };
}

/** POST with a Content-Length header that promises more than is sent (a declared size). */
function declaredUpload(baseUrl: string, cookie: string, type: string, declared: number, head: Uint8Array) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(`${baseUrl}/api/media?alt=x`);
    const req = httpRequest(
      url,
      {
        method: "POST",
        // What fetch sends: the session is bound to the device it signed in from.
        headers: {
          "content-type": type,
          "content-length": String(declared),
          origin: baseUrl,
          cookie,
          "user-agent": "node",
          "accept-language": "*",
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          body += c;
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      },
    );
    req.on("error", reject);
    req.write(head);
  });
}

describe.each(DIALECTS)("media uploads (%s)", (dialect) => {
  let server: TestServer;
  let manager = "";
  const upload = uploader(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    manager = await signIn(server.url, "manager@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Objects under media/ and rows of media_object: nothing may be left by a refused upload. */
  const stored = async () => ({
    objects: (await server.runtime.storage.list("media/")).length,
    rows: Number(
      (
        await server.runtime.database.db
          .selectFrom("media_object")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it("stores each kind with its type, size, name and (for images) dimensions and alt text", async () => {
    const image = await upload(png(640, 480, 100), {
      type: "image/png",
      alt: "A bar chart",
      name: "Q3 chart (ü).png",
      cookie: manager,
    });
    expect(image.status).toBe(201);
    const { media } = (await image.json()) as { media: MediaItem };
    expect(media).toMatchObject({
      kind: "image",
      contentType: "image/png",
      size: 133,
      width: 640,
      height: 480,
      alt: "A bar chart",
      fileName: "Q3 chart (ü).png",
      ref: `media:${media.id}`,
      url: `/api/media/${media.id}/file`,
    });
    expect(media.ownerName).toBeTruthy();

    const cases: Array<[Uint8Array, string, Partial<MediaItem>]> = [
      [POSTER, "image/jpeg", { kind: "image", width: 640, height: 360 }],
      [CLIP, "video/webm", { kind: "video", width: null, height: null }],
      [CAPTIONS, "text/vtt", { kind: "captions" }],
    ];
    for (const [bytes, type, expected] of cases) {
      const res = await upload(bytes, {
        type,
        alt: "Poster",
        cookie: manager,
        name: `demo.${type.split("/")[1]}`,
      });
      expect(res.status, type).toBe(201);
      const item = ((await res.json()) as { media: MediaItem }).media;
      expect(item).toMatchObject({ ...expected, contentType: type, size: bytes.byteLength });
      const { redirect, file } = await fileOf(server.url, item);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get("cache-control")).toMatch(/max-age=/);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toContain(type);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    }
    // An MP4 is recognised by its ftyp box.
    const mp4 = new Uint8Array(64);
    mp4.set([0, 0, 0, 24, ...new TextEncoder().encode("ftypisom")]);
    expect((await upload(mp4, { type: "video/mp4", cookie: manager })).status).toBe(201);
  });

  it("refuses types it does not take, and content that is not what the Content-Type says (415)", async () => {
    const before = await stored();
    const pdf = await upload(new TextEncoder().encode("%PDF-1.7"), {
      type: "application/pdf",
      cookie: manager,
    });
    expect(pdf.status).toBe(415);
    expect((await pdf.json()).error.message).toMatch(/application\/pdf is not accepted.*image\/png/);

    const svg = await upload(SVG, { type: "image/svg+xml", alt: "x", cookie: manager });
    expect(svg.status).toBe(415);
    expect((await svg.json()).error.message).toMatch(/SVG/);

    const svgAsPng = await upload(SVG, { type: "image/png", alt: "x", cookie: manager });
    expect(svgAsPng.status).toBe(415);
    expect((await svgAsPng.json()).error.message).toMatch(/SVG/);

    const pngAsJpeg = await upload(png(10, 10), { type: "image/jpeg", alt: "x", cookie: manager });
    expect(pngAsJpeg.status).toBe(415);
    expect((await pngAsJpeg.json()).error).toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: expect.stringMatching(/PNG image.*sent as image\/jpeg/),
    });

    const webmAsMp4 = await upload(CLIP, { type: "video/mp4", cookie: manager });
    expect(webmAsMp4.status).toBe(415);
    const textAsVtt = await upload(new TextEncoder().encode("1\n00:00:01,000 --> 00:00:02,000\nSRT"), {
      type: "text/vtt",
      cookie: manager,
    });
    expect(textAsVtt.status).toBe(415);
    const empty = await upload(new Uint8Array(), { type: "image/png", alt: "x", cookie: manager });
    expect(empty.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it("refuses files over the kind's limit, declared up front or found while streaming (413)", async () => {
    const before = await stored();
    const declared = await declaredUpload(server.url, manager, "image/png", 10 * MiB + 1, png(10, 10));
    expect(declared.status, declared.body).toBe(413);
    expect(JSON.parse(declared.body).error.message).toMatch(/Images are limited to 10 MiB/);

    const streamedImage = await upload(chunked(png(10, 10), 10 * MiB + 1), {
      type: "image/png",
      alt: "big",
      cookie: manager,
    });
    expect(streamedImage.status).toBe(413);
    expect((await streamedImage.json()).error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: expect.stringMatching(/10 MiB/),
    });

    const vtt = new TextEncoder().encode("WEBVTT\n\n");
    const streamedCaptions = await upload(chunked(vtt, MiB + 10), { type: "text/vtt", cookie: manager });
    expect(streamedCaptions.status).toBe(413);
    expect((await streamedCaptions.json()).error.message).toMatch(/Caption files are limited to 1 MiB/);
    expect(await stored()).toEqual(before);
  });

  it("keeps nothing of an upload the client abandons halfway", async () => {
    const before = await stored();
    const controller = new AbortController();
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        chunks += 1;
        if (chunks === 1) c.enqueue(new Uint8Array(CLIP.subarray(0, 64)));
        else if (chunks < 40) c.enqueue(new Uint8Array(64 * 1024));
        else controller.abort();
      },
    });
    await expect(
      upload(body, { type: "video/webm", cookie: manager, signal: controller.signal }),
    ).rejects.toThrow();
    const folder = path.join(server.dataDir, "objects", "data", "media");
    const leftovers = () => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(".tmp")) : []);
    // The server notices the closed connection on its own schedule: wait for its clean-up.
    await vi.waitFor(
      async () => {
        expect(leftovers()).toEqual([]);
        expect(await stored()).toEqual(before);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("requires alt text for images (400 naming alt)", async () => {
    for (const alt of [undefined, "   "]) {
      const res = await upload(png(10, 10), { type: "image/png", alt, cookie: manager });
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toMatchObject({ alt: expect.any(String) });
    }
  });

  it("is for signed-in content writers, from this site", async () => {
    expect((await upload(png(1, 1), { type: "image/png", alt: "x" })).status).toBe(401);
    expect((await fetch(`${server.url}/api/media`)).status).toBe(401);
    const free = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
    expect((await upload(png(1, 1), { type: "image/png", alt: "x", cookie: free })).status).toBe(403);
    expect((await fetch(`${server.url}/api/media`, { headers: { cookie: free } })).status).toBe(403);
    const foreign = await upload(png(1, 1), {
      type: "image/png",
      alt: "x",
      cookie: manager,
      origin: "https://evil.example",
    });
    expect(foreign.status).toBe(403);
  });

  it("lists the writer's library newest first, by kind and search, a page at a time; alt text can change", async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await upload(png(n, n), {
        type: "image/png",
        alt: `Library shot ${n}`,
        name: `library-${n}.png`,
        cookie: manager,
      });
      ids.push(((await res.json()) as { media: MediaItem }).media.id);
    }
    const get = async (query: string) => {
      const res = await fetch(`${server.url}/api/media?${query}`, { headers: { cookie: manager } });
      return {
        status: res.status,
        body: (await res.json()) as { items: MediaItem[]; nextCursor: string | null },
      };
    };
    const first = await get("kind=image&q=library-&limit=2");
    expect(first.status).toBe(200);
    expect(first.body.items.map((m) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.nextCursor).toBeTruthy();
    const second = await get(`kind=image&q=library-&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((m) => m.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    expect((await get("q=SHOT 2")).body.items.map((m) => m.id)).toEqual([ids[1]]);
    expect((await get("q=100%25")).body.items).toEqual([]);
    expect((await get("kind=video")).body.items.every((m) => m.kind === "video")).toBe(true);
    expect((await get("limit=0")).status).toBe(400);
    expect((await get("kind=pdf")).status).toBe(400);
    expect((await get("cursor=nonsense")).status).toBe(400);

    // Another writer's library does not list them; a platform admin's does.
    const admin = await signIn(server.url, "admin@demo.local", DEMO_PASSWORD);
    const adminList = await fetch(`${server.url}/api/media?q=library-`, { headers: { cookie: admin } });
    expect(((await adminList.json()) as { items: MediaItem[] }).items).toHaveLength(3);

    const patch = (id: string, body: unknown, cookie = manager) =>
      fetch(`${server.url}/api/media/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", origin: server.url, cookie },
        body: JSON.stringify(body),
      });
    const changed = await patch(ids[0]!, { alt: "A clearer description" });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { media: MediaItem }).media.alt).toBe("A clearer description");
    const cleared = await patch(ids[0]!, { alt: "" });
    expect(cleared.status).toBe(400);
    expect((await cleared.json()).error.field).toMatchObject({ alt: expect.any(String) });
    expect((await patch(ids[0]!, { alt: "x", key: "private/x" })).status).toBe(400);
    expect((await patch("0190a1b2-c3d4-7e5f-8a9b-0000000000ff", { alt: "x" })).status).toBe(404);
    expect((await fetch(`${server.url}/api/media/not-an-id/file`)).status).toBe(404);
  });

  it("shows an uploaded image in a body written as ![alt](media:<id>), to any reader", async () => {
    const res = await upload(png(320, 200), { type: "image/png", alt: "Library alt", cookie: manager });
    const { media } = (await res.json()) as { media: MediaItem };
    const built = buildContent(
      { title: "Media in a body", slug: "media-in-a-body" },
      `## Figures\n\n![A diagram](media:${media.id})\n\n![](media:${media.id})\n\n![x](media:0190a1b2-c3d4-7e5f-8a9b-0000000000ff)\n`,
    );
    await server.runtime.storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
      contentType: "text/markdown",
    });
    await createContentRepo(server.runtime.database.db).create(built.row);
    await server.runtime.contentChanges.check();

    const html = await (await fetch(`${server.url}/content/media-in-a-body`)).text();
    const images = html.match(/<img[^>]*>/g)?.filter((t) => t.includes("/api/media/")) ?? [];
    expect(images).toHaveLength(2);
    expect(images[0]).toContain(`src="/api/media/${media.id}/file"`);
    expect(images[0]).toContain('width="320"');
    expect(images[0]).toContain('height="200"');
    expect(images[0]).toContain('alt="A diagram"');
    expect(images[1]).toContain('alt="Library alt"');
    expect(html).not.toContain("media:0190a1b2-c3d4-7e5f-8a9b-0000000000ff");
    const { file } = await fileOf(server.url, media);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
  });
});

describe.skipIf(!DIALECTS.includes("sqlite"))("media uploads on S3 (multipart)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-media-s3-"));
  let s3rver: S3rver;
  let server: TestServer;
  let manager = "";
  const upload = uploader(() => server.url);

  beforeAll(async () => {
    s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: path.join(dir, "s3"),
      configureBuckets: [{ name: "media-bucket" }],
    });
    const { port } = await s3rver.run();
    const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
    server = await startTestServer("sqlite", {
      STORAGE_URL: `s3://media-bucket?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
    });
    manager = await signIn(server.url, "manager@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await s3rver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("streams a video larger than one part as a multipart upload, and aborts one over the limit", async () => {
    const ebml = CLIP.subarray(0, 64);
    const total = 9 * MiB + 123;
    const res = await upload(chunked(ebml, total), {
      type: "video/webm",
      cookie: manager,
      name: "long.webm",
    });
    expect(res.status).toBe(201);
    const { media } = (await res.json()) as { media: MediaItem };
    expect(media).toMatchObject({ kind: "video", size: total, fileName: "long.webm" });
    const { redirect, file } = await fileOf(server.url, media);
    expect(redirect.status).toBe(302);
    expect(new URL(redirect.headers.get("location")!).searchParams.get("X-Amz-Signature")).toBeTruthy();
    expect((await file.arrayBuffer()).byteLength).toBe(total);

    const keys = async () => (await server.runtime.storage.list("media/")).map((o) => o.key).sort();
    const before = await keys();
    const tooBig = await upload(chunked(png(10, 10), 10 * MiB + 1), {
      type: "image/png",
      alt: "x",
      cookie: manager,
    });
    expect(tooBig.status).toBe(413);
    expect(await keys()).toEqual(before);
  });
});
