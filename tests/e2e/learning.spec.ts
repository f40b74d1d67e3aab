/**
 * Course completion and reports in the browser (issue 15): pro@demo.local completes every lesson
 * of a demo course, follows the certificate link, and the public verification page opens in a
 * fresh signed-out browser; free@demo.local clicks the locked Reports link and sees the teaser.
 */
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

const COURSE = DEMO_CONTENT.find((c) => c.type === "course" && c.tier === "Free" && c.lessons?.length)!;

test("a Pro reader completes a course, gets the certificate, and anyone can verify it", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  await signIn(page, "pro@demo.local", `/content/${COURSE.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: COURSE.title })).toBeVisible();
  const toggles = page.getByRole("button", { name: /^Mark complete/ });
  const count = await toggles.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const toggle = toggles.nth(i);
    if ((await toggle.getAttribute("aria-pressed")) === "true") continue;
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
  }
  await expect(page.getByText("Course complete")).toBeVisible();
  const link = page.getByRole("link", { name: "View your certificate" });
  await expect(link).toBeVisible();
  await screenshot(page, "course-complete-1280");
  await link.click();
  await expect(page).toHaveURL(/\/certificates\/[A-Za-z0-9_-]{32}$/);
  const url = page.url();
  await expect(page.getByTestId("certificate-status")).toHaveText("Valid");
  await expect(page.getByTestId("certificate-course")).toHaveText(COURSE.title);
  await expect(page.getByTestId("verification-url")).toContainText(new URL(url).pathname);

  // A fresh, signed-out browser opens the verification link.
  const context = await browser.newContext();
  try {
    const visitor = await context.newPage();
    const res = await visitor.goto(url);
    expect(res?.status()).toBe(200);
    await expect(visitor.getByTestId("certificate-status")).toHaveText("Valid");
    await expect(visitor.getByTestId("certificate-recipient")).not.toBeEmpty();
    await expect(visitor.getByRole("button", { name: "Print / Save as PDF" })).toBeVisible();
    await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await screenshot(visitor, "certificate-visitor-1280");
  } finally {
    await context.close();
  }

  // The dashboard lists it, with its verification link, next to what to read next.
  await page.goto("/dashboard");
  const panel = page.getByTestId("completions-panel");
  await expect(panel.getByRole("link", { name: COURSE.title })).toHaveAttribute(
    "href",
    new URL(url).pathname,
  );
  await expect(panel.getByRole("button", { name: "Share verification link" }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recommended for you" })).toBeVisible();
  await screenshot(page, "dashboard-completions-1280");
});

test("a Free reader clicks the locked Reports link and sees the teaser, not a 403", async ({ page }) => {
  await signIn(page, "free@demo.local", "/dashboard");
  await page
    .getByRole("link", { name: /Reports/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/dashboard\/reports$/);
  await expect(page.getByRole("heading", { name: "Reports come with the Basic plan" })).toBeVisible();
  await expect(page.getByTestId("reports-upgrade")).toHaveAttribute("href", "/pricing");
  await expect(page.getByText("Example report: sample figures, not your reading")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Access denied" })).toHaveCount(0);
  // A full load answers 200 as well.
  const res = await page.goto("/dashboard/reports");
  expect(res?.status()).toBe(200);
  await screenshot(page, "reports-teaser-1280");
});

test("a content manager sets a course's completion rule in the editor", async ({ page }) => {
  test.setTimeout(90_000);
  const course = DEMO_CONTENT.find(
    (c) => c.type === "course" && c.slug !== COURSE.slug && c.lessons?.length,
  )!;
  await signIn(page, "manager@demo.local", "/content");
  const id = await page.evaluate(async (slug) => {
    const res = await fetch(`/api/content/${slug}`);
    return ((await res.json()) as { id: string }).id;
  }, course.slug);
  await page.goto(`/content/${id}/edit`);
  const panel = page.getByRole("region", { name: "Completion and certificate" });
  const percent = panel.getByLabel("Lessons to complete (%)");
  await expect(percent).toHaveValue("100");
  await percent.fill("0");
  await panel.getByRole("button", { name: "Save rule" }).click();
  await expect(panel.getByText("Enter a whole number from 1 to 100.")).toBeVisible();
  await percent.fill("50");
  await panel.getByLabel(/Minimum reading time/).fill("10");
  await panel.getByRole("button", { name: "Save rule" }).click();
  await expect(panel.getByText(/^Saved\./)).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, "completion-rule-panel-1280");
  const rule = await page.evaluate(async (slug) => {
    const res = await fetch(`/api/courses/${slug}/completion-rule`);
    return (await res.json()) as { minLessonsPercent: number; minSeconds: number | null };
  }, course.slug);
  expect(rule).toMatchObject({ minLessonsPercent: 50, minSeconds: 600 });
});
