import type { Page } from "@playwright/test";
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, expectNoSeriousA11yViolations, hydrated, signIn, test } from "./fixtures.ts";

// An AI News item of the demo, published in February 2026: past its 30-day review period.
const item = DEMO_CONTENT.find((c) => c.section === "ai-news" && c.tier === "Free" && c.type === "article")!;
const SHOTS = "test-results/e2e/screens/freshness";

async function setTheme(page: Page, theme: "light" | "dark") {
  await page.evaluate((t) => {
    document.documentElement.classList.toggle("dark", t === "dark");
    document.documentElement.style.colorScheme = t;
  }, theme);
}

async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${theme}.png` });
    }
  }
  await setTheme(page, "light");
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a reader sees an overdue item marked out of date; an editor marks it reviewed from the queue; the badge is gone", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  expect(Date.parse(item.publishedAt) + 30 * 86_400_000).toBeLessThan(Date.now());

  // A visitor (no session) reads the item: the stale badge with the date the review was due.
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  await readerPage.goto(`/content/${item.slug}`);
  await hydrated(readerPage);
  const badge = readerPage.getByTestId("stale-badge");
  await expect(badge).toBeVisible();
  await expect(badge).toContainText("May be out of date");
  await expect(badge).toContainText("review was due");
  await expect(readerPage.getByTestId("last-reviewed")).toHaveCount(0);
  await shots(readerPage, "reader-stale");
  await expectNoSeriousA11yViolations(readerPage);

  // An editor (content manager) opens the review queue, filters to AI News and marks it reviewed.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "manager@demo.local", "/review");
  await expect(page.getByRole("heading", { level: 1, name: "Review" })).toBeVisible();
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "AI News" }).click();
  await expect(page).toHaveURL(/section=ai-news/);
  const rows = page.getByTestId("review-row");
  await expect(rows.first()).toBeVisible();
  // The one due first is at the top: every row's due date is no earlier than the one above it.
  const dues = await rows
    .locator("time")
    .evaluateAll((els) => els.map((e) => e.getAttribute("datetime") ?? ""));
  expect(dues).toEqual([...dues].sort());
  const row = rows.filter({ hasText: item.title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Overdue by");
  await hydrated(page);
  await shots(page, "queue");
  await expectNoSeriousA11yViolations(page);
  await row.getByRole("button", { name: `Mark reviewed ${item.title}` }).click();
  await expect(page.getByTestId("review-done")).toContainText(`Marked “${item.title}” reviewed`);
  await expect(rows.filter({ hasText: item.title })).toHaveCount(0);

  // The reader's page drops the badge (the content revision moved; cached pages are dropped) and
  // shows when it was last reviewed.
  await expect(async () => {
    await readerPage.reload();
    await expect(readerPage.getByTestId("stale-badge")).toHaveCount(0);
    await expect(readerPage.getByTestId("last-reviewed")).toContainText("Last reviewed");
  }).toPass({ timeout: 15_000 });
  await shots(readerPage, "reader-reviewed");
  await reader.close();
});
