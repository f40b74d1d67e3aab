import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, expectNoSeriousA11yViolations, signIn, test } from "./fixtures.ts";

const article = DEMO_CONTENT.find((c) => c.type === "article" && c.tier === "Pro")!;
const SHOTS = "/tmp/manage";

async function setTheme(page: import("@playwright/test").Page, theme: "light" | "dark") {
  await page.evaluate((t) => {
    document.documentElement.classList.toggle("dark", t === "dark");
    document.documentElement.style.colorScheme = t;
  }, theme);
}

test("a content manager filters to Published, searches, finds the edit links, and reads the list at 390 px", async ({
  page,
}) => {
  test.setTimeout(90_000); // one sign-in, then many screens of one story
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "manager@demo.local", "/content");
  await expect(page.getByRole("heading", { level: 1, name: "Content" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New content" })).toHaveAttribute("href", "/create");

  const tabs = page.getByRole("navigation", { name: "Workflow states" });
  await tabs.getByRole("link", { name: /^Published \d+$/ }).click();
  await expect(page).toHaveURL(/state=published/);
  await expect(tabs.getByRole("link", { name: /^Published/ })).toHaveAttribute("aria-current", "page");
  const table = page.getByRole("table", { name: "Content items" });
  await expect(table.getByText("Published", { exact: true }).first()).toBeVisible();

  await page.getByRole("searchbox", { name: "Search this list" }).fill(article.title);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=/);
  await expect(page).toHaveURL(/state=published/);
  const row = table.getByRole("row").filter({ hasText: article.slug });
  await expect(row).toHaveCount(1);
  const edit = row.getByRole("link", { name: `Edit ${article.title}` });
  await expect(edit).toHaveAttribute("href", /^\/content\/[^/]+\/edit$/);
  await expect(row.getByRole("link", { name: `View ${article.title}` })).toHaveAttribute(
    "href",
    `/content/${article.slug}`,
  );
  await expectNoSeriousA11yViolations(page);

  // A filter select applies at once and keeps the search and the tab.
  await page.getByLabel("Plan").selectOption("Free");
  await expect(page).toHaveURL(/tier=Free/);
  await expect(page.getByText(`Nothing matches “${article.title}” in Published.`)).toBeVisible();
  await page.getByRole("link", { name: "Show all content" }).click();
  await expect(page).toHaveURL(/\/content$/);

  // Paging: the next page continues the list, the first page link returns.
  const titleLinks = table.locator("tbody tr td:nth-child(2) a");
  await expect(titleLinks.first()).toBeVisible();
  const firstTitles = await titleLinks.allTextContents();
  expect(firstTitles.length).toBeGreaterThan(0);
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(titleLinks.first()).not.toHaveText(firstTitles[0]!);
  const secondTitles = await titleLinks.allTextContents();
  expect(secondTitles.length).toBeGreaterThan(0);
  expect(secondTitles.filter((t) => firstTitles.includes(t))).toEqual([]);
  await page.getByRole("link", { name: "First page" }).click();
  await expect(page).not.toHaveURL(/cursor=/);

  // Selecting rows shows the bulk actions.
  await table.locator("tbody tr").first().getByRole("checkbox").check();
  const bulk = page.getByRole("region", { name: "Bulk actions" });
  await expect(bulk).toContainText("1 selected");
  await expect(bulk.getByRole("button", { name: "Publish" })).toBeVisible();
  await page.mouse.move(0, 0);
  await setTheme(page, "light");
  await page.screenshot({ path: `${SHOTS}/content-1280-light.png`, animations: "disabled" });
  await setTheme(page, "dark");
  await page.screenshot({ path: `${SHOTS}/content-1280-dark.png`, animations: "disabled" });
  await setTheme(page, "light");

  // A bulk action answers per row (the server's answer here is the contract's shape): a ✓ or the
  // reason next to each row, and the list is read again.
  const rows = table.locator("tbody tr");
  const ids = await Promise.all(
    [0, 1].map(
      async (n) =>
        (
          (await rows
            .nth(n)
            .getByRole("link", { name: /^Edit / })
            .getAttribute("href")) ?? ""
        ).split("/")[2]!,
    ),
  );
  let sent: unknown = null;
  await page.route("**/api/studio/bulk", async (route) => {
    sent = route.request().postDataJSON();
    await route.fulfill({
      json: {
        results: [
          { id: ids[0], ok: true },
          {
            id: ids[1],
            ok: false,
            error: { code: "FORBIDDEN", message: "Archiving needs the content:publish permission" },
          },
        ],
      },
    });
  });
  await rows.nth(1).getByRole("checkbox").check();
  await expect(bulk).toContainText("2 selected");
  await bulk.getByRole("button", { name: "Archive" }).click();
  const dialog = page.getByRole("dialog", { name: "Archive the selected items?" });
  await dialog.getByRole("button", { name: "Archive 2" }).click();
  await expect(rows.nth(0).getByTestId("row-outcome")).toHaveText("Archived");
  await expect(rows.nth(1).getByTestId("row-outcome")).toHaveText(
    "Archiving needs the content:publish permission",
  );
  expect(sent).toEqual({ ids: expect.arrayContaining(ids), action: "archive" });
  await expect(page.getByRole("status").filter({ hasText: "1 of 2 archived" })).toBeVisible();
  // The row that was not changed stays selected for another try.
  await expect(bulk).toContainText("1 selected");
  await page.screenshot({ path: `${SHOTS}/content-1280-bulk-light.png`, animations: "disabled" });

  // At 390 px the list is stacked cards with title, state and edit link, without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/content?state=published");
  const cards = page.getByRole("list", { name: "Content items" });
  await expect(cards).toBeVisible();
  await expect(page.getByRole("table", { name: "Content items" })).toBeHidden();
  const first = cards.getByRole("listitem").first();
  await expect(first.getByText("Published", { exact: true })).toBeVisible();
  await expect(first.getByRole("link", { name: /^Edit / })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.evaluate(() => window.scrollBy(0, 380));
  await setTheme(page, "light");
  await page.screenshot({ path: `${SHOTS}/content-390-light.png`, animations: "disabled" });
  await setTheme(page, "dark");
  await page.screenshot({ path: `${SHOTS}/content-390-dark.png`, animations: "disabled" });
  await expectNoSeriousA11yViolations(page);
});
