import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { secretOf, totpCode } from "../helpers/totp.ts";
import { expect, test } from "./fixtures.ts";
import { latestCodeFor } from "./outbox.ts";

const PASSWORD = "Staff-Second-2026!";

/** Adds the account to a group in the e2e server's database, as an operator would. */
function addToGroup(email: string, group: string) {
  const db = new DatabaseSync(path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data", "app.db"));
  try {
    const user = db.prepare("SELECT id FROM user WHERE email = ?").get(email) as { id: string };
    db.prepare('INSERT INTO user_group ("userId", "groupName", "createdAt") VALUES (?, ?, ?)').run(
      user.id,
      group,
      new Date().toISOString(),
    );
  } finally {
    db.close();
  }
}

test.describe("a content manager without a second factor", () => {
  test.use({ expectedDocumentStatus: 403 });

  test("is led to enrolment after sign-in, sees why /content is closed, and gets it after enrolling", async ({
    page,
  }) => {
    const stamp = Date.now().toString(36);
    const email = `staff-${stamp}@example.com`;
    await page.goto("/auth/signup");
    await page.getByLabel("Username").fill(`staff${stamp}`);
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Given name").fill("Sam");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: /create account|sign up/i }).click();
    await expect(page).toHaveURL(/\/auth\/confirm/);
    await page.getByLabel(/confirmation code/i).fill(await latestCodeFor(email));
    await page.getByRole("button", { name: /confirm/i }).click();
    await expect(page).toHaveURL(/\/auth\/signin/);
    addToGroup(email, "ContentManager");

    // Sign-in with the password alone works, and leads to the enrolment.
    await page.getByLabel("E-mail, username or phone").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    // The settings page's first security check settles before the next navigation.
    const checked = page.waitForResponse((r) => r.url().endsWith("/api/account/security-check"));
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/settings" && url.searchParams.has("enrol-mfa")),
      page.getByRole("button", { name: /^sign in$/i }).click(),
    ]);
    expect((await checked).status()).toBe(200);
    await expect(page.getByText("Staff rights unlock after this step")).toBeVisible();
    await expect(page.getByText(/has the Content Manager role/).first()).toBeVisible();

    // The staff page explains instead of a bare 403.
    await page.goto("/content");
    await expect(page.getByRole("heading", { name: "Set up two-factor authentication first" })).toBeVisible();
    await page.getByRole("link", { name: "Set up two-factor authentication" }).first().click();
    await expect(page).toHaveURL(/\/settings\?enrol-mfa=1/);

    await page.locator('input[name="mfa-password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    const key = (await page.getByTestId("mfa-secret").innerText()).replace(/\s/g, "");
    await page.getByLabel("Code from the app").fill(totpCode(secretOf(`otpauth://totp/x?secret=${key}`)));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByRole("button", { name: "I saved them" }).click();
    await expect(page.getByTestId("mfa-status")).toHaveText("On");

    // The same session now has the rights.
    const res = await page.goto("/content");
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Set up two-factor authentication first" })).toHaveCount(
      0,
    );
  });
});
