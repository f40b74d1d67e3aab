import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

const proArticle = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article")!;

test("a Pro reader signs in, returns to the remembered page and reads a Pro item", async ({ page }) => {
  await page.goto(`/content/${proArticle.slug}`);
  await expect(page.getByText("Premium Content")).toBeVisible();
  await signIn(page, "pro@demo.local", `/content/${proArticle.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: proArticle.title })).toBeVisible();
  await expect(page.getByText("Premium Content")).toHaveCount(0);
  await expect(page.locator(".prose-content h2").first()).toBeVisible();
  await screenshot(page, "content-pro-signed-in-1280");
});

test.describe("forbidden", () => {
  test.use({ expectedDocumentStatus: 403 });
  test("a Free reader is refused the moderation queue with a 403 screen", async ({ page }) => {
    await signIn(page, "free@demo.local", "/dashboard");
    // (The Basic reports page shows Free readers a teaser instead: tests/e2e/learning.spec.ts.)
    const res = await page.goto("/moderate");
    expect(res?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Access denied" })).toBeVisible();
    // The 403 keeps the app shell: the sidebar with the user's own navigation.
    await expect(page.getByRole("link", { name: "Dashboard" }).first()).toBeVisible();
    await expect(page.getByText("Fran Free").first()).toBeVisible();
    await screenshot(page, "forbidden-1280");
  });
});

test("the owner reaches the super-admin area and sees the System Administration section", async ({
  page,
}) => {
  await signIn(page, "owner@demo.local", "/super-admin");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("System Administration").first()).toBeVisible();
  await screenshot(page, "super-admin-1280");
});
