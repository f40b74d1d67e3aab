/**
 * A local stand-in for the Stripe API (decision 019, "Stripe"): a `node:http` server on
 * 127.0.0.1 answering exactly the calls `server/modules/billing/stripe-provider.ts` makes, with
 * objects shaped like Stripe's, state in memory and no network. The SDK talks to it through
 * `STRIPE_API_URL` (host, port, protocol).
 *
 * - Bodies are read as the SDK sends them (form-encoded, `items[0][price]=…`).
 * - Every API request is recorded (method, path, Idempotency-Key, parsed body, status).
 * - Idempotency-Key is honoured like Stripe: the same key and body → the same answer replayed and
 *   no second object; the same key with another body → 400 idempotency_error.
 * - `fail(mode)`: answer 503, drop the connection before doing anything, or do the work and drop
 *   the connection before answering (a lost response: the retry must not act twice).
 * - Acting as Stripe: `completeCheckout`, `advancePeriod` (renewal, a pending schedule phase, a
 *   cancellation at the period end), `failPayment`, `payLatest`, `cancelNow`, and `event(type,
 *   object)`, which signs with the SDK's own `webhooks.generateTestHeaderString`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export const FAKE_STRIPE_SECRET_KEY = "sk_test_lumenfake000000000000";
export const FAKE_STRIPE_WEBHOOK_SECRET = "whsec_lumenfake000000000000";

type Json = Record<string, unknown>;
type Interval = "month" | "year";

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: Json;
  status: number;
}

export type FailureMode = "unavailable" | "drop" | "lose-response";

export interface FakePrice {
  id: string;
  interval: Interval;
  unitAmount: number;
  currency: string;
  productName: string;
}

export interface FakeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  metadata: Record<string, string>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  created: number;
  start_date: number;
  latest_invoice: string | null;
  schedule: string | null;
  /** A change waiting for its payment (`payment_behavior: pending_if_incomplete`). */
  pending_update: {
    expires_at: number;
    subscription_items: Array<{ id: string; price: Json; quantity: number }>;
  } | null;
  livemode: false;
  items: {
    object: "list";
    data: Array<{
      id: string;
      object: "subscription_item";
      price: Json;
      quantity: number;
      current_period_start: number;
      current_period_end: number;
    }>;
    has_more: false;
    url: string;
  };
}

interface SchedulePhase {
  start_date: number;
  end_date: number | null;
  items: Array<{ price: string; quantity: number }>;
}

interface FakeSchedule {
  id: string;
  object: "subscription_schedule";
  subscription: string;
  status: "active" | "released" | "canceled";
  end_behavior: string;
  current_phase: { start_date: number; end_date: number | null } | null;
  phases: SchedulePhase[];
  released_subscription: string | null;
}

export interface SignedEvent {
  id: string;
  type: string;
  payload: string;
  header: string;
}

