/**
 * Repository administration (issue 6 item 5, "an admin adds a local repository and it appears
 * after sync"): the platform admin opens the Repositories tab of /admin/content, adds one of the
 * demo git folders under DATA_DIR/repositories a second time under another slug, syncs it, and
 * sees it listed with a last-synced time (that visitors then find it is in the integration test).
 */
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const SCREEN = "/admin/content?tab=repositories";

test("an admin adds a local repository, syncs it, and it appears with a last-synced time", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", "/admin/content");
  await page.getByRole("link", { name: "Repositories", exact: true }).click();
  await expect(page).toHaveURL(/tab=repositories/);
  const list = page.getByRole("list", { name: "Repositories" });
  await expect(list.getByRole("listitem").first()).toBeVisible();

  await page.getByRole("button", { name: "Add repository" }).click();
  const form = page.getByRole("form", { name: "Add repository" });
  await form.getByLabel("Source").selectOption("local");
  await form.getByLabel("Folder").fill("tidy-csv");
  await form.getByLabel("Display name").fill("Tidy CSV (team copy)");
  await form.getByLabel("Slug").fill("tidy-csv-team-copy");
  await form.getByLabel("Tags").fill("python, cleaning");
  await form.getByLabel("Sync right after adding").uncheck();
  await form.getByRole("button", { name: "Add repository" }).click();

  const row = list.getByRole("listitem").filter({ hasText: "Tidy CSV (team copy)" });
  await expect(row).toBeVisible();
  await expect(row.getByText("Not synced yet")).toBeVisible();
  await expect(row.getByText("Never synced")).toBeVisible();

  await row.getByRole("button", { name: /sync now/i }).click();
  await expect(row.getByText("Synced", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText(/^Last synced .+ UTC$/)).toBeVisible();
  await expect(page.getByText("Tidy CSV (team copy) synced")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-repositories-1280-light");
  await page.getByRole("heading", { name: "Categories" }).scrollIntoViewIfNeeded();
  await screenshot(page, "admin-repositories-categories-1280-light");

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(SCREEN);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "admin-repositories-1280-dark");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(SCREEN);
  await expect(list.getByRole("listitem").filter({ hasText: "Tidy CSV (team copy)" })).toBeVisible();
  await screenshot(page, "admin-repositories-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(SCREEN);
  await screenshot(page, "admin-repositories-390-light");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a failed sync shows its error on the repository", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", SCREEN);
  await page.getByRole("button", { name: "Add repository" }).click();
  const form = page.getByRole("form", { name: "Add repository" });
  await form.getByLabel("Folder").fill("no-such-folder");
  await form.getByRole("button", { name: "Add repository" }).click();
  const row = page
    .getByRole("list", { name: "Repositories" })
    .getByRole("listitem")
    .filter({ hasText: "no-such-folder" });
  await expect(row.getByText("Sync failed", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText(/The last sync failed/)).toBeVisible();
  await screenshot(page, "admin-repositories-failed-1280-light");
});

test.describe("organisation admins", () => {
  // The 403 answer of the refused screen is logged by the browser.
  test.use({ expectedConsoleErrors: [/status of 403/] });

  test("organisation admins are refused the content library and its Repositories tab", async ({ page }) => {
    // The content library is platform-scoped (decision 009): the 403 screen explains why.
    await signIn(page, "business@demo.local", "/admin/content");
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
    await expect(page.getByText(/needs a platform administrator/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Repositories", exact: true })).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Repositories" })).toHaveCount(0);
  });
});
