import { secretOf, totpCode } from "../helpers/totp.ts";
import { expect, test } from "./fixtures.ts";
import { latestCodeFor } from "./outbox.ts";

const PASSWORD = "Two-Factor-2026!";

test("sign up → confirm → sign in → turn on TOTP in /settings → sign out → sign in asks for the code", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const email = `mfa-${stamp}@example.com`;
  await page.goto("/auth/signup?redirect=%2Fsettings");
  await page.getByLabel("Username").fill(`mfa${stamp}`);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Given name").fill("Mia");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: /create account|sign up/i }).click();
  await expect(page).toHaveURL(/\/auth\/confirm\?/);
  await page.getByLabel(/confirmation code/i).fill(await latestCodeFor(email));
  await page.getByRole("button", { name: /confirm/i }).click();
  await expect(page).toHaveURL(/\/auth\/signin\?/);

  await page.getByLabel("E-mail, username or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/settings"),
    page.getByRole("button", { name: /^sign in$/i }).click(),
  ]);

  // Enable: password → QR code and key → a code computed here → backup codes → On.
  const card = page;
  await expect(page.getByTestId("mfa-status")).toHaveText("Off");
  await page.locator('input[name="mfa-password"]').fill(PASSWORD);
  await card.getByRole("button", { name: "Set up authenticator app" }).click();
  await expect(page.getByRole("img", { name: /QR code/ }).locator("svg")).toBeVisible();
  const key = (await page.getByTestId("mfa-secret").innerText()).replace(/\s/g, "");
  const secret = secretOf(`otpauth://totp/x?secret=${key}`);
  await card.getByLabel("Code from the app").fill(totpCode(secret));
  await card.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(page.getByRole("list", { name: "Backup codes" }).getByRole("listitem")).toHaveCount(10);
  await page.getByRole("button", { name: "I saved them" }).click();
  await expect(page.getByTestId("mfa-status")).toHaveText("On");

  await page
    .getByRole("button", { name: /sign out/i })
    .first()
    .click();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();

  await page.goto("/auth/signin?redirect=%2Fsettings");
  await page.getByLabel("E-mail, username or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: /^sign in$/i }).click();
  const codeField = page.getByLabel("Code from your authenticator app");
  await expect(codeField).toBeVisible();
  await expect(codeField).toHaveAttribute("autocomplete", "one-time-code");
  // The enrolment used the current step; the next one is accepted (±1 step) and not a replay.
  await codeField.fill(totpCode(secret, Date.now() + 30_000));
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/settings"),
    page.getByRole("button", { name: "Verify and sign in" }).click(),
  ]);
  await expect(page.getByTestId("mfa-status")).toHaveText("On");
});
