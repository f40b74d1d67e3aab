/**
 * Media over GraphQL, through the same media service as REST /api/media: `uploadMedia` as a
 * multipart request (operations, map, files), `updateMediaAlt` and the `mediaLibrary` query. The
 * upload's type is read from its bytes, images need alt text and get their dimensions, refusals
 * store nothing, and multipart requests are taken only from content writers on this site, up to
 * the documented size.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { GRAPHQL_LIMITS } from "../../server/graphql/limits.ts";
import type { MediaItem } from "../../server/modules/media/media.types.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const CAPTIONS = new Uint8Array(
  readFileSync(
    path.resolve(import.meta.dirname, "../../server/db/seed/demo/media/video-prompt-clinic.en.vtt"),
  ),
);

/** A PNG header of the given size (IHDR), padded with `extra` bytes. */
function png(width: number, height: number, extra = 0): Uint8Array {
  const out = new Uint8Array(33 + extra);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(out.buffer).setUint32(16, width);
  new DataView(out.buffer).setUint32(20, height);
  return out;
}

const UPLOAD = `mutation Upload($file: File!, $alt: String) {
  uploadMedia(file: $file, alt: $alt) {
    id ref url kind contentType size width height alt fileName createdAt ownerName
  }
}`;

interface GqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

interface UploadOptions {
  type: string;
  name?: string;
  alt?: string;
  cookie?: string;
  origin?: string | null;
}

