import { expect, expectNoSeriousA11yViolations, hydrated, screenshot, signIn, test } from "./fixtures.ts";

/** A Pro item whose body has an author-marked public preview (the demo seed). */
const PREVIEWED = "privacy-and-pii-in-ai-workflows";

test("a visitor compares plans monthly and yearly, without and with JavaScript", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { level: 1, name: "Pricing" })).toBeVisible();
  await expect(page.getByText("Billing arrives in a later release")).toHaveCount(0);
  const interval = page.getByRole("group", { name: "Billing interval" });
  await expect(interval.getByRole("link", { name: "Monthly" })).toHaveAttribute("aria-current", "true");
  const pro = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Pro", exact: true }) });
  await expect(pro.getByText("$19", { exact: true })).toBeVisible();
  await expect(pro.getByText(/^Pro unlocks \d+ more items$/)).toBeVisible();
  await expect(pro.getByText(/, including the .+ course$/)).toBeVisible();
  await expect(pro.getByRole("link", { name: "Get Pro" })).toHaveAttribute(
    "href",
    `/auth/signin?redirect=${encodeURIComponent("/checkout?plan=pro&interval=month")}`,
  );
  await expect(page.getByRole("heading", { name: "For teams" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "pricing-visitor-1280");

  await hydrated(page);
  await interval.getByRole("link", { name: "Yearly" }).click();
  await expect(page).toHaveURL(/interval=year/);
  await expect(interval.getByRole("link", { name: "Yearly" })).toHaveAttribute("aria-current", "true");
  await expect(pro.getByText("$190", { exact: true })).toBeVisible();
  await expect(pro.getByText("Save 17% — $38 a year")).toBeVisible();

  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await screenshot(page, "pricing-visitor-1280-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await screenshot(page, "pricing-visitor-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await screenshot(page, "pricing-visitor-390");
});

test("a Free reader sees their plan and an upgrade form on each plan above it", async ({ page }) => {
  await signIn(page, "free@demo.local", "/pricing");
  const free = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Free", exact: true }) });
  await expect(free.getByText("Your plan")).toBeVisible();
  await expect(free.getByRole("link", { name: "Manage subscription" })).toHaveAttribute(
    "href",
    "/subscription",
  );
  for (const name of ["Basic", "Pro", "Enterprise"]) {
    await expect(page.getByRole("button", { name: `Upgrade to ${name}` })).toBeVisible();
  }
  await expect(page.locator('form[action="/checkout"] input[name="planId"][value="pro"]')).toHaveCount(1);
  await expect(page.getByText(/Seats are bought by an organisation's administrator/).first()).toBeVisible();
  await screenshot(page, "pricing-free-1280");
});

test("the paywall shows the author's preview, the plan's price and what else it opens", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/content/${PREVIEWED}`);
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("Personal data gets into AI systems");
  await expect(page.getByText("Step 1: Map the data flow")).toHaveCount(0);
  await expect(page.getByText("Premium Content")).toBeVisible();
  await expect(page.getByText(/^and \d+ more Pro items, including/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "See plans" })).toHaveAttribute("href", "/pricing");
  await page.locator("#gate-title").scrollIntoViewIfNeeded();
  await screenshot(page, "paywall-preview-visitor-1280");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.locator("#gate-title").scrollIntoViewIfNeeded();
  await screenshot(page, "paywall-preview-visitor-390-dark");
});
