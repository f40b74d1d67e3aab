import { describe, expect, it, vi } from "vitest";
import { PERSONAS } from "../../core/test-personas.ts";
import type { ObjectStore } from "./object-store.ts";
import { StorageAccessDeniedError, signObjectGet, signObjectPut, storageActorOf } from "./sign-object.ts";

function fakeStore() {
  const presignGet = vi.fn(async (key: string) => ({
    url: `/api/objects/${key}?sig`,
    expiresAt: new Date(),
  }));
  const presignPut = vi.fn(async (key: string) => ({
    url: `/api/objects/${key}?put`,
    expiresAt: new Date(),
  }));
  return { store: { presignGet, presignPut } as unknown as ObjectStore, presignGet, presignPut };
}

const free = storageActorOf(PERSONAS.free);
const OTHER = "private/someone-else/avatar.png";

describe("signObjectGet: the storage path rules decide before anything is signed", () => {
  it.each([
    ["visitor", "private/u1/avatar.png"],
    ["visitor", "content/free/x/a.md"],
    ["visitor", "content/enterprise/x/a.md"],
    ["free", OTHER],
    ["free", "content/pro/x/a.md"],
    ["pro", "content/enterprise/x/a.md"],
    ["enterprise", "content/enterprise/x/a.md"],
    ["manager", OTHER],
    ["free", "unknown-area/a.png"],
    ["free", "media/../private/x.png"],
  ] as const)("%s gets no link to %s (and nothing is signed)", async (who, key) => {
    const { store, presignGet } = fakeStore();
    await expect(signObjectGet(store, storageActorOf(PERSONAS[who]), key)).rejects.toBeInstanceOf(
      StorageAccessDeniedError,
    );
    expect(presignGet).not.toHaveBeenCalled();
  });

  it.each([
    ["visitor", "media/0190-a.mp4"],
    ["free", "content/free/x/a.md"],
    ["pro", "content/pro/x/a.md"],
    ["owner", "content/enterprise/x/a.md"],
    ["owner", OTHER],
  ] as const)("%s gets a link to %s", async (who, key) => {
    const { store, presignGet } = fakeStore();
    await expect(signObjectGet(store, storageActorOf(PERSONAS[who]), key)).resolves.toMatchObject({
      url: `/api/objects/${key}?sig`,
    });
    expect(presignGet).toHaveBeenCalledOnce();
  });

  it("a user's own private objects are theirs to link", async () => {
    const { store } = fakeStore();
    await expect(signObjectGet(store, free, `private/${free.userId}/avatar.png`)).resolves.toBeTruthy();
  });

  it("upload links: media/ for signed-in users, never content/ or another user's area", async () => {
    const { store, presignPut } = fakeStore();
    await expect(signObjectPut(store, free, "media/a.mp4")).resolves.toBeTruthy();
    await expect(signObjectPut(store, storageActorOf(PERSONAS.visitor), "media/a.mp4")).rejects.toThrow();
    await expect(signObjectPut(store, free, "content/free/x/a.md")).rejects.toThrow();
    await expect(signObjectPut(store, free, OTHER)).rejects.toThrow();
    expect(presignPut).toHaveBeenCalledOnce();
  });
});
