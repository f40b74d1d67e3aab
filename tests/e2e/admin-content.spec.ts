/**
 * /admin/content and the plans panel of /admin/subscriptions (issue 14), as admin@: reorders the
 * featured items with the keyboard (drag handle, Space, arrow, Space) and the home page shows the
 * new order; creates a category and hides it (its page is gone for readers); edits Pro's monthly
 * price and /pricing shows it. Each change is put back so the other specs see the seeded data.
 */
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const SCREEN = "/admin/content";

test.use({ expectedConsoleErrors: [/status of 404/] });

async function homeFeaturedTitles(page: import("@playwright/test").Page): Promise<string[]> {
  await page.goto("/");
  return page.locator('section[aria-labelledby="featured-title"] h3').allInnerTexts();
}

test("admin@ reorders featured by keyboard and the home page follows; Move down puts it back", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", SCREEN);
  const before = await homeFeaturedTitles(page);
  expect(before.length).toBeGreaterThanOrEqual(3);

  await page.goto(`${SCREEN}?tab=featured`);
  const list = page.getByRole("list", { name: "Featured items in order" });
  await expect(list.getByTestId("sortable-row")).toHaveCount(await list.getByTestId("sortable-row").count());
  const second = before[1]!;
  const handle = page.getByRole("button", { name: `Drag ${second} to reorder` });
  await handle.focus();
  // Lift (the handle reports it is pressed), let the sensor measure the rows, move, drop.
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  // Screen readers hear each step (dnd-kit's live region with this screen's announcements).
  const live = page.locator('[id^="DndLiveRegion"]');
  await expect(live).toContainText(`${second} is over position 2 of`);
  await page.waitForTimeout(250);
  await page.keyboard.press("ArrowUp");
  await expect(live).toContainText(`${second} is over position 1 of`);
  await page.keyboard.press("Space");
  await expect(page.getByRole("status").filter({ hasText: "Saved the featured order" })).toBeVisible();
  await expect(list.getByTestId("sortable-row").first()).toContainText(second);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-content-featured-1280-light");

  const after = await homeFeaturedTitles(page);
  expect(after.slice(0, 2)).toEqual([second, before[0]]);

  // Put it back with the Move down button (a plain form post).
  await page.goto(`${SCREEN}?tab=featured`);
  await page.getByRole("button", { name: `Move ${second} down` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved the featured order" })).toBeVisible();
  expect(await homeFeaturedTitles(page)).toEqual(before);
});

test("admin@ creates a category, a duplicate slug is refused, and hiding it removes its page", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", `${SCREEN}?tab=categories`);
  const create = page.getByRole("form", { name: "New category" });
  await create.getByLabel("Label").fill("E2E Robotics");
  await create.getByLabel("Slug").fill("e2e-robotics");
  await create.getByLabel("Default plan").selectOption("Pro");
  await create.getByRole("button", { name: "Create category" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Created the category “E2E Robotics”" }),
  ).toBeVisible();
  const status = (path: string) => page.evaluate(async (p) => (await fetch(p)).status, path);
  expect(await status("/category/e2e-robotics")).toBe(200);

  // A duplicate slug is refused next to the field.
  await create.getByLabel("Label").fill("Again");
  await create.getByLabel("Slug").fill("e2e-robotics");
  await create.getByRole("button", { name: "Create category" }).click();
  await expect(
    page.getByRole("form", { name: "New category" }).getByText(/already used by the category/),
  ).toBeVisible();

  await page.getByRole("button", { name: "Hide E2E Robotics" }).click();
  await expect(page.getByRole("status").filter({ hasText: "“E2E Robotics” is hidden" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Show E2E Robotics" })).toBeVisible();
  expect(await status("/category/e2e-robotics")).toBe(404);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-content-categories-1280-light");

  // The collections and all-content tabs, in dark at phone width.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${SCREEN}?tab=collections`);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByRole("form", { name: "New collection" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-content-collections-390-dark");
  await page.goto(`${SCREEN}?tab=all&state=draft`);
  await expect(page.getByTestId("list-total")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("admin@ edits Pro's monthly price and /pricing shows it", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", "/admin/subscriptions");
  const pro = page.getByTestId("plan-pro");
  await pro.locator("summary").click();
  const form = page.getByRole("form", { name: "Edit Pro" });
  const price = form.getByLabel("Monthly price (USD)");
  const original = await price.inputValue();
  await price.fill("abc");
  await form.getByRole("button", { name: "Save Pro" }).click();
  await expect(
    page.getByRole("form", { name: "Edit Pro" }).getByText("expected an amount such as 19 or 9.50"),
  ).toBeVisible();

  await page.getByRole("form", { name: "Edit Pro" }).getByLabel("Monthly price (USD)").fill("23.50");
  await page.getByRole("form", { name: "Edit Pro" }).getByRole("button", { name: "Save Pro" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved “Pro”." })).toBeVisible();
  await page.goto("/pricing");
  await expect(page.getByText("$23.50").first()).toBeVisible();

  // Back to the seeded price.
  await page.goto("/admin/subscriptions");
  await page.getByTestId("plan-pro").locator("summary").click();
  await page.getByRole("form", { name: "Edit Pro" }).getByLabel("Monthly price (USD)").fill(original);
  await page.getByRole("form", { name: "Edit Pro" }).getByRole("button", { name: "Save Pro" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved “Pro”." })).toBeVisible();
  await page.goto("/pricing");
  await expect(page.getByText("$23.50")).toHaveCount(0);
});
