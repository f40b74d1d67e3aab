import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const proArticle = DEMO_CONTENT.find(
  (c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired?.length,
)!;

test("a visitor searches from the sidebar and finds a Pro item locked, with its excerpt", async ({
  page,
}) => {
  await page.goto("/");
  const box = page.getByRole("searchbox", { name: "Search content" });
  await box.fill(`  ${proArticle.title}  `);
  await box.press("Enter");
  await expect(page).toHaveURL(
    new RegExp(`/\\?search=${encodeURIComponent(proArticle.title).replace(/[()*.?]/g, "\\$&")}$`),
  );
  await expect(
    page.getByRole("heading", { level: 1, name: `Results for “${proArticle.title}”` }),
  ).toBeVisible();
  const result = page
    .getByRole("listitem")
    .filter({ has: page.locator(`a[href="/content/${proArticle.slug}"]`) });
  await expect(result).toContainText(proArticle.excerpt);
  await expect(result).toContainText("(locked)");
  await expect(result.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(result.locator("mark").first()).toBeVisible();
  await screenshot(page, "search-visitor-1280-light");
  await expectNoSeriousA11yViolations(page);
});

test("a content manager's sidebar search opens the content list filtered by the term", async ({ page }) => {
  await signIn(page, "manager@demo.local", "/");
  const box = page.getByRole("searchbox", { name: "Search content" });
  await box.fill(proArticle.title);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/content\?search=/);
  await expect(page.getByTestId("list-total")).toContainText(`matching “${proArticle.title}”`);
  await expect(page.locator(`a[href="/content/${proArticle.slug}"]`).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
