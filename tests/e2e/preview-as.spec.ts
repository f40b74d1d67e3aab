import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

/** A Pro article of the demo catalogue. */
const SLUG = "bias-and-fairness-basics";

test("a content manager previews an article as a Free and as a Pro reader", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "manager@demo.local", `/content/${SLUG}?previewAs=Free`);
  await expect(page.getByText("Previewing as a Free reader — this is what they see")).toBeVisible();
  await expect(page.locator("#gate-title")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "preview-as-free-1280-light");

  // Switching the reader reloads the page as that reader (the body, no paywall).
  await page.getByLabel("Preview as").selectOption("Pro");
  await expect(page).toHaveURL(/previewAs=Pro/);
  await expect(page.getByText("Previewing as a Pro reader — this is what they see")).toBeVisible();
  await expect(page.locator("#gate-title")).toHaveCount(0);
  await expect(page.locator(".prose-content")).toBeVisible();
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "preview-as-pro-1280-dark");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel("Preview as").selectOption("visitor");
  await expect(page.getByText("Previewing as a visitor (not signed in)")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" }).last()).toBeVisible();
  await screenshot(page, "preview-as-visitor-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, "preview-as-visitor-390-light");

  // Back to their own view (a Pro plan): the body, no banner.
  await page.getByRole("link", { name: "Exit preview" }).click();
  await expect(page).toHaveURL(new RegExp(`/content/${SLUG}$`));
  await expect(page.getByText("Previewing as")).toHaveCount(0);
  await expect(page.locator(".prose-content")).toBeVisible();
});
