import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, test } from "./fixtures.ts";

/** Screenshots of the repository browser, light and dark, desktop and phone, to look at. */
async function shoot(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.evaluate((dark) => {
      document.documentElement.classList.toggle("dark", dark);
      document.documentElement.style.colorScheme = dark ? "dark" : "light";
    }, colorScheme === "dark");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
      await page.waitForTimeout(400); // the layout's sidebar animates on resize
      await page.screenshot({ path: `test-results/repos/${name}-${colorScheme}-${width}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a visitor opens /resources, a repository, a file, switches branch and follows a line anchor", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/resources");
  for (const group of ["AI tooling", "Data workflows", "Workforce development"]) {
    await expect(page.getByRole("heading", { name: group })).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "resources");

  await page.getByRole("link", { name: "Prompt Eval Kit" }).click();
  await expect(page).toHaveURL(/\/resources\/prompt-eval-kit$/);
  await expect(page.getByRole("heading", { level: 1, name: "Prompt Eval Kit" })).toBeVisible();
  await expect(page.locator("#readme-heading")).toContainText("README.md");
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "repository");

  await page.getByRole("list", { name: "Files" }).getByRole("link", { name: "src", exact: true }).click();
  await expect(page).toHaveURL(/path=src$/);
  await page.getByRole("link", { name: /^checks\.ts/ }).click();
  await expect(page).toHaveURL(/path=src%2Fchecks\.ts$/);
  const code = page.locator(".code-view pre.shiki");
  await expect(code).toBeVisible();
  await expect(code).toHaveAttribute("data-language", "typescript");

  // A click selects a line, a shift-click extends the range; both go into the address.
  await page.locator("#L3 a.line-no").click();
  await expect(page).toHaveURL(/#L3$/);
  await page.locator("#L6 a.line-no").click({ modifiers: ["Shift"] });
  await expect(page).toHaveURL(/#L3-L6$/);
  await expect(page.locator(".line.is-selected")).toHaveCount(4);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "file");

  // The branch switcher keeps the file and shows the branch's own files.
  const sidebar = page.getByRole("navigation", { name: "Files in this folder" });
  await expect(sidebar.getByRole("link", { name: "json-keys.ts" })).toHaveCount(0);
  await page.getByLabel("Branch").selectOption("feature/json-keys");
  await expect(page).toHaveURL(/branch=feature%2Fjson-keys/);
  await expect(sidebar.getByRole("link", { name: "json-keys.ts" })).toBeVisible();

  // A shared line-range link highlights the range and scrolls it into view.
  await page.goto("/resources/prompt-eval-kit?branch=feature%2Fjson-keys&path=src%2Fjson-keys.ts#L12-L15");
  await expect(page.locator(".line.is-selected")).toHaveCount(4);
  await expect(page.locator("#L12")).toHaveClass(/is-selected/);
  await expect(page.locator("#L12")).toBeInViewport();
  await expect(page.locator("#L16")).not.toHaveClass(/is-selected/);
});

test("a visitor searches a repository and reads its commits", async ({ page }) => {
  await page.goto("/resources/tidy-csv?view=search");
  await page.getByRole("searchbox", { name: /search the files/i }).fill("def ");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/view=search&q=def/);
  const first = page.getByRole("list", { name: "Search results" }).getByRole("link").first();
  await expect(first).toContainText(/\.py:\d+/);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, "search");
  await first.click();
  await expect(page.locator(".line.is-selected")).toHaveCount(1);

  await page.goto("/resources/tidy-csv?view=commits");
  await expect(
    page
      .getByRole("list", { name: /commits on main/i })
      .getByRole("listitem")
      .first(),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
