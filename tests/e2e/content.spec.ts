import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

const proArticle = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired)!;

test("a Free reader meets the paywall on a Pro item with 'Upgrade to Pro' (a checkout form) and the plans", async ({
  page,
}) => {
  await signIn(page, "free@demo.local", `/content/${proArticle.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: proArticle.title })).toBeVisible();
  await expect(page.getByText("Premium Content")).toBeVisible();
  await expect(page.getByText("This content requires a Pro subscription or higher.")).toBeVisible();
  await expect(page.locator(".prose-content")).toHaveCount(0);
  // A reader who may not read the item is not offered a like (the server would refuse it).
  await expect(page.getByRole("button", { name: /^Like/ })).toHaveCount(0);
  // One click to upgrade: a POST form to the checkout with the cheapest plan and the way back.
  const upgrade = page.getByRole("button", { name: "Upgrade to Pro" });
  await expect(upgrade).toBeVisible();
  const form = page.locator('form[action="/checkout"]');
  await expect(form.locator('input[name="planId"]')).toHaveValue("pro");
  await expect(form.locator('input[name="returnTo"]')).toHaveValue(`/content/${proArticle.slug}`);
  await expect(page.getByText(/^Pro — \$\d+\/month$/)).toBeVisible();
  await screenshot(page, "paywall-free-on-pro-1280");
  await page.getByRole("link", { name: "Compare plans" }).click();
  await expect(page).toHaveURL(/\/pricing/);
});

test("a Pro reader reads the same item in full, with its table of contents", async ({ page }) => {
  await signIn(page, "pro@demo.local", `/content/${proArticle.slug}`);
  await expect(page.getByText("Premium Content")).toHaveCount(0);
  await expect(page.locator(".prose-content h2").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade to Pro" })).toHaveCount(0);

  // Likes are the reader's own and survive a reload.
  const like = page.getByRole("button", { name: /^Like/ });
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await like.click();
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(like).toContainText("1");
  await page.reload();
  await expect(page.getByRole("button", { name: /^Like/ })).toHaveAttribute("aria-pressed", "true");
  await screenshot(page, "content-pro-liked-1280");
});
