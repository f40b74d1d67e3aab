/**
 * The audit log (issue 14, /admin/logs): the platform admin filters by an action and an actor,
 * finds their own sign-in, opens its details, and the export links carry the filters. Screens in
 * light and dark, 1280 and 390 px (no sideways scrolling on a phone).
 */
import { expect, expectNoSeriousA11yViolations, hydrated, screenshot, signIn, test } from "./fixtures.ts";

test("an admin filters the audit log by an action and finds the row", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", "/admin/logs");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText(/coming in a later release/i)).toHaveCount(0);

  const form = page.getByRole("form", { name: "Filter the audit log" });
  await form.getByLabel("Actions").fill("sign_in");
  await form.getByLabel("Actor").fill("admin@demo.local");
  await form.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=sign_in/);
  await expect(page).toHaveURL(/actor=admin%40demo.local/);

  const table = page.getByRole("table");
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).toContainText("Signed in");
  await expect(rows.first()).toContainText("admin@demo.local");
  // Every row matches the filter.
  const labels = await table.locator("tbody tr code").allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label).toBe("sign_in");

  const csv = page.getByRole("link", { name: "Export CSV" });
  await expect(csv).toHaveAttribute("href", /format=csv/);
  await expect(csv).toHaveAttribute("href", /action=sign_in/);
  await expect(csv).toHaveAttribute("href", /actor=admin%40demo.local/);
  // The export answers with the same rows (read through fetch in the signed-in page).
  const exported = await page.evaluate(
    async (href) => {
      const res = await fetch(href.replace("format=csv", "format=json"));
      return { status: res.status, rows: (await res.json()) as Array<{ action: string }> };
    },
    (await csv.getAttribute("href")) ?? "",
  );
  expect(exported.status).toBe(200);
  expect(exported.rows.length).toBeGreaterThanOrEqual(labels.length);
  expect(new Set(exported.rows.map((r) => r.action))).toEqual(new Set(["sign_in"]));

  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-logs-1280-light");

  // Every kind, with the details of a row that has some opened.
  await page.goto("/admin/logs");
  const withDetails = page.locator("tbody tr summary").first();
  if (await withDetails.count()) {
    await withDetails.click();
    await expect(page.locator("tbody tr details[open] dl").first()).toBeVisible();
  }
  await screenshot(page, "admin-logs-all-1280-light");

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/admin/logs?kind=security");
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await screenshot(page, "admin-logs-1280-dark");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/logs?action=sign_in");
  await expect(page.getByRole("list", { name: "Audit events" }).getByRole("listitem").first()).toContainText(
    "Signed in",
  );
  await screenshot(page, "admin-logs-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/admin/logs?action=sign_in");
  await screenshot(page, "admin-logs-390-light");
  await page.getByRole("list", { name: "Audit events" }).scrollIntoViewIfNeeded();
  await screenshot(page, "admin-logs-cards-390-light");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a filter the log cannot use is explained next to the form", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", "/admin/logs?from=yesterday");
  await expect(page.getByRole("alert")).toContainText("from:");
  await expect(page.getByRole("form", { name: "Filter the audit log" }).getByLabel("From")).toHaveValue(
    "yesterday",
  );
});
