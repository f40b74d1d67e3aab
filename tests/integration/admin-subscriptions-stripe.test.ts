/**
 * Admin subscriptions with Stripe configured (issue 14): a Stripe row is cancelled at its period
 * end through Stripe (the local Stripe, tests/helpers/fake-stripe.ts, holds cancel_at_period_end);
 * ending it now or extending it is refused (409): Stripe owns its periods.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import type { CheckoutView, SubscriptionOverview } from "../../server/modules/billing/billing.types.ts";
import type {
  AdminSubscriptionPage,
  AdminSubscriptionView,
} from "../../server/modules/billing/billing-admin.ts";
import { call, createConfirmedAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { type FakeStripe, startFakeStripe } from "../helpers/fake-stripe.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/subscriptions";

describe.each(DIALECTS)("admin subscriptions with Stripe (%s)", (dialect) => {
  let server: TestServer;
  let fake: FakeStripe;
  const clock = new TestClock();
  let reader = { cookie: "", email: "" };
  let admin = "";

  const req = (path: string, body?: unknown, cookie?: string) => call(server.url, path, body, { cookie });

  beforeAll(async () => {
    fake = await startFakeStripe({ now: clock.now });
    server = await startTestServer(
      dialect,
      {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_URL: fake.url,
      },
      { now: clock.now },
    );
    await sql`UPDATE plan SET "stripeMonthlyPriceId" = 'price_' || id || '_month' WHERE id <> 'free'`.execute(
      server.runtime.database.db,
    );
    fake.definePrice({ id: "price_pro_month", interval: "month", unitAmount: 1900, productName: "Pro" });
    const account = await createConfirmedAccount(server.url, server.dataDir, "adminstripe");
    reader = {
      cookie: await signInCookie(server.url, account.email, account.password),
      email: account.email,
    };
    admin = await signInCookie(server.url, "admin@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("cancels a Stripe subscription at its period end through Stripe; now and extend are refused", async () => {
    const checkout = (await (
      await req("/api/billing/checkout", { planId: "pro", interval: "month" }, reader.cookie)
    ).json()) as CheckoutView;
    const session = [...fake.sessions.values()].find((s) => s.client_reference_id === checkout.id)!;
    const { session: done, subscription } = fake.completeCheckout(String(session.id));
    const delivered = await fake.deliver(
      `${server.url}/api/billing/webhooks/stripe`,
      fake.event("checkout.session.completed", done),
    );
    expect(delivered.status).toBe(200);

    const list = (await (
      await req(`${API}?q=${encodeURIComponent(reader.email)}&source=stripe`, undefined, admin)
    ).json()) as AdminSubscriptionPage;
    expect(list.items).toHaveLength(1);
    const row = list.items[0]!;
    expect(row).toMatchObject({
      provider: "stripe",
      tier: "pro",
      status: "active",
      cancelAtPeriodEnd: false,
    });

    const now = await req(`${API}/${row.id}/cancel`, { version: row.version, when: "now", note: "n" }, admin);
    expect(now.status).toBe(409);
    const extend = await req(`${API}/${row.id}/extend`, { version: row.version, days: 5, note: "n" }, admin);
    expect(extend.status).toBe(409);
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);

    const res = await req(
      `${API}/${row.id}/cancel`,
      { version: row.version, when: "period_end", note: "Refund agreed by support" },
      admin,
    );
    expect(res.status).toBe(200);
    const after = (await res.json()) as AdminSubscriptionView;
    expect(after).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);
    const overview = (await (
      await req("/api/billing/subscription", undefined, reader.cookie)
    ).json()) as SubscriptionOverview;
    expect(overview.currentTier).toBe("pro");
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "subscription_canceled")
      .execute();
    expect(audit.some((r) => String(r.details).includes("Refund agreed by support"))).toBe(true);
  });
});
