import { LOCKOUT_MESSAGE } from "../../core/index.ts";
import { expect, test } from "./fixtures.ts";

// Runs last (file order): it locks an account that no other browser test uses.
test.describe("lockout", () => {
  // The browser logs each refused sign-in request (401, then 429): expected here.
  test.use({ expectedConsoleErrors: [/status of (401|429)/] });
  test("the sixth wrong password shows the lockout message", async ({ page }) => {
    await page.goto("/auth/signin");
    const email = page.getByLabel("E-mail, username or phone");
    const password = page.getByLabel("Password", { exact: true });
    const submit = page.getByRole("button", { name: /^sign in$/i });
    for (let attempt = 1; attempt <= 5; attempt++) {
      await email.fill("enterprise@demo.local");
      await password.fill(`Wrong-Password-${attempt}!`);
      await submit.click();
      await expect(page.getByRole("alert").first()).toBeVisible();
    }
    await email.fill("enterprise@demo.local");
    await password.fill("Wrong-Password-6!");
    if (await submit.isEnabled()) await submit.click();
    await expect(page.getByText(LOCKOUT_MESSAGE).first()).toBeVisible();
  });
});
