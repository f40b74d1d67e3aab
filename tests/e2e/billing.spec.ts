/**
 * Issue 13's done-when path with the manual provider: free@demo.local upgrades to Pro, reads the
 * Pro item, sees the subscription and its receipt on /subscription, cancels and keeps Pro; then
 * the test moves time (the row's period end is rewritten into the past in the server's SQLite
 * database) and the billing job ends it with nobody asking: the item is behind the paywall again
 * and /subscription says Free. The demo account is restored at the end.
 *
 * The period ends while the item is open: the comments below it load after the page, so their
 * request is the first to meet the reader's new plan. The server refuses it (403: the browser logs
 * that refusal, the one expected here) and the page turns to the paywall without a reload. The
 * test holds that request until time has moved, so it always meets the ended plan.
 *
 * Three clicks from the paywall: "Upgrade to Pro", "Confirm", "Continue" back to the item.
 */
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const proArticle = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article")!;
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data");

function withDb<T>(fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(dataDir, "app.db"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return fn(db);
  } finally {
    db.close();
  }
}

const freeUserId = () =>
  withDb(
    (db) => (db.prepare(`SELECT id FROM "user" WHERE email = ?`).get("free@demo.local") as { id: string }).id,
  );

/** Back to the seeded state: free@demo.local has only its Free row. */
function restoreFreeAccount() {
  const userId = freeUserId();
  withDb((db) => {
    db.prepare(`DELETE FROM user_subscription WHERE "userId" = ? AND source = 'manual'`).run(userId);
    db.prepare(`DELETE FROM billing_invoice WHERE "userId" = ?`).run(userId);
    db.prepare(`DELETE FROM billing_checkout WHERE "userId" = ?`).run(userId);
    db.prepare(`DELETE FROM billing_customer WHERE "userId" = ?`).run(userId);
  });
}

// The comments' refused request once the plan has ended, and nothing else.
test.use({ expectedConsoleErrors: [/status of 403 .*\/api\/content\/[^/]+\/comments\?/] });

test("a Free reader upgrades to Pro, reads the item, cancels, keeps Pro, and is Free once the period ends", async ({
  page,
}) => {
  test.setTimeout(90_000);
  try {
    await signIn(page, "free@demo.local", `/content/${proArticle.slug}`);
    await expect(page.getByText("Premium Content")).toBeVisible();

    const returnTo = `/content/${proArticle.slug}`;
    // Click 1: the paywall's "Upgrade to Pro" opens the checkout for the cheapest plan that opens it.
    await screenshot(page, "paywall-free-1280");
    await Promise.all([
      page.waitForURL(/\/checkout\/[0-9a-f-]{36}$/),
      page.getByRole("button", { name: "Upgrade to Pro" }).click(),
    ]);
    await expect(page.getByText("This installation takes no payments")).toBeVisible();
    await expect(page.getByText("$19/month")).toBeVisible();
    await screenshot(page, "checkout-confirm-1280");
    await expectNoSeriousA11yViolations(page);
    // Click 2: confirm (the manual provider records the change and a receipt).
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByText("You're on Pro")).toBeVisible();
    await screenshot(page, "checkout-done-1280");
    // Click 3: back to the item, now readable.
    await Promise.all([
      page.waitForURL(`**${returnTo}`),
      page.getByRole("link", { name: "Continue" }).click(),
    ]);
    await expect(page.getByRole("heading", { level: 1, name: proArticle.title })).toBeVisible();
    await expect(page.getByText("Premium Content")).toHaveCount(0);

    await page.goto("/subscription");
    await expect(page.getByRole("main").getByText("Pro", { exact: true }).first()).toBeVisible();
    await expect(page.getByText(/renews on/)).toBeVisible();
    await expect(page.getByRole("cell", { name: /takes no payments/ })).toBeVisible();
    await screenshot(page, "subscription-pro-1280");
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Cancel subscription" }).click();
    await page.getByRole("button", { name: "Cancel at period end" }).click();
    await expect(page.getByText(/Your plan ends on/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Resume Pro" })).toBeVisible();
    await screenshot(page, "subscription-canceling-1280");

    // The comments' request waits until time has moved.
    let release = () => {};
    const timeMoved = new Promise<void>((resolve) => {
      release = resolve;
    });
    const comments = /\/api\/content\/[^/]+\/comments\?/;
    await page.route(comments, async (route) => {
      await timeMoved;
      await route.continue();
    });
    const commentsAsked = page.waitForRequest(comments);
    await page.goto(returnTo);
    await expect(page.getByText("Premium Content")).toHaveCount(0);
    await commentsAsked;

    // Time moves: the period ended a minute ago. The billing job (every second) ends it.
    const past = new Date(Date.now() - 60_000).toISOString();
    withDb((db) =>
      db
        .prepare(
          `UPDATE user_subscription SET "periodEnd" = ?, "canceledAt" = ? WHERE "userId" = ? AND source = 'manual' AND status = 'active'`,
        )
        .run(past, past, freeUserId()),
    );
    // The open page learns it from the comments' refusal and shows the paywall.
    const refused = page.waitForResponse(comments);
    release();
    expect((await refused).status()).toBe(403);
    await expect(page.getByText("Premium Content")).toBeVisible();
    await expect(page.getByTestId("comments")).toHaveCount(0);
    await page.unroute(comments);

    await expect(async () => {
      await page.goto("/subscription");
      await expect(page.getByText("Choose a plan", { exact: true })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    // The current plan card (the shell's status pills also name the tier, one of them hidden).
    await expect(page.getByRole("main").getByText("Free", { exact: true }).first()).toBeVisible();
    await page.goto(returnTo);
    await expect(page.getByText("Premium Content")).toBeVisible();
  } finally {
    restoreFreeAccount();
  }
});
