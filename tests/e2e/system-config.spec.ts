/**
 * /super-admin/system-config (issue 14, "owner@demo.local turns a feature flag off and every
 * process stops offering that feature within a few seconds"): the owner turns Search off, the
 * sidebar search box is gone on the next page load, then turns it back on (state restored for the
 * other specs, also when an assertion fails). The other process is covered by
 * tests/integration/settings-api.test.ts.
 */
import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, hydrated, screenshot, signIn, test } from "./fixtures.ts";

const SCREEN = "/super-admin/system-config";

/** Puts `search` back on through the API from the signed-in page (never page.request). */
async function restoreSearch(page: Page) {
  await page.evaluate(async () => {
    const view = (await (await fetch("/api/admin/settings")).json()) as {
      version: number;
      settings: Array<{ key: string; value: unknown }>;
    };
    if (view.settings.find((s) => s.key === "search")?.value === true) return;
    await fetch("/api/admin/settings", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ search: true, version: view.version }),
    });
  });
}

test("the owner turns search off, the search box disappears, and turns it back on", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "owner@demo.local", SCREEN);
  try {
    await hydrated(page);
    const searchBox = page.locator('aside input[type="search"]');
    await expect(searchBox).toHaveCount(1);
    const flag = page.getByRole("switch", { name: /^Search/ });
    await expect(flag).toHaveAttribute("aria-checked", "true");
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "system-config-owner");

    await flag.click();
    await expect(flag).toHaveAttribute("aria-checked", "false");
    await expect(page.getByText("1 unsaved change.")).toBeVisible();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();

    await page.goto("/");
    await hydrated(page);
    await expect(page.locator('aside input[type="search"]')).toHaveCount(0);

    await page.goto(SCREEN);
    await hydrated(page);
    const again = page.getByRole("switch", { name: /^Search/ });
    await expect(again).toHaveAttribute("aria-checked", "false");
    await again.click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await page.goto("/");
    await expect(page.locator('aside input[type="search"]')).toHaveCount(1);
  } finally {
    await restoreSearch(page);
  }
});

test("the screen fits a phone in the dark theme, with the environment read-only", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, "owner@demo.local", SCREEN);
  await hydrated(page);
  await expect(page.getByRole("switch", { name: /^Search/ })).toBeVisible();
  await expect(page.getByText("From the environment (read-only)")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "system-config-owner-390-dark");
});
