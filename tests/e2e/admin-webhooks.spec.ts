/**
 * Webhooks (decision 037, /admin/webhooks): the platform admin adds an endpoint pointing at a
 * receiver on localhost, sees its signing secret once, sends a test event the receiver gets
 * signed with that secret, sees the delivery succeed in the log and replays it. Screens in light
 * and dark, 1280 and 390 px (no sideways scrolling on a phone).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { verifyWebhook } from "../../server/modules/webhooks/webhook-signing.ts";
import { expect, expectNoSeriousA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const RECEIVER_PORT = Number(process.env.E2E_RECEIVER_PORT ?? 3671);

let receiver: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

test("an admin adds an endpoint, sees the secret once, sends a test event and replays it", async ({
  page,
}) => {
  const url = `http://127.0.0.1:${RECEIVER_PORT}/hook`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "admin@demo.local", "/admin/webhooks");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Webhooks");

  // A bad URL is explained next to its field.
  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("URL").fill("http://example.com/hook");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText(/must use https/)).toBeVisible();

  await form.getByLabel("URL").fill(url);
  await form.getByLabel("Description").fill("Local receiver");
  await form.getByLabel(/comment\.posted/).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const secretBox = page.getByTestId("webhook-secret");
  await expect(secretBox).toBeVisible();
  const secret = (await secretBox.textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_/);
  const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: url });
  await expect(endpoint).toContainText("content.published");
  await expect(endpoint).toContainText("comment.posted");
  await expect(endpoint).toContainText(`…${secret.slice(-4)}`);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "admin-webhooks-secret-1280-light");

  // Shown once: a fresh load has only its last characters.
  await page.goto("/admin/webhooks");
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // A test event reaches the receiver, signed with the secret.
  await page
    .getByTestId("webhook-endpoint")
    .filter({ hasText: url })
    .getByRole("button", { name: "Send test event" })
    .click();
  await expect(page.getByRole("status")).toContainText("Sent a test event");
  await expect.poll(() => received.length, { timeout: 5000 }).toBeGreaterThan(0);
  const first = received[0]!;
  const event = JSON.parse(first.body) as { id: string; type: string };
  expect(event.type).toBe("webhook.test");
  expect(first.headers["webhook-id"]).toBe(event.id);
  expect(
    verifyWebhook(
      secret,
      {
        timestamp: String(first.headers["webhook-timestamp"]),
        signature: String(first.headers["webhook-signature"]),
      },
      first.body,
    ),
  ).toBe(true);

  // The log shows it delivered (200) …
  const deliveries = page.getByTestId("webhook-delivery");
  await expect(async () => {
    await page.getByRole("link", { name: "Refresh" }).click();
    await expect(deliveries.first()).toHaveAttribute("data-status", "succeeded", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(deliveries.first()).toContainText("webhook.test");
  await expect(deliveries.first().getByTestId("delivery-response")).toHaveText("HTTP 200");
  await deliveries.first().getByText("Body and response").click();
  await expect(deliveries.first().locator("pre").first()).toContainText(event.id);
  await screenshot(page, "admin-webhooks-log-1280-light");

  // … and a replay sends the same event again.
  await deliveries.first().getByRole("button", { name: "Replay" }).click();
  await expect(page.getByRole("status")).toContainText(`Replaying event ${event.id}`);
  await expect.poll(() => received.filter((r) => r.headers["webhook-id"] === event.id).length).toBe(2);
  await expect(async () => {
    await page.getByRole("link", { name: "Refresh" }).click();
    await expect(deliveries).toHaveCount(2, { timeout: 1000 });
    await expect(deliveries.first()).toHaveAttribute("data-status", "succeeded", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(deliveries.first()).toContainText("replay");

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/admin/webhooks");
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "admin-webhooks-1280-dark");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/webhooks");
  await screenshot(page, "admin-webhooks-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/admin/webhooks#deliveries");
  await screenshot(page, "admin-webhooks-390-light");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
