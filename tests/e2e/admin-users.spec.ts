/**
 * /admin/users (issue 14, "done when"): a fresh reader is locked out by five wrong passwords;
 * admin@ finds them by part of their e-mail, sees why they were locked out, unlocks them, moves
 * them to Pro with a note and finds the three actions on /admin/logs. Then business@ sees only
 * Acme's members, and another user's page is 404 for it. The reader is a new account, so the demo
 * accounts other specs use keep their state.
 */
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { latestCodeFor } from "./outbox.ts";

const PASSWORD = "Str0ng-Passw0rd!";
let freeUserId = "";

test("admin@ finds a locked-out reader, sees why, unlocks them and moves them to Pro with a note", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // A new reader, signed up and confirmed through the API (nobody is signed in yet).
  const tag = `lockme${Date.now().toString(36)}`;
  const email = `${tag}@example.test`;
  const headers = { origin: baseURL!, "content-type": "application/json" };
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    headers,
    data: { email, username: tag, name: "Lucy Locked", password: PASSWORD },
  });
  expect(signUp.status()).toBe(200);
  const verify = await page.request.post("/api/auth/email-otp/verify-email", {
    headers,
    data: { email, otp: await latestCodeFor(email) },
  });
  expect(verify.status()).toBe(200);
  // Five wrong passwords lock the account (as the lockout spec does through the form).
  for (let i = 1; i <= 5; i++) {
    const wrong = await page.request.post("/api/auth/sign-in/email", {
      headers,
      data: { email, password: `Wrong-Passw0rd-${i}!` },
    });
    expect(wrong.status()).toBe(401);
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", "/admin/users");
  await expect(page.getByText(/coming in a later release/i)).toHaveCount(0);
  const ids = await page.evaluate(async () => {
    const res = await fetch("/api/admin/users?q=free%40demo.local");
    return ((await res.json()) as { items: { id: string; email: string }[] }).items;
  });
  freeUserId = ids.find((u) => u.email === "free@demo.local")!.id;
  const filters = page.getByRole("form", { name: "Find users" });
  await filters.getByRole("searchbox", { name: "Search" }).fill(tag.slice(0, 8));
  await filters.getByRole("button", { name: "Find users" }).click();
  await expect(page).toHaveURL(/q=lockme/);
  const row = page.getByTestId("user-row").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Locked out");
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-users-1280-light");

  await row.getByTestId("user-link").click();
  await expect(page.getByTestId("user-heading")).toContainText(email);
  await expect(page.getByText(/Locked out until/)).toBeVisible();
  const why = page.getByTestId("lockout-events");
  await expect(why.getByText("Wrong password (email)")).toHaveCount(5);
  await expect(why.getByText("Locked out", { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-user-1280-light");

  const lockout = page.locator("form").filter({ has: page.getByRole("button", { name: "Unlock account" }) });
  await lockout.getByLabel("Note for the audit log (optional)").fill("E2E: verified by phone");
  await lockout.getByRole("button", { name: "Unlock account" }).click();
  await expect(page.getByTestId("action-outcome")).toHaveText("Unlocked: they can sign in again.");
  await expect(page.getByTestId("lockout-state")).toBeVisible();

  const plan = page.locator("form").filter({ has: page.getByRole("button", { name: "Grant plan" }) });
  await plan.getByLabel("Plan").selectOption("pro");
  await plan.getByLabel("Days").fill("30");
  await plan.getByLabel("Note (required)").fill("E2E: moved to Pro after the lockout");
  await plan.getByRole("button", { name: "Grant plan" }).click();
  await expect(page.getByTestId("action-outcome")).toContainText(`${email} now has pro`);
  await expect(page.getByText(/Current tier:\s*Pro/)).toBeVisible();

  // The lockout, the unlock and the grant in the audit log, with the notes.
  const userId = await page.evaluate(async (e) => {
    const res = await fetch(`/api/admin/users?q=${encodeURIComponent(e)}`);
    return ((await res.json()) as { items: { id: string }[] }).items[0]!.id;
  }, email);
  const audit = await page.evaluate(async (id) => {
    const read = async (query: string) => {
      const res = await fetch(`/api/admin/audit?${query}`);
      const body = (await res.json()) as {
        items: { action: string; actor: { id: string } | null; details: Record<string, unknown> | null }[];
      };
      return body.items.map((i) => ({
        action: i.action,
        actor: i.actor?.id ?? null,
        note: i.details?.note ?? null,
      }));
    };
    return { about: await read(`targetId=${id}`), by: await read(`actor=${id}`) };
  }, userId);
  expect(audit.by.map((a) => a.action)).toContain("lockout");
  expect(audit.about).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ action: "admin_unlock", note: "E2E: verified by phone" }),
      expect.objectContaining({
        action: "subscription_granted",
        note: "E2E: moved to Pro after the lockout",
      }),
    ]),
  );
  await page.goto(`/admin/logs?targetId=${encodeURIComponent(userId)}`);
  const logRows = page.locator("tbody");
  await expect(logRows.getByText("Account unlocked by an admin")).toBeVisible();
  await expect(logRows.getByText("Plan granted by an admin")).toBeVisible();
  await screenshot(page, "admin-users-logs-1280-light");

  // Dark and phone views of both screens.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`/admin/users?q=${tag.slice(0, 8)}`);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "admin-users-1280-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/users?q=${tag.slice(0, 8)}`);
  await expect(page.getByTestId("user-card")).toHaveCount(1);
  await screenshot(page, "admin-users-390-dark");
  let overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.goto(`/admin/users/${userId}`);
  await screenshot(page, "admin-user-390-dark");
  overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.emulateMedia({ colorScheme: "light" });
});

test.describe("business@", () => {
  test.use({ expectedDocumentStatus: 404 });
  test("sees only Acme's members, and another user's page is 404", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "business@demo.local", "/admin/users");
    const emails = await page.getByTestId("user-row").allTextContents();
    expect(emails.some((t) => t.includes("business@demo.local"))).toBe(true);
    expect(emails.some((t) => t.includes("free@demo.local"))).toBe(false);
    const all = await page.evaluate(async () => {
      const res = await fetch("/api/admin/users?limit=100");
      return ((await res.json()) as { items: { organisations: string[]; email: string }[] }).items;
    });
    expect(all.length).toBeGreaterThan(0);
    for (const u of all) expect(u.organisations).toContain("acme");
    expect(all.map((u) => u.email)).not.toContain("free@demo.local");
    await screenshot(page, "admin-users-business-1280-light");

    expect(freeUserId).not.toBe("");
    const res = await page.goto(`/admin/users/${freeUserId}`);
    expect(res?.status()).toBe(404);
  });
});
