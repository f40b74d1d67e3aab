/**
 * /admin/subscriptions (issue 14): admin@ grants Pro to free@demo.local for 30 days with a note,
 * finds the row by e-mail, then cancels it now (free@ is back on Free: other specs expect it).
 */
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const SCREEN = "/admin/subscriptions";

test("an admin grants Pro to a reader with a note, then cancels it", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", SCREEN);
  await expect(page.getByTestId("subscriptions-summary")).toBeVisible();

  const grant = page.getByRole("form", { name: "Grant a plan" });
  await grant.getByLabel("Reader's e-mail").fill("free@demo.local");
  await grant.getByLabel("Plan").selectOption("pro");
  await grant.getByLabel("For (days)").fill("30");
  await grant.getByLabel("Note (kept in the audit log)").fill("E2E: conference speaker");
  await grant.getByRole("button", { name: "Grant plan" }).click();
  await expect(page.getByRole("status").filter({ hasText: "free@demo.local now has pro" })).toBeVisible();

  const filters = page.getByRole("form", { name: "Filter subscriptions" });
  await filters.getByRole("searchbox", { name: "Reader" }).fill("free@demo");
  await filters.getByLabel("Status").selectOption("active");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=free%40demo/);
  const row = page.locator("tbody tr").filter({ hasText: "free@demo.local" }).filter({ hasText: "admin" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Pro");
  await expect(row).toContainText("Ends");
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-subscriptions-1280-light");

  const tier = await page.evaluate(async () => {
    const res = await fetch("/api/admin/subscriptions?q=free%40demo.local&status=active");
    return ((await res.json()) as { items: { tier: string; source: string }[] }).items;
  });
  expect(tier.some((i) => i.tier === "pro" && i.source === "admin")).toBe(true);

  await row.getByText("Cancel…").click();
  const cancel = row.getByRole("form", { name: "Cancel this subscription" });
  await cancel.getByLabel("Now").check();
  await cancel.getByLabel("Note (kept in the audit log)").fill("E2E: restore Free");
  await cancel.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Ended free@demo.local's subscription now." }),
  ).toBeVisible();
  const after = await page.evaluate(async () => {
    const res = await fetch("/api/admin/subscriptions?q=free%40demo.local&status=active");
    return ((await res.json()) as { items: { tier: string }[] }).items;
  });
  expect(after.map((i) => i.tier)).toEqual(["free"]);

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(SCREEN);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "admin-subscriptions-1280-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(SCREEN);
  await screenshot(page, "admin-subscriptions-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(SCREEN);
  await screenshot(page, "admin-subscriptions-390-light");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