export interface FakeStripe {
  url: string;
  /** Where the hosted checkout page's "Pay" sends the webhooks (the app's endpoint), if anywhere. */
  webhookUrl: string | null;
  secretKey: string;
  webhookSecret: string;
  requests: RecordedRequest[];
  customers: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, FakeSubscription>;
  schedules: Map<string, FakeSchedule>;
  invoices: Map<string, Json>;
  /** A recurring price the fake knows (unknown prices are refused as Stripe does). */
  definePrice(price: Omit<FakePrice, "currency" | "productName"> & Partial<FakePrice>): void;
  /** From now on the reader's card is declined (charges fail) until set back to false. */
  declinePayments(on: boolean): void;
  /** Fail the next `times` API requests (default: until `fail(null)`). */
  fail(mode: FailureMode | null, times?: number): void;
  /** Requests whose path starts with this (e.g. "/v1/customers"), POSTs only when asked. */
  calls(pathPrefix: string, method?: string): RecordedRequest[];
  /** The reader paid: the session completes, the subscription and its first paid invoice exist. */
  completeCheckout(sessionId: string): { session: Json; subscription: FakeSubscription; invoice: Json };
  /** The session's 24 hours ran out unpaid. */
  expireCheckout(sessionId: string): Json;
  /**
   * The period ends: a cancellation at the period end takes effect (canceled), a schedule's next
   * phase starts (and the schedule is released), otherwise the subscription renews with a paid invoice.
   */
  advancePeriod(subscriptionId: string): { subscription: FakeSubscription; invoice: Json | null };
  /** A renewal payment failed: past_due with an open invoice that failed. */
  failPayment(subscriptionId: string): { subscription: FakeSubscription; invoice: Json };
  /** The failed invoice is paid after all: active again, and a change waiting for it applies. */
  payLatest(subscriptionId: string): { subscription: FakeSubscription; invoice: Json };
  /** Stripe ended the subscription (retries exhausted, or canceled in the dashboard). */
  cancelNow(subscriptionId: string): FakeSubscription;
  /** An event of `type` about `object`, signed like Stripe does (the webhook secret unless given). */
  event(
    type: string,
    object: unknown,
    options?: { id?: string; timestamp?: number; secret?: string },
  ): SignedEvent;
  /** Posts a signed event to a webhook endpoint as Stripe would. */
  deliver(url: string, event: SignedEvent): Promise<Response>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;

/** `a[b][0][c]=v` form bodies as nested objects, numeric keys as arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p, i) => i === 0 || p !== "");
    let node: Json = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
      node = node[part] as Json;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
    }
    return Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

class StripeFail extends Error {
  readonly status: number;
  readonly error: Json;
  constructor(status: number, error: Json) {
    super(String(error.message));
    this.status = status;
    this.error = error;
  }
}

const invalid = (message: string, param?: string, code?: string) =>
  new StripeFail(400, {
    type: "invalid_request_error",
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
const missing = (what: string, key: string) =>
  new StripeFail(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${what}: '${key}'`,
    param: "id",
  });

export async function startFakeStripe(options: { now?: () => number } = {}): Promise<FakeStripe> {
  const nowMs = options.now ?? Date.now;
  const nowS = () => Math.floor(nowMs() / 1000);
  const signer = new Stripe(FAKE_STRIPE_SECRET_KEY);
  const prices = new Map<string, FakePrice>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  const sessionItems = new Map<
    string,
    { price: string; quantity: number; subscriptionMetadata: Record<string, string> }
  >();
  let failure: { mode: FailureMode; remaining: number } | null = null;
  let declining = false;
  const portals = new Map<string, { customer: string; return_url: unknown }>();
  let invoiceNumber = 0;

  const fake = {
    url: "",
    webhookUrl: null,
    secretKey: FAKE_STRIPE_SECRET_KEY,
    webhookSecret: FAKE_STRIPE_WEBHOOK_SECRET,
    requests: [] as RecordedRequest[],
    customers: new Map<string, Json>(),
    sessions: new Map<string, Json>(),
    subscriptions: new Map<string, FakeSubscription>(),
    schedules: new Map<string, FakeSchedule>(),
    invoices: new Map<string, Json>(),
  } as FakeStripe;

  const addInterval = (from: number, interval: Interval) => {
    const d = new Date(from * 1000);
    if (interval === "year") d.setUTCFullYear(d.getUTCFullYear() + 1);
    else d.setUTCMonth(d.getUTCMonth() + 1);
    return Math.floor(d.getTime() / 1000);
  };

  const priceObject = (priceId: string): Json => {
    const price = prices.get(priceId)!;
    return {
      id: price.id,
      object: "price",
      active: true,
      currency: price.currency,
      unit_amount: price.unitAmount,
      recurring: { interval: price.interval, interval_count: 1, usage_type: "licensed" },
      type: "recurring",
      product: `prod_${price.id}`,
    };
  };

  const knownPrice = (priceId: unknown, param: string): FakePrice => {
    const price = typeof priceId === "string" ? prices.get(priceId) : undefined;
    if (!price) throw invalid(`No such price: '${String(priceId)}'`, param, "resource_missing");
    return price;
  };

  const subscriptionOf = (subId: string) => {
    const sub = fake.subscriptions.get(subId);
    if (!sub) throw missing("subscription", subId);
    return sub;
  };

  function createInvoice(
    sub: FakeSubscription,
    amount: number,
    options: { paid: boolean; reason: string; start: number; end: number; description?: string },
  ): Json {
    const item = sub.items.data[0]!;
    const price = prices.get(String(item.price.id))!;
    invoiceNumber += 1;
    const invoiceId = id("in");
    const created = nowS();
    const invoice: Json = {
      id: invoiceId,
      object: "invoice",
      number: `LUMENFAKE-${String(invoiceNumber).padStart(4, "0")}`,
      status: options.paid ? "paid" : "open",
      billing_reason: options.reason,
      amount_due: amount,
      amount_paid: options.paid ? amount : 0,
      amount_remaining: options.paid ? 0 : amount,
      attempt_count: 1,
      attempted: true,
      currency: price.currency,
      customer: sub.customer,
      description: null,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      lines: {
        object: "list",
        data: [
          {
            id: id("il"),
            object: "line_item",
            amount,
            currency: price.currency,
            description:
              options.description ?? `${item.quantity} × ${price.productName} (per ${price.interval})`,
            period: { start: options.start, end: options.end },
            quantity: item.quantity,
          },
        ],
        has_more: false,
      },
      period_start: options.start,
      period_end: options.start,
      hosted_invoice_url: `${fake.url}/invoice/${invoiceId}`,
      created,
      status_transitions: { finalized_at: created, paid_at: options.paid ? created : null },
      livemode: false,
    };
    fake.invoices.set(invoiceId, invoice);
    sub.latest_invoice = invoiceId;
    return invoice;
  }

  const amountOf = (priceId: string, quantity: number) => (prices.get(priceId)?.unitAmount ?? 0) * quantity;

  // --- API -------------------------------------------------------------------------------------

  function createCustomer(body: Json): Json {
    const customer = {
      id: id("cus"),
      object: "customer",
      email: body.email ?? null,
      name: body.name ?? null,
      metadata: (body.metadata as Json) ?? {},
      created: nowS(),
      livemode: false,
    };
    fake.customers.set(customer.id, customer);
    return customer;
  }

  function createSession(body: Json): Json {
    if (body.mode !== "subscription") throw invalid("Only subscription mode is faked", "mode");
    const customer = String(body.customer ?? "");
    if (!fake.customers.has(customer))
      throw invalid(`No such customer: '${customer}'`, "customer", "resource_missing");
    const lines = (body.line_items as Json[] | undefined) ?? [];
    const line = lines[0];
    if (!line || lines.length !== 1) throw invalid("Exactly one line item is faked", "line_items");
    knownPrice(line.price, "line_items[0][price]");
    const quantity = Number(line.quantity ?? 1);
    if (!Number.isInteger(quantity) || quantity < 1)
      throw invalid("Invalid quantity", "line_items[0][quantity]");
    if (typeof body.success_url !== "string" || typeof body.cancel_url !== "string") {
      throw invalid("Missing success_url or cancel_url", "success_url");
    }
    const sessionId = `cs_test_${randomBytes(12).toString("hex")}`;
    const session: Json = {
      id: sessionId,
      object: "checkout.session",
      mode: "subscription",
      status: "open",
      payment_status: "unpaid",
      customer,
      client_reference_id: body.client_reference_id ?? null,
      metadata: (body.metadata as Json) ?? {},
      subscription: null,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      url: `${fake.url}/pay/${sessionId}`,
      created: nowS(),
      expires_at: nowS() + 24 * 3600,
      livemode: false,
    };
    sessionItems.set(sessionId, {
      price: String(line.price),
      quantity,
      subscriptionMetadata:
        ((body.subscription_data as Json | undefined)?.metadata as Record<string, string>) ?? {},
    });
    fake.sessions.set(sessionId, session);
    return session;
  }

  function updateSubscription(sub: FakeSubscription, body: Json): FakeSubscription {
    if (sub.status === "canceled") {
      throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
    }
    if (body.cancel_at_period_end !== undefined || body.cancel_at !== undefined) {
      if (sub.schedule) {
        throw invalid(
          `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed.`,
        );
      }
      if (body.cancel_at_period_end !== undefined) {
        sub.cancel_at_period_end = body.cancel_at_period_end === "true";
        sub.canceled_at = sub.cancel_at_period_end ? nowS() : null;
        sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0]!.current_period_end : null;
      }
      if (body.cancel_at === "") {
        sub.cancel_at = null;
        sub.canceled_at = null;
      }
    }
    const items = body.items as Json[] | undefined;
    if (items) {
      const change = items[0]!;
      const item = sub.items.data[0]!;
      if (change.id !== item.id)
        throw invalid(`No such subscription item: '${String(change.id)}'`, "items[0][id]");
      const before = { price: String(item.price.id), quantity: item.quantity };
      const price =
        change.price === undefined ? prices.get(before.price)! : knownPrice(change.price, "items[0][price]");
      const quantity = change.quantity === undefined ? item.quantity : Number(change.quantity);
      const oldInterval = prices.get(before.price)!.interval;
      const now = nowS();
      const intervalChanges = price.interval !== oldInterval;
      const span = item.current_period_end - item.current_period_start;
      const left = Math.max(0, item.current_period_end - now);
      // A new interval restarts the billing cycle today (Stripe does the same).
      const prorated = intervalChanges
        ? amountOf(price.id, quantity)
        : Math.round(
            ((amountOf(price.id, quantity) - amountOf(before.price, before.quantity)) * left) /
              Math.max(1, span),
          );
      const charges = body.proration_behavior === "always_invoice" && prorated > 0;
      if (charges && declining && body.payment_behavior === "pending_if_incomplete") {
        // Not applied: it waits for the invoice to be paid (23 hours at most).
        sub.pending_update = {
          expires_at: now + 23 * 3600,
          subscription_items: [{ id: item.id, price: priceObject(price.id), quantity }],
        };
        createInvoice(sub, prorated, {
          paid: false,
          reason: "subscription_update",
          start: now,
          end: item.current_period_end,
          description: `Proration: ${quantity} × ${price.productName}`,
        });
        return sub;
      }
      item.price = priceObject(price.id);
      item.quantity = quantity;
      if (intervalChanges) {
        item.current_period_start = now;
        item.current_period_end = addInterval(now, price.interval);
      }
      if (body.proration_behavior === "always_invoice") {
        createInvoice(sub, Math.max(0, prorated), {
          paid: !(charges && declining),
          reason: "subscription_update",
          start: now,
          end: item.current_period_end,
          description: `Proration: ${quantity} × ${price.productName}`,
        });
        if (charges && declining) sub.status = "past_due";
      }
    }
    if (body.metadata) sub.metadata = { ...sub.metadata, ...(body.metadata as Record<string, string>) };
    return sub;
  }

  function scheduleOf(scheduleId: string) {
    const schedule = fake.schedules.get(scheduleId);
    if (!schedule) throw missing("subscription schedule", scheduleId);
    return schedule;
  }

  function createSchedule(body: Json): FakeSchedule {
    const sub = subscriptionOf(String(body.from_subscription));
    if (sub.schedule) {
      throw invalid(
        `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
        "from_subscription",
      );
    }
    const item = sub.items.data[0]!;
    const schedule: FakeSchedule = {
      id: id("sub_sched"),
      object: "subscription_schedule",
      subscription: sub.id,
      status: "active",
      end_behavior: "release",
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
      phases: [
        {
          start_date: item.current_period_start,
          end_date: item.current_period_end,
          items: [{ price: String(item.price.id), quantity: item.quantity }],
        },
      ],
      released_subscription: null,
    };
    fake.schedules.set(schedule.id, schedule);
    sub.schedule = schedule.id;
    return schedule;
  }

  function updateSchedule(schedule: FakeSchedule, body: Json): FakeSchedule {
    if (schedule.status !== "active")
      throw invalid(`You cannot update a subscription schedule that is ${schedule.status}.`);
    if (typeof body.end_behavior === "string") schedule.end_behavior = body.end_behavior;
    const phases = body.phases as Json[] | undefined;
    if (phases) {
      let previousEnd: number | null = null;
      schedule.phases = phases.map((phase, index) => {
        const items = ((phase.items as Json[]) ?? []).map((item, i) => {
          knownPrice(item.price, `phases[${index}][items][${i}][price]`);
          return { price: String(item.price), quantity: Number(item.quantity ?? 1) };
        });
        const start = phase.start_date !== undefined ? Number(phase.start_date) : previousEnd;
        if (start === null)
          throw invalid("The first phase needs a start_date", `phases[${index}][start_date]`);
        const duration = phase.duration as Json | undefined;
        const end =
          phase.end_date !== undefined
            ? Number(phase.end_date)
            : duration
              ? addInterval(start, duration.interval as Interval)
              : null;
        previousEnd = end;
        return { start_date: start, end_date: end, items };
      });
      const first = schedule.phases[0]!;
      if (first.start_date !== schedule.current_phase?.start_date) {
        throw invalid("You can not modify the start date of the current phase.", "phases[0][start_date]");
      }
    }
    return schedule;
  }

  function releaseSchedule(schedule: FakeSchedule): FakeSchedule {
    if (schedule.status !== "active")
      throw invalid(`You cannot release a subscription schedule that is ${schedule.status}.`);
    schedule.status = "released";
    schedule.released_subscription = schedule.subscription;
    schedule.current_phase = null;
    const sub = fake.subscriptions.get(schedule.subscription);
    if (sub) sub.schedule = null;
    return schedule;
  }

  function route(method: string, path: string, body: Json): Json {
    /** The id in `path` when it matches `pattern` (one capture group), else null. */
    const at = (verb: string, pattern: RegExp): string | null =>
      method === verb ? (path.match(pattern)?.[1] ?? null) : null;
    if (method === "POST" && path === "/v1/customers") return createCustomer(body);
    const customerId = at("GET", /^\/v1\/customers\/([^/]+)$/);
    if (customerId) {
      const customer = fake.customers.get(customerId);
      if (!customer) throw missing("customer", customerId);
      return customer;
    }
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(body);
    const sessionId = at("GET", /^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (sessionId) {
      const session = fake.sessions.get(sessionId);
      if (!session) throw missing("checkout.session", sessionId);
      return session;
    }
    const readSub = at("GET", /^\/v1\/subscriptions\/([^/]+)$/);
    if (readSub) return subscriptionOf(readSub) as unknown as Json;
    const updateSub = at("POST", /^\/v1\/subscriptions\/([^/]+)$/);
    if (updateSub) return updateSubscription(subscriptionOf(updateSub), body) as unknown as Json;
    if (method === "POST" && path === "/v1/subscription_schedules")
      return createSchedule(body) as unknown as Json;
    const readSchedule = at("GET", /^\/v1\/subscription_schedules\/([^/]+)$/);
    if (readSchedule) return scheduleOf(readSchedule) as unknown as Json;
    const release = at("POST", /^\/v1\/subscription_schedules\/([^/]+)\/release$/);
    if (release) return releaseSchedule(scheduleOf(release)) as unknown as Json;
    const updateScheduleId = at("POST", /^\/v1\/subscription_schedules\/([^/]+)$/);
    if (updateScheduleId) return updateSchedule(scheduleOf(updateScheduleId), body) as unknown as Json;
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const customer = String(body.customer ?? "");
      if (!fake.customers.has(customer))
        throw invalid(`No such customer: '${customer}'`, "customer", "resource_missing");
      const portalId = id("bps");
      const portal = {
        id: portalId,
        object: "billing_portal.session",
        customer,
        return_url: body.return_url ?? null,
        url: `${fake.url}/portal/${portalId}`,
        created: nowS(),
        livemode: false,
      };
      portals.set(portalId, portal);
      return portal;
    }
    const invoiceId = at("GET", /^\/v1\/invoices\/([^/]+)$/);
    if (invoiceId) {
      const invoice = fake.invoices.get(invoiceId);
      if (!invoice) throw missing("invoice", invoiceId);
      return invoice;
    }
    throw new StripeFail(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const page = (res: ServerResponse, title: string, html: string, status = 200) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)} · Fake Stripe</title><main><h1>${escapeHtml(title)}</h1>${html}</main></html>`,
    );
  };

  /**
   * The pages Stripe hosts, faked: Checkout (`/pay/:session`: "Pay" completes the session, sends
   * the webhooks to `webhookUrl` when set and returns to the success url), the customer portal
   * (`/portal/:id`, a link back) and an invoice (`/invoice/:id`).
   */
  function hostedPage(method: string, path: string, res: ServerResponse): unknown {
    const [, kind, key = ""] = path.split("/");
    if (kind === "pay") {
      const session = fake.sessions.get(key);
      const line = sessionItems.get(key);
      if (!session || !line) return page(res, "Not found", "<p>No such checkout.</p>", 404);
      if (method === "POST" && session.status === "open") {
        const done = fake.completeCheckout(key);
        const back = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", key);
        const webhookUrl = fake.webhookUrl;
        const events = [
          fake.event("customer.subscription.created", done.subscription),
          fake.event("checkout.session.completed", done.session),
          fake.event("invoice.paid", done.invoice),
        ];
        void (async () => {
          if (webhookUrl) for (const event of events) await fake.deliver(webhookUrl, event);
          res.writeHead(303, { location: back });
          res.end();
        })();
        return;
      }
      const price = prices.get(line.price)!;
      const amount = (price.unitAmount * line.quantity) / 100;
      return page(
        res,
        "Pay with Fake Stripe",
        session.status === "open"
          ? `<p>${line.quantity} × ${escapeHtml(price.productName)}: ${amount.toFixed(2)} ${escapeHtml(price.currency.toUpperCase())} per ${price.interval}</p>
