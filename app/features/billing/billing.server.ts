/**
 * Loaders and actions of the billing pages (/checkout, /checkout/:id, /subscription): the billing
 * service with the request's actor (access is checked in the service). Page actions check that
 * the form was posted from this site (the REST toolkit's Origin rule, for forms).
 */
import { data, type RouterContextProvider, redirect } from "react-router";
import type { Actor } from "../../../server/modules/actor.ts";
import type { AppServices } from "../../../server/services.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";

type Ctx = { context: Readonly<RouterContextProvider> };

export interface FormError {
  code: string;
  message: string;
  field: Record<string, string>;
}

function errorOf(error: unknown): FormError | null {
  const e = error as { code?: unknown; message?: unknown; field?: unknown; status?: unknown };
  if (typeof e?.code !== "string" || typeof e.status !== "number" || e.status >= 500) {
    if (e?.code === "PROVIDER_UNAVAILABLE") {
      return { code: "PROVIDER_UNAVAILABLE", message: String(e.message), field: {} };
    }
    return null;
  }
  return {
    code: e.code,
    message: String(e.message),
    field: (e.field && typeof e.field === "object" ? e.field : {}) as Record<string, string>,
  };
}

/** Runs a service call; a refusal (4xx, or the provider down) becomes a form error, anything else throws. */
async function attempt<T>(
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: FormError }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    const formError = errorOf(error);
    if (!formError) throw error;
    return { ok: false, error: formError };
  }
}

const notFound = (error: unknown): never => {
  if ((error as { code?: string })?.code === "NOT_FOUND") throw data("Checkout not found", { status: 404 });
  throw error;
};

function parts({ context }: Ctx): { services: AppServices; actor: Actor } {
  return { services: context.get(servicesContext), actor: context.get(actorContext) };
}

// --- /checkout --------------------------------------------------------------------------------

/** The "Review your plan" step: `?plan=&interval=&seats=&returnTo=`. */
export async function loadCheckoutReview(args: Ctx & { request: Request }) {
  const { services, actor } = parts(args);
  const url = new URL(args.request.url);
  const plans = (await services.billing.plans()).filter((p) => p.tier !== "free");
  const planId = url.searchParams.get("plan");
  const interval = url.searchParams.get("interval") === "year" ? "year" : "month";
  const seatsParam = Number(url.searchParams.get("seats"));
  const overview = await services.billing.overview(actor);
  return {
    plans,
    selected: plans.find((p) => p.id === planId) ?? null,
    interval: interval as "month" | "year",
    seats: Number.isInteger(seatsParam) && seatsParam > 0 ? seatsParam : null,
    returnTo: url.searchParams.get("returnTo"),
    currentTier: overview.currentTier,
    hasSubscription: overview.subscription !== null,
    takesPayments: overview.takesPayments,
  };
}

/** Creates the checkout (form fields planId, interval, seats, returnTo) and sends the reader to it. */
export async function startCheckoutAction(args: Ctx & { request: Request }) {
  const { services, actor } = parts(args);
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const seats = text("seats");
  const result = await attempt(() =>
    services.billing.startCheckout(actor, {
      planId: text("planId") ?? "",
      interval: text("interval") ?? "month",
      ...(seats !== undefined ? { seats: Number(seats) } : {}),
      ...(text("returnTo") !== undefined ? { returnTo: text("returnTo") } : {}),
    }),
  );
  if (result.ok) return redirect(result.value.url);
  return data({ error: result.error }, { status: result.error.code === "PROVIDER_UNAVAILABLE" ? 503 : 400 });
}

// --- /checkout/:id ----------------------------------------------------------------------------

export async function loadCheckout(args: Ctx & { params: { id?: string } }) {
  const { services, actor } = parts(args);
  const checkout = await services.billing.getCheckout(actor, args.params.id ?? "").catch(notFound);
  return { checkout };
}

/** Confirm (intent=confirm) or cancel (intent=cancel) a checkout. */
export async function checkoutAction(args: Ctx & { request: Request; params: { id?: string } }) {
  const { services, actor } = parts(args);
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const id = args.params.id ?? "";
  const intent = form.get("intent");
  const result = await attempt(() =>
    intent === "cancel"
      ? services.billing.cancelCheckout(actor, id)
      : services.billing.confirmCheckout(actor, id),
  );
  if (!result.ok && result.error.code === "NOT_FOUND") throw data("Checkout not found", { status: 404 });
  return result.ok ? { checkout: result.value, error: null } : { checkout: null, error: result.error };
}

// --- /subscription ----------------------------------------------------------------------------

export async function loadSubscription(args: Ctx) {
  const { services, actor } = parts(args);
  const [overview, quotes] = await Promise.all([
    services.billing.overview(actor),
    services.billing.changeQuotes(actor),
  ]);
  return { overview, quotes };
}

// --- /admin/subscriptions ---------------------------------------------------------------------

/** Manual checkouts waiting for a platform admin's approval (the service checks the admin scope). */
export async function loadPendingCheckouts(args: Ctx) {
  const { services, actor } = parts(args);
  return services.billing.listCheckouts(actor, "awaiting_approval");
}