describe.each(DIALECTS)("GraphQL media (%s)", (dialect) => {
  let server: TestServer;
  let manager = "";
  let free = "";

  beforeAll(async () => {
    server = await startTestServer(dialect);
    manager = await signIn(server.url, "manager@demo.local", DEMO_PASSWORD);
    free = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A multipart request as the spec has it: `operations`, then `map`, then the file part "0". */
  async function upload(bytes: Uint8Array, o: UploadOptions): Promise<{ status: number; body: GqlAnswer }> {
    const form = new FormData();
    form.set(
      "operations",
      JSON.stringify({
        query: UPLOAD,
        variables: { file: null, ...(o.alt === undefined ? {} : { alt: o.alt }) },
      }),
    );
    form.set("map", JSON.stringify({ "0": ["variables.file"] }));
    form.set("0", new Blob([bytes as BlobPart], { type: o.type }), o.name ?? "file");
    const headers: Record<string, string> = {};
    if (o.origin !== null) headers.origin = o.origin ?? server.url;
    if (o.cookie) headers.cookie = o.cookie;
    const res = await fetch(`${server.url}/graphql`, { method: "POST", headers, body: form });
    return { status: res.status, body: (await res.json()) as GqlAnswer };
  }

  const gql = async (query: string, variables: Record<string, unknown>, cookie = manager) =>
    (await (await call(server.url, "/graphql", { query, variables }, { cookie })).json()) as GqlAnswer;

  /** Objects under media/ and rows of media_object: a refused upload leaves neither. */
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

  const codeOf = (body: GqlAnswer) => body.errors?.[0]?.extensions?.code;

  it("uploads a PNG with alt text, recording its dimensions, and serves it at its address", async () => {
    const bytes = png(800, 600, 50);
    const { status, body } = await upload(bytes, {
      type: "image/png",
      name: "Release chart.png",
      alt: "Downloads per release",
      cookie: manager,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.errors).toBeUndefined();
    const media = body.data!.uploadMedia as MediaItem;
    expect(media).toMatchObject({
      kind: "image",
      contentType: "image/png",
      size: bytes.byteLength,
      width: 800,
      height: 600,
      alt: "Downloads per release",
      fileName: "Release chart.png",
      ref: `media:${media.id}`,
      url: `/api/media/${media.id}/file`,
    });
    expect(media.ownerName).toBeTruthy();
    const redirect = await fetch(new URL(media.url, server.url), { redirect: "manual" });
    const file = await fetch(new URL(redirect.headers.get("location") ?? "", server.url));
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);

    const captions = await upload(CAPTIONS, { type: "text/vtt", name: "en.vtt", cookie: manager });
    expect(captions.body.data?.uploadMedia).toMatchObject({ kind: "captions", alt: null, width: null });
  });

  it("refuses an image without alt text, naming alt, and a file that is not what its type says", async () => {
    const before = await stored();
    const noAlt = await upload(png(10, 10), { type: "image/png", cookie: manager });
    expect(codeOf(noAlt.body)).toBe("BAD_USER_INPUT");
    expect(noAlt.body.errors![0]!.message).toMatch(/^alt:/);

    const lying = await upload(png(10, 10), { type: "image/jpeg", alt: "x", cookie: manager });
    expect(codeOf(lying.body)).toBe("BAD_USER_INPUT");
    expect(lying.body.errors![0]!.message).toMatch(/PNG image.*sent as image\/jpeg/);

    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>');
    const svgAsPng = await upload(svg, { type: "image/png", alt: "x", cookie: manager });
    expect(svgAsPng.body.errors![0]!.message).toMatch(/SVG/);

    const bigCaptions = new Uint8Array(1024 * 1024 + 10);
    bigCaptions.set(new TextEncoder().encode("WEBVTT\n\n"));
    const tooLarge = await upload(bigCaptions, { type: "text/vtt", cookie: manager });
    expect(codeOf(tooLarge.body)).toBe("BAD_USER_INPUT");
    expect(tooLarge.body.errors![0]!.message).toMatch(/Caption files are limited to 1 MiB/);
    expect(await stored()).toEqual(before);
  });

  it("refuses visitors, readers without a writer role and requests from other sites before reading", async () => {
    const before = await stored();
    const visitor = await upload(png(10, 10), { type: "image/png", alt: "x" });
    expect(visitor.status).toBe(401);
    expect(codeOf(visitor.body)).toBe("UNAUTHENTICATED");

    const reader = await upload(png(10, 10), { type: "image/png", alt: "x", cookie: free });
    expect(reader.status).toBe(403);
    expect(codeOf(reader.body)).toBe("FORBIDDEN");

    const foreign = await upload(png(10, 10), {
      type: "image/png",
      alt: "x",
      cookie: manager,
      origin: "https://elsewhere.example",
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors![0]!.message).toMatch(/did not come from this site/);

    const noOrigin = await upload(png(10, 10), {
      type: "image/png",
      alt: "x",
      cookie: manager,
      origin: null,
    });
    expect(noOrigin.status).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it("refuses a multipart request over its limit, pointing to POST /api/media", async () => {
    const big = png(10, 10, GRAPHQL_LIMITS.maxUploadBytes);
    const { status, body } = await upload(big, { type: "image/png", alt: "x", cookie: manager });
    expect(status).toBe(413);
    expect(body.errors![0]!.message).toMatch(/limited to 10 MiB.*POST \/api\/media/);
  });

  it("takes a File only from a multipart request", async () => {
    const body = await gql(UPLOAD, { file: "not a file", alt: "x" });
    expect(codeOf(body)).toBe("BAD_USER_INPUT");
  });

  it("lists the library by kind and text, a page at a time, and changes alt text", async () => {
    for (const alt of ["Library sunrise", "Library sunset"]) {
      expect((await upload(png(20, 10), { type: "image/png", alt, cookie: manager })).status).toBe(200);
    }
    const LIBRARY = `query ($kind: MediaKind, $q: String, $limit: Int, $nextToken: String) {
      mediaLibrary(kind: $kind, q: $q, limit: $limit, nextToken: $nextToken) { items { id alt kind } nextToken }
    }`;
    const first = await gql(LIBRARY, { kind: "image", q: "library sun", limit: 1 });
    const page1 = first.data!.mediaLibrary as { items: MediaItem[]; nextToken: string | null };
    expect(page1.items.map((m) => m.alt)).toEqual(["Library sunset"]);
    expect(page1.nextToken).toBeTruthy();
    const second = await gql(LIBRARY, {
      kind: "image",
      q: "library sun",
      limit: 1,
      nextToken: page1.nextToken,
    });
    const page2 = second.data!.mediaLibrary as { items: MediaItem[]; nextToken: string | null };
    expect(page2.items.map((m) => m.alt)).toEqual(["Library sunrise"]);
    expect(page2.nextToken).toBeNull();
    expect((await gql(LIBRARY, { kind: "captions", q: "library sun" })).data!.mediaLibrary).toEqual({
      items: [],
      nextToken: null,
    });
    expect(codeOf(await gql(LIBRARY, {}, free))).toBe("FORBIDDEN");

    const ALT = `mutation ($id: ID!, $alt: String!) { updateMediaAlt(id: $id, alt: $alt) { id alt } }`;
    const id = page1.items[0]!.id;
    expect((await gql(ALT, { id, alt: "Library dusk" })).data!.updateMediaAlt).toEqual({
      id,
      alt: "Library dusk",
    });
    const cleared = await gql(ALT, { id, alt: " " });
    expect(codeOf(cleared)).toBe("BAD_USER_INPUT");
    expect(cleared.errors![0]!.message).toMatch(/^alt:/);
    expect(codeOf(await gql(ALT, { id, alt: "Mine now" }, free))).toBe("FORBIDDEN");
  });
});
