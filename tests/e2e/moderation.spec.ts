import type { Page } from "@playwright/test";
import type { CommentBodiesQuery } from "../../app/graphql/operations.generated.ts";
import { CommentBodiesDocument } from "../../app/graphql/operations.generated.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

/** The seeded reported comment (server/db/seed/demo-moderation.ts). */
const REPORTED_TEXT = "Check my channel for the REAL tricks";

/** The item's published comments as a reader reads them over GraphQL. */
async function readerCommentBodies(page: Page, contentId: string): Promise<string[]> {
  const res = await page.request.post("/graphql", {
    data: { query: CommentBodiesDocument.source, variables: { contentId } },
  });
  expect(res.status()).toBe(200);
  const json = (await res.json()) as { data?: CommentBodiesQuery; errors?: unknown };
  expect(json.errors).toBeUndefined();
  return json.data!.listCommentByContentIdAndCreatedAt.items.map((c) => c.body);
}

test("a content manager hides the reported comment from /moderate and readers no longer see it", async ({
  page,
  browser,
}) => {
  await signIn(page, "manager@demo.local", "/moderate");
  await expect(page.getByRole("link", { name: /Reported/ })).toHaveAttribute("aria-current", "page");
  const card = page.getByTestId("moderation-comment").filter({ hasText: REPORTED_TEXT });
  await expect(card).toBeVisible();
  await expect(card.getByText("spam × 1")).toBeVisible();
  const contentId = (await card.getAttribute("data-content-id"))!;
  await screenshot(page, "moderate-reported-1280");

  // A reader sees the comment before it is hidden.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await signIn(reader, "basic@demo.local", "/dashboard");
  expect((await readerCommentBodies(reader, contentId)).some((b) => b.includes(REPORTED_TEXT))).toBe(true);

  await card.getByRole("button", { name: "Hide" }).click();
  await expect(page.getByText("1 comment hidden")).toBeVisible();
  await expect(page.getByTestId("moderation-comment").filter({ hasText: REPORTED_TEXT })).toHaveCount(0);

  // It is in the Hidden tab, and gone for readers.
  await page.getByRole("link", { name: /Hidden/ }).click();
  await expect(page.getByTestId("moderation-comment").filter({ hasText: REPORTED_TEXT })).toBeVisible();
  expect((await readerCommentBodies(reader, contentId)).some((b) => b.includes(REPORTED_TEXT))).toBe(false);
  await readerContext.close();

  // Pending and content review tabs render.
  await page.getByRole("link", { name: /Pending/ }).click();
  await expect(page.getByTestId("moderation-comment").first()).toBeVisible();
  await page.getByRole("link", { name: "Only this author" }).first().click();
  await expect(page.getByText("Showing only comments by")).toBeVisible();
  await expect(page.getByTestId("moderation-comment").first()).toBeVisible();
  await page.getByRole("link", { name: /Content review/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
