/**
 * Issue 13, done when (organisations): business@demo.local adds five seats on the Business
 * dashboard (10 → 15 in the demo), invites a new address; the invitee signs up, confirms, opens
 * the invitation from the e-mail, accepts and reads an Enterprise item.
 *
 * Leaves the demo organisation with 15 seats and two members: no other spec counts its seats.
 */
import path from "node:path";
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { latestInviteToken } from "../helpers/orgs.ts";
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { latestCodeFor } from "./outbox.ts";

const DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data");
const ENTERPRISE_ITEM = DEMO_CONTENT.find((c) => c.slug === "ai-risk-assessment-for-internal-tools")!;
/** A sentence near the end of the item's body: only a reader of the body sees it. */
const FINGERPRINT = "The assessment works best when teams run it early";
const PASSWORD = "Fresh-Start-2026!";

async function inviteTokenFor(email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const token = await latestInviteToken(DATA_DIR, email);
    if (token) return token;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation e-mailed to ${email}`);
}

test("business@ adds five seats and invites a colleague, who signs up, accepts and reads Enterprise items", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const email = `colleague-${stamp}@example.com`;

  // The organisation's admin adds five seats.
  await signIn(page, "business@demo.local", "/business/dashboard");
  await expect(page.getByText("1 of 10 seats used")).toBeVisible();
  await page.getByLabel("New total").fill("15");
  await expect(page.getByText("15 seats:")).toBeVisible();
  await page.getByRole("button", { name: "Add 5 seats" }).click();
  await expect(page.getByText("1 of 15 seats used")).toBeVisible();
  await screenshot(page, "business-seats-added-1280");

  // … and invites a new address.
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(page.getByText("1 invited")).toBeVisible();
  const token = await inviteTokenFor(email);
  await page
    .getByRole("button", { name: /sign out/i })
    .first()
    .click();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();

  // The invitee signs up with that address, confirms it and signs in.
  await page.goto("/auth/signup");
  await page.getByLabel("Username").fill(`colleague${stamp}`);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Given name").fill("Casey");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/auth\/confirm\?/);
  await page.getByLabel(/confirmation code/i).fill(await latestCodeFor(email));
  await page.getByRole("button", { name: /confirm/i }).click();
  await expect(page).toHaveURL(/\/auth\/signin\?/);
  const invitePath = `/individual/dashboard?invite=${token}`;
  await page.goto(`/auth/signin?redirect=${encodeURIComponent(invitePath)}`);
  await page.getByLabel("E-mail, username or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/individual/dashboard"),
    page.getByRole("button", { name: /^sign in$/i }).click(),
  ]);

  // Before accepting, the Enterprise item is locked for this Free reader.
  // (Checked over the API from the page: a request with another user agent would end the session.)
  const lockedBefore = await page.evaluate(
    async (slug) => ((await (await fetch(`/api/content/${slug}`)).json()) as { locked: boolean }).locked,
    ENTERPRISE_ITEM.slug,
  );
  expect(lockedBefore).toBe(true);

  // The invitation from the e-mail: accept → the organisation's dashboard.
  await expect(page.getByText("Join Acme Learning Co.")).toBeVisible();
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/business/dashboard"),
    page.getByRole("button", { name: "Accept invitation" }).click(),
  ]);
  await expect(page.getByText("2 of 15 seats used")).toBeVisible();

  // The member reads with the organisation's plan: the Enterprise item's body.
  await page.goto(`/content/${ENTERPRISE_ITEM.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: ENTERPRISE_ITEM.title })).toBeVisible();
  await expect(page.getByText(FINGERPRINT)).toBeVisible();
  await screenshot(page, "business-seats-member-reads-enterprise-1280");
});

test("a visitor signs up for an organisation: its admin, led to two-factor before buying seats", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const email = `founder-${stamp}@example.com`;
  await page.goto("/auth/signup?account=business");
  await expect(page.getByRole("radio", { name: /For my organisation/ })).toBeChecked();
  // The organisation's name is asked for, next to its field.
  await page.getByRole("button", { name: "Create account and organisation" }).click();
  await expect(page.getByText("Enter your organisation's name.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Organisation name").fill(`Northwind ${stamp}`);
  await page.getByLabel("Username").fill(`founder${stamp}`);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Given name").fill("Nora");
  await page.getByRole("button", { name: "Create account and organisation" }).click();
  await expect(page).toHaveURL(/\/auth\/confirm\?/);
  await page.getByLabel(/confirmation code/i).fill(await latestCodeFor(email));
  await page.getByRole("button", { name: /confirm/i }).click();
  await expect(page).toHaveURL(/\/auth\/signin\?/);
  await page.getByLabel("E-mail, username or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  // The organisation's admin rights wait for a second factor (decision 012): enrolment first.
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/settings"),
    page.getByRole("button", { name: /^sign in$/i }).click(),
  ]);
  await page.goto("/business/dashboard");
  await expect(page.getByText(`Northwind ${stamp}`)).toBeVisible();
  await expect(page.getByText("No plan yet")).toBeVisible();
  await expect(page.getByText(/set up two-factor authentication to buy seats/)).toBeVisible();
});
