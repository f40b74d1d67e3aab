import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { DEMO_PASSWORD, demoAccountByEmail } from "../../server/db/seed/accounts.ts";
import { nextDemoTotpCode, rememberTotpStepsIn } from "../helpers/second-factor.ts";

// The server's data folder is fresh for each run (tests/e2e/serve.ts), and so are the steps used.
rememberTotpStepsIn(path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data", "totp-steps.json"));

/**
 * Every test fails on an unexpected console.error or uncaught page error in the browser.
 */
export const test = base.extend<{
  page: Page;
  consoleErrors: string[];
  expectedDocumentStatus: number | null;
  expectedConsoleErrors: RegExp[];
}>({
  /** Every full page load waits for hydration: input typed or clicks made before it are lost. */
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = (async (url: string, options?: Parameters<Page["goto"]>[1]) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== "commit") await hydrated(page);
      return response;
    }) as Page["goto"];
    await use(page);
  },
  /**
   * Browser log lines a test provokes on purpose (e.g. refused sign-in requests), matched against
   * the line as reported: its text, then the address it came from in brackets.
   */
  expectedConsoleErrors: [[], { option: true }],
  /** A test that loads a page answered with this status expects the browser's one log line about it. */
  expectedDocumentStatus: [null, { option: true }],
  consoleErrors: [
    async ({ page, expectedDocumentStatus, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      const expected = expectedDocumentStatus
        ? `Failed to load resource: the server responded with a status of ${expectedDocumentStatus}`
        : null;
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        if (expected && msg.text().startsWith(expected) && msg.location().url === page.url()) return;
        const line = `${msg.text()} (${msg.location().url})`;
        if (expectedConsoleErrors.some((re) => re.test(line))) return;
        errors.push(line);
      });
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      await use(errors);
      expect(errors, "unexpected console errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Signs in through the page. Demo staff accounts answer the second step with the next unused
 * code of their published TOTP secret (tests/helpers/second-factor.ts).
 */
export async function signIn(page: Page, email: string, redirect = "/"): Promise<void> {
  await page.goto(`/auth/signin?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("E-mail, username or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  const arrived = (url: URL) => url.pathname === redirect.split("?")[0];
  if (!demoAccountByEmail(email)?.totpSecret) {
    await Promise.all([page.waitForURL(arrived), page.getByRole("button", { name: /^sign in$/i }).click()]);
    return;
  }
  // Each authenticator code is accepted once, so a staff sign-in may wait for the next 30-second
  // step when an earlier test used the current one: that wait is not the test's own time.
  base.info().setTimeout(base.info().timeout + 35_000);
  await page.getByRole("button", { name: /^sign in$/i }).click();
  const codeField = page.getByLabel("Code from your authenticator app");
  await codeField.waitFor();
  await codeField.fill(await nextDemoTotpCode(new URL(page.url()).origin, email));
  await Promise.all([
    page.waitForURL(arrived),
    page.getByRole("button", { name: "Verify and sign in" }).click(),
  ]);
}

export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/e2e/screens/${name}.png`, fullPage: false });
}

/** Waits until React has hydrated the page (root sets html[data-hydrated]); clicks before are lost. */
export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated='true']").waitFor({ state: "attached" });
}
