/**
 * Analytics and the overview (issue 14): admin@ opens /admin/overview, follows a figure to the
 * screen that explains it, opens /admin/analytics, switches the range (a preset and a custom
 * from/to, both in the URL), sees a chart and opens its data table, and downloads the CSV. Screens
 * in light and dark, at 1280 and 390 px (no sideways scrolling on a phone).
 */
import { readFile } from "node:fs/promises";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { expect, expectNoSeriousA11yViolations, hydrated, screenshot, signIn, test } from "./fixtures.ts";

const FREE_ITEM = DEMO_CONTENT.find(
  (c) => c.tier === "Free" && c.type === "article" && !c.rolesRequired?.length,
)!;
// Headless Chromium names itself HeadlessChrome, which the view counter ignores as a bot.
test.use({
  userAgent:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
});

const NOTHING = `zzq${Array.from({ length: 8 }, (_, i) => String.fromCharCode(97 + ((Date.now() >> i) % 26))).join("")}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test("an admin reads the overview and the analytics, switches the range and exports CSV", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  // A reader's pages never load the chart library (it is in the /admin/analytics chunk only).
  const scripts = new Set<string>();
  page.on("response", (r) => {
    if (new URL(r.url()).pathname.endsWith(".js")) scripts.add(r.url());
  });
  await page.goto("/");
  await page.goto(`/content/${FREE_ITEM.slug}`);
  expect(scripts.size).toBeGreaterThan(0);
  for (const url of scripts) {
    const text = await (await page.request.get(url)).text(); // still a visitor: no session to leak
    expect(text, url).not.toContain("recharts-wrapper");
  }
  // A search that finds nothing (the reader's search page) and a failed sign-in, as a visitor.
  await page.goto(`/?search=${NOTHING}`);
  const refused = await page.request.post("/api/auth/sign-in/email", {
    data: { email: "basic@demo.local", password: "Not-the-passw0rd!" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  await signIn(page, "admin@demo.local", "/admin/overview");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText(/coming in a later release/i)).toHaveCount(0);

  // A view by the admin (the content page sends the view beacon), so today has a number.
  await page.goto(`/content/${FREE_ITEM.slug}`);
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const res = await fetch("/api/admin/overview?period=7d");
        return ((await res.json()) as { totals: { views: number } }).totals.views;
      }),
    )
    .toBeGreaterThan(0);

  await page.goto("/admin/overview?period=7d");
  await expect(
    page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "7 days" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Readers now" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Pro readers/ })).toHaveAttribute(
    "href",
    "/admin/users?tier=pro",
  );
  await expect(page.getByRole("heading", { name: "Top content" })).toBeVisible();
  await expect(page.getByRole("link", { name: FREE_ITEM.title }).first()).toBeVisible();
  const events = page.getByRole("region", { name: "Security events" });
  await expect(events.getByRole("link", { name: "Sign-in failed" }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-overview-1280-light");

  // A figure leads to the screen that explains it: failed sign-ins → the audit log, filtered.
  await page.getByRole("link", { name: /Failed sign-ins/ }).click();
  await expect(page).toHaveURL(/\/admin\/logs\?action=sign_in_failure$/);
  await expect(page.getByRole("heading", { level: 1, name: "Logs" })).toBeVisible();

  // Analytics from the overview's link, then the presets and a custom range.
  await page.goto("/admin/overview?period=30d");
  await page.getByRole("link", { name: "Open analytics" }).click();
  await expect(page).toHaveURL(/\/admin\/analytics\?days=30$/);
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await page
    .getByRole("navigation", { name: "Date range presets" })
    .getByRole("link", { name: "7 days" })
    .click();
  await expect(page).toHaveURL(/days=7$/);
  await expect(page.getByText(/\(7 days, UTC\)/)).toBeVisible();

  const chartScripts = [...scripts].filter((u) => /\/assets\/analytics-/.test(u));
  expect(chartScripts.length).toBeGreaterThan(0);
  const chart = page.getByRole("img", { name: /Views and unique readers per day/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
  await expect(chart.locator(".recharts-line")).toHaveCount(4);
  // Its data table: today's row holds the view.
  const panel = page.getByRole("region", { name: "Views and unique readers" });
  await panel.getByText("Show the data as a table").click();
  const table = panel.getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(7);
  const todayRow = table.locator("tbody tr").last();
  expect(Number((await todayRow.locator("td").nth(1).textContent())?.replace(/,/g, ""))).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-analytics-1280-light");

  await expect(
    page.getByRole("region", { name: "Searches with no results" }).getByRole("cell", { name: NOTHING }),
  ).toBeVisible();

  const form = page.getByRole("form", { name: "Custom date range" });
  await form.getByLabel("From").fill(day(-13));
  await form.getByLabel("To").fill(day(0));
  await form.getByRole("button", { name: "Show range" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${day(-13)}&to=${day(0)}`));
  await expect(page.getByText(/\(14 days, UTC\)/)).toBeVisible();

  // The CSV of that range.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`analytics-${day(-13)}-to-${day(0)}.csv`);
  const csv = (await readFile((await download.path())!, "utf8")).split("\r\n").filter(Boolean);
  expect(csv[0]).toMatch(/^day,views,unique_readers,sign_ups,upgrades/);
  expect(csv).toHaveLength(15);
  expect(Number(csv[14]!.split(",")[1])).toBeGreaterThan(0);

  // A range that cannot be shown says why, next to the form.
  await page.goto(`/admin/analytics?from=${day(0)}&to=${day(-1)}`);
  await expect(page.getByRole("alert")).toContainText("to: must not be before from");

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/admin/analytics?days=30");
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.locator(".recharts-wrapper > svg.recharts-surface").first()).toBeVisible();
  await screenshot(page, "admin-analytics-1280-dark");
  await page.goto("/admin/overview");
  await screenshot(page, "admin-overview-1280-dark");

  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, name] of [
    ["/admin/analytics?days=7", "admin-analytics-390-dark"],
    ["/admin/overview", "admin-overview-390-dark"],
    ["/admin", "admin-index-390-dark"],
  ] as const) {
    await page.goto(path);
    await screenshot(page, name);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await page.emulateMedia({ colorScheme: "light" });
  for (const [path, name] of [
    ["/admin/analytics?days=7", "admin-analytics-390-light"],
    ["/admin/overview", "admin-overview-390-light"],
  ] as const) {
    await page.goto(path);
    await screenshot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "At a glance: the last 30 days" })).toBeVisible();
  await expect(page.getByText(/coming in a later release/i)).toHaveCount(0);
  await screenshot(page, "admin-index-1280-light");
});
