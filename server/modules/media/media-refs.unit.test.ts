import { describe, expect, it } from "vitest";
import { buildUserContext } from "../../../core/index.ts";
import { PERSONA_CLAIMS } from "../../../core/test-personas.ts";
import { actorOf } from "../../../tests/factories/actors.ts";
import type { MediaObject, MediaService } from "./media.service.ts";
import { checkStructuredDataMedia, isStorageRef, mediaIdsIn } from "./media-refs.ts";

const manager = actorOf(buildUserContext(PERSONA_CLAIMS.manager));
const owner = actorOf(buildUserContext(PERSONA_CLAIMS.owner));
const MINE = "0190a1b2-c3d4-7e5f-8a9b-000000000001";
const THEIRS = "0190a1b2-c3d4-7e5f-8a9b-000000000002";

const objects: MediaObject[] = [
  {
    id: MINE,
    key: `media/${MINE}.mp4`,
    ownerId: manager.userId,
    contentType: "video/mp4",
    size: 1,
    visibility: "public",
    createdAt: "",
  },
  {
    id: THEIRS,
    key: `media/${THEIRS}.mp4`,
    ownerId: "someone-else",
    contentType: "video/mp4",
    size: 1,
    visibility: "public",
    createdAt: "",
  },
];
const media = {
  getMany: async (ids: readonly string[]) =>
    new Map(objects.filter((o) => ids.includes(o.id)).map((o) => [o.id, o])),
} as unknown as MediaService;
const video = (extra: Record<string, unknown>) => ({ "@type": "VideoObject", name: "v", ...extra });

describe("media references in structured data", () => {
  it("accepts https URLs and the writer's own uploads", async () => {
    await expect(
      checkStructuredDataMedia(
        manager,
        video({ contentUrl: `media:${MINE}`, thumbnailUrl: "https://cdn.example/p.png" }),
        null,
        media,
      ),
    ).resolves.toBeUndefined();
  });

  it.each([
    [{ contentUrl: "private/u1/avatar.png" }, "input.structuredData.contentUrl"],
    [{ contentUrl: "media/x.mp4" }, "input.structuredData.contentUrl"],
    [{ thumbnailUrl: ["content/enterprise/a/b.md"] }, "input.structuredData.thumbnailUrl[0]"],
    [{ caption: [{ contentUrl: "content/pro/a/b.vtt" }] }, "input.structuredData.caption[0].contentUrl"],
    [{ image: "tenant/acme/shared/logo.png" }, "input.structuredData.image"],
    [{ contentUrl: "http://insecure.example/v.mp4" }, "input.structuredData.contentUrl"],
    [{ contentUrl: "media:not-an-id" }, "input.structuredData.contentUrl"],
    [{ contentUrl: `media:${THEIRS}` }, "belongs to someone else"],
    [{ contentUrl: "media:0190a1b2-c3d4-7e5f-8a9b-0000000000ff" }, "no uploaded media object"],
  ])("refuses %j", async (extra, message) => {
    await expect(checkStructuredDataMedia(manager, video(extra), null, media)).rejects.toThrow(message);
  });

  it("keeps media the item already names usable by another editor, and lets platform admins use any", async () => {
    const data = video({ contentUrl: `media:${THEIRS}` });
    await expect(checkStructuredDataMedia(manager, data, data, media)).resolves.toBeUndefined();
    await expect(checkStructuredDataMedia(owner, data, null, media)).resolves.toBeUndefined();
  });

  it("recognises storage references wherever they appear", () => {
    expect(isStorageRef("private/u1/avatar.png")).toBe(true);
    expect(isStorageRef(`media:${MINE}`)).toBe(true);
    expect(isStorageRef("/api/objects/content/free/a.md")).toBe(true);
    expect(isStorageRef("https://example.com/content/x")).toBe(false);
    expect(isStorageRef("/content/some-slug")).toBe(false);
    expect([...mediaIdsIn([video({ caption: [{ contentUrl: `media:${MINE}` }] })])]).toEqual([MINE]);
  });
});
