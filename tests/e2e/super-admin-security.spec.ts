/**
 * /super-admin/security (issue 14): the owner creates a service credential and sees its secret
 * once (gone after a reload), rotates it (a new secret, once), revokes it; and signs another
 * reader out everywhere from the sessions table (that reader's next page load is signed out).
 * Then the /super-admin summary and the screen at 390 px in the dark theme.
 */
import { expect, expectNoSeriousA11yViolations, hydrated, screenshot, signIn, test } from "./fixtures.ts";

const SCREEN = "/super-admin/security";

test("the owner creates, rotates and revokes a service credential; the secret is shown once", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "owner@demo.local", SCREEN);
  await hydrated(page);
  await expect(page.getByTestId("security-summary")).toBeVisible();
  await expect(page.getByText("Coming in a later release")).toHaveCount(0);

  const name = `E2E reader ${Date.now()}`;
  const create = page.getByRole("form", { name: "Create a service credential" });
  await create.getByLabel("Name").fill(name);
  await create.getByRole("checkbox", { name: /content:read:all/ }).check();
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(SCREEN),
    ),
    create.getByRole("button", { name: "Create credential" }).click(),
  ]);
  expect(answer.headers()["cache-control"] ?? "").toContain("no-store");
  const secret = page.getByTestId("client-secret");
  await expect(secret).toBeVisible();
  const first = (await secret.textContent())?.trim() ?? "";
  expect(first).toMatch(/^lhs_/);
  await expect(page.getByText(/shown only once/)).toBeVisible();
  const row = page.getByTestId(`credential-${name}`);
  await expect(row).toContainText("content:read, content:read:all");
  await expect(row).toContainText("by owner@demo.local");
  await screenshot(page, "super-admin-security-secret");

  // A reload shows the list, never the secret.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("client-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(first);

  await row.getByText("Rotate secret…").click();
  await row.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByTestId("client-secret")).toBeVisible();
  const second = (await page.getByTestId("client-secret").textContent())?.trim() ?? "";
  expect(second).toMatch(/^lhs_/);
  expect(second).not.toBe(first);
  await expect(row).toContainText("rotated");

  await row.getByText("Revoke…").click();
  await row.getByRole("button", { name: "Revoke credential" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `Revoked the service credential “${name}”` }),
  ).toBeVisible();
  await expect(row).toContainText("Revoked");
  await expect(row.getByText("Rotate secret…")).toHaveCount(0);
});

test("the owner signs another reader out everywhere from the sessions table", async ({ page, browser }) => {
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  const goto = readerPage.goto.bind(readerPage);
  readerPage.goto = (async (url: string) => {
    const response = await goto(url);
    await hydrated(readerPage);
    return response;
  }) as typeof readerPage.goto;
  try {
    await signIn(readerPage, "enterprise@demo.local", "/dashboard");
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "owner@demo.local", `${SCREEN}?email=enterprise%40demo.local`);
    await hydrated(page);
    const row = page.getByTestId("session-enterprise@demo.local").first();
    await expect(row).toBeVisible();
    const revokeAll = row.locator("details").filter({ hasText: "Revoke all…" });
    await revokeAll.getByText("Revoke all…").click();
    await revokeAll.getByLabel("Note for the audit log").fill("e2e: lost phone");
    await revokeAll.getByRole("button", { name: /out everywhere/ }).click();
    await expect(
      page.getByRole("status").filter({ hasText: /Revoked \d+ sessions? of enterprise@demo.local/ }),
    ).toBeVisible();
    await expect(page.getByText("No active session matches.")).toBeVisible();
    await expect(page.getByTestId("security-events")).toContainText("Session revoked by an admin");
    await expect(page.getByTestId("security-events")).toContainText("e2e: lost phone");

    // The reader's next request is signed out.
    const status = await readerPage.evaluate(async () => (await fetch("/api/account/me")).status);
    expect(status).toBe(401);
  } finally {
    await reader.close();
  }
});

test("the summary and the console fit a phone in the dark theme", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, "owner@demo.local", "/super-admin");
  await hydrated(page);
  await expect(page.getByTestId("status-security")).toContainText("active session");
  await expect(page.getByTestId("status-system-config")).toContainText("feature flags on");
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
  await page.goto(SCREEN);
  await expect(page.getByTestId("security-summary")).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "super-admin-security-390-dark");
});
