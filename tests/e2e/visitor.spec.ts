import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, expectNoSeriousA11yViolations, screenshot, test } from "./fixtures.ts";

const byDate = [...DEMO_CONTENT].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
const freeArticle = byDate.find(
  (c) => c.tier === "Free" && c.type === "article" && c.section === "ai-education",
)!;
const proArticle = byDate.find((c) => c.tier === "Pro" && c.type === "article")!;

test("a visitor browses the home page and opens a Free item from a section page", async ({ page }) => {
  const home = await page.goto("/");
  expect(home?.status()).toBe(200);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText(String(new Date().getFullYear()));
  await screenshot(page, "home-1280-light");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "AI Education" }).click();
  await expect(page).toHaveURL(/\/ai-education$/);
  await page.locator(`a[href="/content/${freeArticle.slug}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/content/${freeArticle.slug}$`));
  await expect(page.getByRole("heading", { level: 1, name: freeArticle.title })).toBeVisible();
  await expect(page.locator(".prose-content h2").first()).toBeVisible();
  await expect(page.getByText("Premium Content")).toHaveCount(0);
  await screenshot(page, "content-free-1280-light");
});

test("a visitor sees the paywall, not the body, on a Pro item", async ({ page }) => {
  const res = await page.goto(`/content/${proArticle.slug}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: proArticle.title })).toBeVisible();
  await expect(page.getByText("Premium Content")).toBeVisible();
  await expect(page.getByText("This content requires a Pro subscription or higher.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade to Pro" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" }).last()).toBeVisible();
  await expect(page.locator(".prose-content")).toHaveCount(0);
  await screenshot(page, "content-paywall-1280-light");
});

test("a visitor is sent to sign-in from /admin, remembering the origin", async ({ page }) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=%2Fadmin$/);
  await expect(page.getByLabel("E-mail, username or phone")).toBeVisible();
});

test.describe("not found", () => {
  test.use({ expectedDocumentStatus: 404 });
  test("an unknown path shows the not-found page with HTTP 404", async ({ page }) => {
    const res = await page.goto("/this/page/does-not-exist");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: /go home/i }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test("the theme toggle switches to dark and the choice survives a reload without a flash", async ({
  page,
}) => {
  await page.goto("/");
  const html = page.locator("html");
  await page.getByRole("button", { name: "Dark theme" }).first().click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("lumen.theme"))).toBe("dark");
  await page.reload({ waitUntil: "commit" });
  await page.waitForSelector("body", { state: "attached" });
  // The bootstrap script runs before first paint: the class is there before hydration.
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await screenshot(page, "home-1280-dark");
  await page.getByRole("button", { name: "Light theme" }).first().click();
  await expect(html).not.toHaveClass(/dark/);
});

test("the sidebar collapses to 64 px and expands to 320 px on desktop", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const sidebar = page.locator("#app-sidebar");
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(320);
  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(64);
  await page.getByRole("button", { name: "Expand sidebar" }).click();
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(320);
});

test("below 1024 px the sidebar is a drawer opened from the header and closed with Escape", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const sidebar = page.locator("#app-sidebar");
  await expect(sidebar).not.toBeInViewport();
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(sidebar).toBeInViewport();
  await screenshot(page, "home-390-drawer");
  await page.keyboard.press("Escape");
  await expect(sidebar).not.toBeInViewport();
  await screenshot(page, "home-390-light");
});

test("home and a content page have no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/");
  await expectNoSeriousA11yViolations(page);
  await page.goto(`/content/${freeArticle.slug}`);
  await expectNoSeriousA11yViolations(page);
  await page.goto(`/content/${proArticle.slug}`);
  await expectNoSeriousA11yViolations(page);
});

test("debug mode: ?debug=true shows the debug panel; Ctrl+Shift+D toggles the stored flag and reloads", async ({
  page,
}) => {
  await page.goto("/?debug=true");
  const panel = page.locator("#debug-panel-title");
  await expect(panel).toBeVisible();
  await page.goto("/");
  await expect(panel).toHaveCount(0);
  await page.locator("main").click();
  await Promise.all([page.waitForEvent("load"), page.keyboard.press("Control+Shift+D")]);
  await expect(panel).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("lumen.debug-mode"))).toBe("true");
  await screenshot(page, "debug-panel-1280");
  await Promise.all([page.waitForEvent("load"), page.keyboard.press("Control+Shift+D")]);
  await expect(panel).toHaveCount(0);
});
