/**
 * The demo's videos play in the browser: the seeded clip loads its metadata, the captions track
 * loads one cue per chapter, and a chapter's "play from here" seeks the player.
 */
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

const proVideo = DEMO_CONTENT.find((c) => c.type === "video" && c.tier === "Pro")!;

test("a Pro reader's demo video loads in the player, with captions and chapters that seek", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, "pro@demo.local", `/content/${proVideo.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: proVideo.title })).toBeVisible();
  await expect(page.getByText("Video playback is not available")).toHaveCount(0);
  const video = page.locator("video");
  await expect(video).toBeVisible();

  // Metadata loads: the clip's real length, as the catalog gives it.
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  const duration = await video.evaluate((el: HTMLVideoElement) => el.duration);
  expect(duration).toBeGreaterThan(0);
  expect(Math.abs(duration - proVideo.video!.durationS)).toBeLessThan(0.5);

  // The English captions track loads, one cue per chapter, in the chapters' words.
  await expect
    .poll(
      () =>
        video.evaluate((el: HTMLVideoElement) =>
          [...(el.textTracks[0]?.cues ?? [])].map((c) => (c as VTTCue).text),
        ),
      { timeout: 15_000 },
    )
    .toEqual(proVideo.video!.chapters.map((c) => c.title));

  // A chapter's button seeks the player to the chapter's start.
  const third = proVideo.video!.chapters[2]!;
  await page.getByRole("button", { name: new RegExp(third.title) }).click();
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime))
    .toBeGreaterThanOrEqual(third.atS);
  await video.evaluate((el: HTMLVideoElement) => el.pause());
  await screenshot(page, "demo-video-pro-1280-light");
});
