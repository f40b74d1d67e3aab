import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const proArticle = DEMO_CONTENT.find(
  (c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired?.length,
)!;
const freeArticle = DEMO_CONTENT.find(
  (c) => c.tier === "Free" && c.type === "article" && !c.rolesRequired?.length,
)!;

test("a Pro reader comments on a Pro item and replies; the reply appears threaded", async ({ page }) => {
  // pro@demo.local already has published (seeded) comments, so pre-moderation does not hold theirs.
  await signIn(page, "pro@demo.local", `/content/${proArticle.slug}`);
  const section = page.getByTestId("comments");
  await expect(section.getByRole("heading", { level: 2 })).toContainText(/comment/);

  // Unique per run: a retry (or a repeated run) must find this run's comment, not the last one's.
  const stamp = Date.now();
  const text = `Worked through this today ${stamp}: the **second** example helped most.`;
  const replyText = `Same here (${stamp}): the second one.`;
  await section.getByLabel("Add to the discussion").fill(text);
  await expect(section.getByText(`${text.length} / 5,000`)).toBeVisible();
  await section.getByRole("button", { name: "Post comment" }).click();
  const posted = section
    .getByTestId("comment")
    .filter({ hasText: `this today ${stamp}` })
    .first();
  await expect(posted).toBeVisible();
  await expect(posted.locator("strong")).toHaveText("second");
  await expect(posted.getByText("Awaiting review")).toHaveCount(0);

  await posted.getByRole("button", { name: "Reply" }).click();
  await posted.getByLabel(/^Reply to /).fill(replyText);
  await posted.getByRole("button", { name: "Reply", exact: true }).last().click();
  const replies = posted.getByRole("list", { name: "Replies" });
  await expect(replies.getByTestId("comment").filter({ hasText: replyText })).toBeVisible();

  // After a reload the reply is still under its comment (one reply, expandable).
  await page.reload();
  const again = page
    .getByTestId("comment")
    .filter({ hasText: `this today ${stamp}` })
    .first();
  await again.getByRole("button", { name: "1 reply" }).click();
  await expect(again.getByRole("list", { name: "Replies" })).toContainText(replyText);
  await again.scrollIntoViewIfNeeded();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "comments-pro-light-1280");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "comments-pro-dark-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await again.scrollIntoViewIfNeeded();
  await screenshot(page, "comments-pro-dark-390");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, "comments-pro-light-390");
});

test("a visitor sees the count and an invitation to sign in; a gated item shows no comments", async ({
  page,
}) => {
  await page.goto(`/content/${freeArticle.slug}`);
  const invite = page.getByRole("link", { name: "Sign in to join the discussion" });
  await expect(invite).toBeVisible();
  await expect(invite).toHaveAttribute(
    "href",
    `/auth/signin?redirect=${encodeURIComponent(`/content/${freeArticle.slug}`)}`,
  );
  await expect(page.getByLabel("Add to the discussion")).toHaveCount(0);
  await invite.scrollIntoViewIfNeeded();
  await screenshot(page, "comments-visitor-1280");

  await page.goto(`/content/${proArticle.slug}`);
  await expect(page.getByText("Premium Content")).toBeVisible();
  await expect(page.getByTestId("comments")).toHaveCount(0);
});

test("a new commenter's comment awaits review; readers edit, delete and report from the thread", async ({
  page,
}) => {
  // business@demo.local has never commented: pre-moderation (new commenters) holds the first one.
  await signIn(page, "business@demo.local", `/content/${freeArticle.slug}`);
  const section = page.getByTestId("comments");
  await section.getByLabel("Add to the discussion").fill("My very first comment here.");
  await section.getByRole("button", { name: "Post comment" }).click();
  const posted = section.getByTestId("comment").filter({ hasText: "My very first comment here." });
  await expect(posted.getByText("Awaiting review")).toBeVisible();
  const mine = section.locator(`[data-comment-id="${await posted.getAttribute("data-comment-id")}"]`);

  // Empty and oversized bodies are explained inline.
  await section.getByRole("button", { name: "Post comment" }).click();
  await expect(section.getByRole("alert")).toHaveText("Write something first.");

  await mine.getByRole("button", { name: "Edit" }).click();
  await mine.getByLabel("Edit your comment").fill("My very first comment here, edited.");
  await mine.getByRole("button", { name: "Save" }).click();
  await expect(mine.getByText("(edited)")).toBeVisible();

  // Report someone else's comment (a seeded one).
  const other = section.getByTestId("comment").filter({ hasNotText: "My very first comment" }).first();
  await other.getByRole("button", { name: "Report" }).click();
  const dialog = page.getByRole("dialog", { name: "Report comment" });
  await dialog.getByLabel("Off-topic").check();
  await dialog.getByLabel("Note for the moderators (optional)").fill("Not about this article.");
  await screenshot(page, "comments-report-1280");
  await dialog.getByRole("button", { name: "Report" }).click();
  await expect(dialog).toBeHidden();
  await expect(other.getByText("Thanks: a moderator will look at it.")).toBeVisible();

  await mine.getByRole("button", { name: "Delete" }).click();
  await page
    .getByRole("dialog", { name: "Delete this comment?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(section.getByText("My very first comment here, edited.")).toHaveCount(0);
});
