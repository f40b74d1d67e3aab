/**
 * The content studio end to end, as its users work: a content manager writes an article with an
 * uploaded image and a code block, previews it as a Free and as a Pro reader, schedules it a few
 * seconds ahead and sees it appear on the home page at its time without anyone publishing it;
 * restoring the first version brings its text back. A writer without content:publish can only
 * submit for review.
 */
import { crc32, deflateSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures.ts";

/** A small real PNG (a 4×3 gradient), made here so the upload goes through the server's checks. */
function png(width = 4, height = 3): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: width }, (_, x) => [x * 60, y * 80, 200]).flat()]),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function writeBody(page: Page, text: string) {
  const editor = page.locator(".cm-content");
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(text);
}

/** `at` as a datetime-local value in the browser's time zone, to the second. */
function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

test.describe("the content studio", () => {
  test("a manager writes, previews as Free and Pro, schedules, sees it live on time, and restores", async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const title = `Evaluating agents with care ${Date.now().toString(36)}`;
    await page.setViewportSize({ width: 1280, height: 1000 });
    await signIn(page, "manager@demo.local", "/create");

    // Write: title (the slug follows), a body with a code block, an uploaded image with alt text.
    await page.getByRole("textbox", { name: "Title", exact: true }).fill(title);
    await writeBody(page, "First version of the text.\n\n```ts\nconst score = evaluate(agent);\n```\n\n");
    await page.getByRole("button", { name: "Image", exact: true }).click();
    const picker = page.getByRole("dialog", { name: /image/i });
    await picker.getByRole("tab", { name: "Upload" }).click();
    await picker.locator('input[type="file"]').setInputFiles({
      name: "gradient.png",
      mimeType: "image/png",
      buffer: png(),
    });
    await picker.getByLabel("Alt text").fill("A blue gradient");
    await picker.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(picker).toBeHidden();
    await expect(page.locator(".cm-content")).toContainText("![A blue gradient](media:");
    await page.getByLabel("Section").selectOption("ai-news");
    await page.getByLabel("Plan needed").selectOption("Pro");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/content\/[^/]+\/edit$/);
    await expect(page.getByTestId("save-status")).toHaveText(/All changes saved|^Saved/);

    // The live preview renders as the public page does: Shiki code, the uploaded image.
    const livePreview = page.locator(".prose-content").first();
    await expect(livePreview.locator("pre.shiki")).toBeVisible();
    await expect(livePreview.getByRole("img", { name: "A blue gradient" })).toBeVisible();

    // A second save makes the text the restore will undo.
    await writeBody(page, "Second version of the text.\n");
    await page.keyboard.press("ControlOrMeta+s");
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved \d\d:\d\d$/);

    // Preview as a Free reader: the paywall; as a Pro reader: the body with its image and code.
    const preview = page.getByRole("region", { name: "Preview" });
    const frame = page.frameLocator("iframe");
    await preview.getByLabel("As").selectOption("Free");
    await expect(frame.getByText("Previewing as a Free reader — this is what they see")).toBeVisible();
    await expect(frame.locator("#gate-title")).toBeVisible();
    await expect(frame.getByText("Second version of the text.")).toHaveCount(0);
    await preview.getByLabel("As").selectOption("Pro");
    await expect(frame.getByText("Second version of the text.")).toBeVisible();
    await expect(frame.getByRole("img", { name: "A blue gradient" })).toBeVisible();
    await expect(frame.locator("pre.shiki")).toBeVisible();

    // Schedule a few seconds ahead: not on the home page before its time, there after it, for a
    // visitor who was never told (the scheduling job publishes it; the page cache follows).
    const visitor = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const home = await visitor.newPage();
    await home.goto("/");
    await expect(home.getByText(title)).toHaveCount(0);

    const workflow = page.getByRole("region", { name: "Workflow" });
    const at = new Date(Date.now() + 20_000);
    await workflow.getByRole("button", { name: "Schedule" }).click();
    await workflow.getByLabel(/Publish at/).fill(localInputValue(at));
    await workflow.getByRole("button", { name: "Schedule" }).last().click();
    await expect(workflow.getByText(/Scheduled: the item is now Scheduled/)).toBeVisible();

    await home.reload();
    await expect(home.getByText(title)).toHaveCount(0);
    expect(Date.now()).toBeLessThan(at.getTime());
    await expect(async () => {
      await home.reload();
      await expect(home.getByText(title).first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    await visitor.close();

    // The editor learns of the release; the history records it.
    await page.reload();
    await expect(workflow.getByText("Published", { exact: true }).first()).toBeVisible();

    // Restore the first version: the text of the first save comes back as a new version.
    const history = page.getByRole("region", { name: "History" });
    const first = history.getByRole("listitem").filter({ hasText: /^Version 1(?!\d)/ });
    await first.getByRole("button", { name: "Restore this version" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore this version" }).click();
    await expect(history.getByText(/Version 1 restored as version \d+\./)).toBeVisible();
    await expect(page.locator(".cm-content")).not.toContainText("Second version of the text.");
    await expect(page.locator(".cm-content")).toContainText("First version of the text.");
  });

  test("a writer without content:publish can only submit for review", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await signIn(page, "writer@demo.local", "/create");
    await page
      .getByRole("textbox", { name: "Title", exact: true })
      .fill(`A writer's draft ${Date.now().toString(36)}`);
    await writeBody(page, "Words for a reviewer.\n");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/content\/[^/]+\/edit$/);

    const workflow = page.getByRole("region", { name: "Workflow" });
    await expect(workflow.getByRole("button")).toHaveText(["Submit for review", "Archive"]);
    await workflow.getByRole("button", { name: "Submit for review" }).click();
    await expect(workflow.getByText("In review", { exact: true }).first()).toBeVisible();
    await expect(workflow.getByRole("button", { name: /Publish|Approve|Schedule/ })).toHaveCount(0);
  });
});
