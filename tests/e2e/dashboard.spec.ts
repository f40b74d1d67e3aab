import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, screenshot, signIn, test } from "./fixtures.ts";

const article = DEMO_CONTENT.find(
  (c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired?.length,
)!;
const course = DEMO_CONTENT.find(
  (c) => c.type === "course" && c.tier === "Free" && (c.lessons?.length ?? 0) > 1,
)!;
const lessonTitle = (slug: string) => DEMO_CONTENT.find((c) => c.slug === slug)!.title;

test("a Pro reader saves an item, completes a lesson and finds both on the dashboard", async ({ page }) => {
  await signIn(page, "pro@demo.local", `/content/${article.slug}`);
  const save = page.getByRole("button", { name: "Save", exact: true });
  await expect(save).toHaveAttribute("aria-pressed", "false");
  await save.click();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // a little reading time: sent by the reading beacon when the page is left
  await page.waitForTimeout(1_500);
  await page.goto(`/content/${course.slug}`);
  const first = page.getByRole("button", { name: `Mark complete : ${lessonTitle(course.lessons![0]!)}` });
  await first.click();
  await expect(first).toHaveAttribute("aria-pressed", "true");

  await page.goto("/dashboard");
  await expect(page.getByText("Welcome back, Priya")).toBeVisible();
  const saved = page.getByRole("region", { name: "Saved" });
  await expect(saved.getByRole("link", { name: article.title })).toBeVisible();
  const continuing = page.getByRole("region", { name: "Continue where you left off" });
  const card = continuing.getByTestId("continue-item").filter({ hasText: course.title });
  await expect(card.getByText(`1 of ${course.lessons!.length} lessons`)).toBeVisible();
  const next = card.getByRole("link", { name: `Next lesson: ${lessonTitle(course.lessons![1]!)}` });
  await expect(next).toBeVisible();
  // the article read before is there too (recorded by the reading beacon)
  await expect(continuing.getByRole("link", { name: article.title })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What Enterprise would add" })).toBeVisible();
  // the internal access table is no longer on the dashboard
  await expect(page.locator("main").getByText("Permissions", { exact: true })).toHaveCount(0);
  await screenshot(page, "dashboard-pro-1280");

  await next.click();
  await expect(page.getByRole("heading", { level: 1, name: lessonTitle(course.lessons![1]!) })).toBeVisible();

  await page.goto("/profile");
  const details = page.getByTestId("access-details");
  await expect(details.getByText("Access details")).toBeVisible();
  await expect(details.getByText("Permissions", { exact: true })).toBeHidden();
  await details.getByText("Access details").click();
  await expect(details.getByText("Permissions", { exact: true })).toBeVisible();
});