<form method="post"><button type="submit">Pay</button></form>
<p><a href="${escapeHtml(String(session.cancel_url))}">Back</a></p>`
          : `<p>This checkout is ${escapeHtml(String(session.status))}.</p>`,
      );
    }
    if (kind === "portal") {
      const portal = portals.get(key);
      if (!portal) return page(res, "Not found", "<p>No such portal session.</p>", 404);
      return page(
        res,
        "Billing portal",
        `<p>Payment methods and invoices of ${escapeHtml(portal.customer)}.</p><p><a href="${escapeHtml(String(portal.return_url ?? "/"))}">Return</a></p>`,
      );
    }
    if (kind === "invoice") {
      const invoice = fake.invoices.get(key);
      if (!invoice) return page(res, "Not found", "<p>No such invoice.</p>", 404);
      return page(
        res,
        `Invoice ${String(invoice.number)}`,
        `<p>${((invoice.amount_due as number) / 100).toFixed(2)} ${escapeHtml(String(invoice.currency).toUpperCase())}, ${escapeHtml(String(invoice.status))}</p>`,
      );
    }
    page(res, "Not found", "<p>Fake Stripe has no such page.</p>", 404);
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const path = url.pathname;
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    const body = method === "GET" ? Object.fromEntries(url.searchParams) : parseStripeForm(raw);
    const record: RecordedRequest = { method, path, idempotencyKey: key, body, status: 0 };
    const send = (status: number, payload: string, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { "content-type": "application/json", "request-id": id("req"), ...headers });
      res.end(payload);
    };
    if (!path.startsWith("/v1/")) {
      hostedPage(method, path, res);
      return;
    }
    fake.requests.push(record);

    const mode = failure && failure.remaining > 0 ? failure.mode : null;
    if (mode && failure) failure.remaining -= 1;
    if (mode === "drop") {
      record.status = -1;
      req.socket.destroy();
      return;
    }
    if (mode === "unavailable") {
      send(503, JSON.stringify({ error: { type: "api_error", message: "The fake Stripe is down." } }));
      return;
    }
    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) {
      send(
        401,
        JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }),
      );
      return;
    }
    const fingerprint = `${method} ${path} ${raw}`;
    if (key && method === "POST") {
      const seen = idempotent.get(key);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          send(
            400,
            JSON.stringify({
              error: {
                type: "idempotency_error",
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
              },
            }),
          );
          return;
        }
        if (mode === "lose-response") {
          record.status = -1;
          req.socket.destroy();
          return;
        }
        send(seen.status, seen.body, { "idempotent-replayed": "true" });
        return;
      }
    }
    let status = 200;
    let payload: string;
    try {
      payload = JSON.stringify(route(method, path, body));
    } catch (error) {
      if (!(error instanceof StripeFail)) throw error;
      status = error.status;
      payload = JSON.stringify({ error: error.error });
    }
    if (key && method === "POST" && status < 500) idempotent.set(key, { fingerprint, status, body: payload });
    if (mode === "lose-response") {
      record.status = -1;
      req.socket.destroy();
      return;
    }
    send(status, payload);
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // --- Acting as Stripe ---------------------------------------------------------------------------

  fake.definePrice = (price) => {
    prices.set(price.id, {
      currency: "usd",
      productName: price.id,
      ...price,
    });
  };
  fake.declinePayments = (on) => {
    declining = on;
  };
  fake.fail = (mode, times = Number.POSITIVE_INFINITY) => {
    failure = mode ? { mode, remaining: times } : null;
  };
  fake.calls = (prefix, method) =>
    fake.requests.filter((r) => r.path.startsWith(prefix) && (method === undefined || r.method === method));

  fake.completeCheckout = (sessionId) => {
    const session = fake.sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
    if (session.status !== "open")
      throw new Error(`fake Stripe: session ${sessionId} is ${String(session.status)}`);
    const line = sessionItems.get(sessionId)!;
    const price = prices.get(line.price)!;
    const start = nowS();
    const sub: FakeSubscription = {
      id: id("sub"),
      object: "subscription",
      customer: String(session.customer),
      status: "active",
      metadata: { ...line.subscriptionMetadata },
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      start_date: start,
      latest_invoice: null,
      schedule: null,
      pending_update: null,
      livemode: false,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            price: priceObject(price.id),
            quantity: line.quantity,
            current_period_start: start,
            current_period_end: addInterval(start, price.interval),
          },
        ],
        has_more: false,
        url: "/v1/subscription_items",
      },
    };
    sub.items.url = `/v1/subscription_items?subscription=${sub.id}`;
    fake.subscriptions.set(sub.id, sub);
    const invoice = createInvoice(sub, amountOf(price.id, line.quantity), {
      paid: true,
      reason: "subscription_create",
      start,
      end: sub.items.data[0]!.current_period_end,
    });
    session.status = "complete";
    session.payment_status = "paid";
    session.subscription = sub.id;
    return { session, subscription: sub, invoice };
  };

  fake.expireCheckout = (sessionId) => {
    const session = fake.sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
    session.status = "expired";
    return session;
  };

  fake.advancePeriod = (subscriptionId) => {
    const sub = subscriptionOf(subscriptionId);
    const item = sub.items.data[0]!;
    const end = item.current_period_end;
    if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= end)) {
      sub.status = "canceled";
      sub.ended_at = end;
      return { subscription: sub, invoice: null };
    }
    const schedule = sub.schedule ? fake.schedules.get(sub.schedule) : undefined;
    const next = schedule?.phases.find((phase) => phase.start_date >= end);
    if (schedule && next) {
      const change = next.items[0]!;
      item.price = priceObject(change.price);
      item.quantity = change.quantity;
      // The last phase began: with end_behavior release, the schedule lets go of the subscription.
      if (
        schedule.phases.indexOf(next) === schedule.phases.length - 1 &&
        schedule.end_behavior === "release"
      ) {
        schedule.status = "released";
        schedule.released_subscription = sub.id;
        schedule.current_phase = null;
        sub.schedule = null;
      } else {
        schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
      }
    }
    const interval = prices.get(String(item.price.id))!.interval;
    item.current_period_start = end;
    item.current_period_end = addInterval(end, interval);
    sub.status = "active";
    const invoice = createInvoice(sub, amountOf(String(item.price.id), item.quantity), {
      paid: true,
      reason: "subscription_cycle",
      start: item.current_period_start,
      end: item.current_period_end,
    });
    return { subscription: sub, invoice };
  };

  fake.failPayment = (subscriptionId) => {
    const sub = subscriptionOf(subscriptionId);
    const item = sub.items.data[0]!;
    sub.status = "past_due";
    const invoice = createInvoice(sub, amountOf(String(item.price.id), item.quantity), {
      paid: false,
      reason: "subscription_cycle",
      start: item.current_period_start,
      end: item.current_period_end,
    });
    return { subscription: sub, invoice };
  };

  fake.payLatest = (subscriptionId) => {
    const sub = subscriptionOf(subscriptionId);
    const invoice = fake.invoices.get(sub.latest_invoice ?? "");
    if (!invoice) throw new Error(`fake Stripe: subscription ${subscriptionId} has no invoice`);
    invoice.status = "paid";
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    (invoice.status_transitions as Json).paid_at = nowS();
    sub.status = "active";
    const pending = sub.pending_update?.subscription_items?.[0];
    if (pending) {
      const item = sub.items.data[0]!;
      item.price = pending.price;
      item.quantity = pending.quantity;
      sub.pending_update = null;
    }
    return { subscription: sub, invoice };
  };

  fake.cancelNow = (subscriptionId) => {
    const sub = subscriptionOf(subscriptionId);
    sub.status = "canceled";
    sub.canceled_at = nowS();
    sub.ended_at = nowS();
    sub.cancel_at_period_end = false;
    sub.cancel_at = null;
    return sub;
  };

  fake.event = (type, object, eventOptions = {}) => {
    const eventId = eventOptions.id ?? id("evt");
    const timestamp = eventOptions.timestamp ?? nowS();
    const payload = JSON.stringify(
      {
        id: eventId,
        object: "event",
        api_version: "2026-10-28.endive",
        created: timestamp,
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        // A snapshot: later changes to the fake's objects do not rewrite an event already built.
        data: { object: JSON.parse(JSON.stringify(object)) },
      },
      null,
      2,
    );
    const header = signer.webhooks.generateTestHeaderString({
      payload,
      secret: eventOptions.secret ?? fake.webhookSecret,
      timestamp,
    });
    return { id: eventId, type, payload, header };
  };

  fake.deliver = (url, event) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": event.header },
      body: event.payload,
    });

  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
