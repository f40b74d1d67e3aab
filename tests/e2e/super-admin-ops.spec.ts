/**
 * /super-admin/infrastructure and /super-admin/database (issue 14): owner@ sees this app process
 * and the background jobs, runs the integrity check (result on the page, without a reload of
 * its own), and downloads a backup that is a real SQLite file holding the users.
 */
import { DatabaseSync } from "node:sqlite";
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

test("owner@ sees this process, runs the integrity check and downloads a backup", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "owner@demo.local", "/super-admin/infrastructure");

  // Infrastructure: this process (the one answering the API) is listed and marked.
  const { currentProcessId, pid } = await page.evaluate(async () => {
    const view = (await (await fetch("/api/admin/operations/infrastructure")).json()) as {
      currentProcessId: string;
      processes: Array<{ processId: string; pid: number }>;
    };
    const me = view.processes.find((p) => p.processId === view.currentProcessId)!;
    return { currentProcessId: view.currentProcessId, pid: me.pid };
  });
  await page.reload();
  const me = page.locator(`[data-testid="process-row"][data-process-id="${currentProcessId}"]`);
  await expect(me).toBeVisible();
  await expect(me.getByText("this process", { exact: true })).toBeVisible();
  await expect(me.getByText(`· pid ${pid}`)).toBeVisible();
  await expect(page.getByText("Coming in a later release")).toHaveCount(0);
  const billing = page.getByTestId("jobs-all").locator('[data-job="billing-sweep"]');
  await expect(billing).toBeVisible();
  await expect(billing.getByText("ok", { exact: true })).toBeVisible();
  await expect(page.getByTestId("latency-database").getByText("reachable")).toBeVisible();
  await expect(page.getByTestId("latency-storage").getByText("working")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "super-admin-infrastructure");

  // Database: tables and migrations, then the integrity check on demand.
  await page.goto("/super-admin/database");
  await expect(page.locator('[data-testid="table-row"][data-table="user"]')).toBeVisible();
  await expect(page.getByTestId("migration").filter({ hasText: "030-process-heartbeat" })).toBeVisible();
  await page.getByRole("button", { name: "Run integrity check" }).click();
  const result = page.getByTestId("integrity-result");
  await expect(result).toHaveAttribute("data-ok", "true");
  await expect(result.getByText("No problems found")).toBeVisible();
  await expect(result.getByText("PRAGMA foreign_key_check")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "super-admin-database");

  // The backup arrives as a download of a consistent SQLite copy.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download a backup" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^lumen-hub-\d{8}-\d{6}\.db$/);
  const file = await download.path();
  const copy = new DatabaseSync(file, { readOnly: true });
  try {
    const owner = copy.prepare("select email from user where email = ?").get("owner@demo.local");
    expect(owner).toBeTruthy();
  } finally {
    copy.close();
  }

  // Both actions are in the audit log with the owner as the actor.
  const actions = await page.evaluate(async () => {
    const res = await fetch("/api/admin/audit?kind=admin&limit=20");
    const body = (await res.json()) as { items: Array<{ action: string; actor: { email: string } | null }> };
    return body.items.map((i) => `${i.action}:${i.actor?.email ?? ""}`);
  });
  expect(actions).toContain("database_integrity_checked:owner@demo.local");
  expect(actions).toContain("database_backup_downloaded:owner@demo.local");
});
