import { readFileSync } from "node:fs";
import path from "node:path";
import { createUnsubscribeLinks } from "../../server/modules/notifications/unsubscribe-links.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

/** The e2e server's generated secret (DATA_DIR/secrets/auth-secret), to sign a link as its mails do. */
function unsubscribePath(userId: string, kind: "replies" | "weekly_digest"): string {
  const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data");
  const secret = readFileSync(path.join(dataDir, "secrets", "auth-secret"), "utf8").trim();
  return createUnsubscribeLinks({ secret }).url(userId, kind);
}

test("a reader turns on reply e-mails, follows a section, and unsubscribes from a link signed out", async ({
  page,
  context,
}) => {
  await signIn(page, "basic@demo.local", "/settings");
  const card = page
    .getByRole("heading", { name: "Notifications" })
    .locator("xpath=ancestor::div[contains(@class,'rounded-xl')][1]");
  const replies = card.getByRole("switch", { name: "Replies to my comments" });
  await expect(replies).toHaveAttribute("aria-checked", "false");
  await replies.click();
  await expect(replies).toHaveAttribute("aria-checked", "true");
  await expect(card.getByText("Saved: replies to my comments on.").first()).toBeVisible();
  await expect(card.getByText("You follow no sections yet.")).toBeVisible();
  await screenshot(page, "notifications-settings-1280");

  await page.goto("/ai-news");
  const follow = page.getByRole("button", { name: "Follow AI News" });
  await follow.click();
  await expect(page.getByRole("button", { name: "Unfollow AI News" })).toHaveText(/Following/);
  await screenshot(page, "notifications-follow-1280");

  await page.goto("/settings");
  await expect(page.getByRole("link", { name: "AI News" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Unfollow AI News" })).toBeVisible();

  const userId = await page.evaluate(async () => {
    const res = await fetch("/api/auth/get-session");
    return ((await res.json()) as { user: { id: string } }).user.id;
  });

  // Signed out (a fresh browser context), the link from the e-mail turns reply e-mails off.
  const visitor = await context.browser()!.newContext({ baseURL: new URL(page.url()).origin });
  const other = await visitor.newPage();
  await other.goto(unsubscribePath(userId, "replies"));
  await expect(other.getByRole("heading", { name: "Unsubscribe from reply e-mails?" })).toBeVisible();
  await screenshot(other, "notifications-unsubscribe-1280");
  await other.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(other.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await visitor.close();

  await page.reload();
  await expect(page.getByRole("switch", { name: "Replies to my comments" })).toHaveAttribute(
    "aria-checked",
    "false",
  );
});

test.describe("a changed link", () => {
  test.use({ expectedDocumentStatus: 400 });
  test("is refused with a clear page", async ({ page }) => {
    const res = await page.goto("/unsubscribe?u=someone&k=replies&sig=forged");
    expect(res?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "This unsubscribe link does not work" })).toBeVisible();
  });
});

test("a visitor is asked to sign in to follow a section", async ({ page }) => {
  await page.goto("/ai-education");
  await expect(page.getByRole("link", { name: "Sign in to follow" })).toBeVisible();
});
