import { expect, signIn, test } from "./fixtures.ts";
import { latestCodeFor } from "./outbox.ts";

const NEW_PASSWORD = "Fresh-Start-2026!";

test("a new person signs up, reads the code from the outbox, confirms and signs in", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `new-${stamp}@example.com`;
  await page.goto("/auth/signup?redirect=%2Fdashboard");
  await page.getByLabel("Username").fill(`new${stamp}`);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Given name").fill("Nova");
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: /create account|sign up/i }).click();
  await expect(page).toHaveURL(/\/auth\/confirm\?/);

  const code = await latestCodeFor(email);
  await page.getByLabel(/confirmation code/i).fill(code);
  await page.getByRole("button", { name: /confirm/i }).click();
  await expect(page).toHaveURL(/\/auth\/signin\?/);

  await page.getByLabel("E-mail, username or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/dashboard"),
    page.getByRole("button", { name: /^sign in$/i }).click(),
  ]);
  await expect(page.getByText("Welcome back, Nova.")).toBeVisible();
  // The account is the one just made: its profile carries the address.
  await page.goto("/profile");
  await expect(page.getByText(email).first()).toBeVisible();
});

test("a visitor sent from /dashboard to sign-in lands back on /dashboard", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=%2Fdashboard$/);
  await page.getByLabel("E-mail, username or phone").fill("basic@demo.local");
  await page.getByLabel("Password", { exact: true }).fill("Demo-Passw0rd!");
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/dashboard"),
    page.getByRole("button", { name: /^sign in$/i }).click(),
  ]);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test.describe("unconfirmed", () => {
  test.use({ expectedConsoleErrors: [/status of 403/] });
  test("signing in before confirming the e-mail is refused with a link to /auth/confirm", async ({
    page,
    request,
  }) => {
    const stamp = Date.now().toString(36);
    const email = `unconfirmed-${stamp}@example.com`;
    const res = await request.post("/api/auth/sign-up/email", {
      data: { email, password: NEW_PASSWORD, name: "Una", username: `una${stamp}` },
    });
    expect(res.ok()).toBe(true);
    await page.goto("/auth/signin");
    await page.getByLabel("E-mail, username or phone").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: /^sign in$/i }).click();
    await expect(page.getByText(/confirm your e-mail/i).first()).toBeVisible();
    await expect(page.locator('a[href^="/auth/confirm"]').first()).toBeVisible();
  });
});

test("signing out from the sidebar returns to a visitor session", async ({ page }) => {
  await signIn(page, "pro@demo.local", "/dashboard");
  await page
    .getByRole("button", { name: /sign out/i })
    .first()
    .click();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\/signin/);
});
