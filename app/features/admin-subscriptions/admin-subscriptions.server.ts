/**
 * Loader and action of /admin/subscriptions: the billing service's admin operations
 * (billing-admin.ts) with the request's actor (the service checks `subscriptions.manage`). The
 * filter form is a GET; grant, extend and cancel are POST forms (`intent`) checked for this
 * site's Origin, so the whole screen works without JavaScript.
 */
import { data, type RouterContextProvider } from "react-router";
import type { AdminSubscriptionPage } from "../../../server/modules/billing/billing-admin.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";
import { PLAN_INTENTS, plansAction } from "./plans-admin.server.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export interface AdminSubscriptionsFormResult {
  intent: string;
  id: string | null;
  ok: boolean;
  message: string;
  field: Record<string, string>;
}

/** The filter keys the screen's form sends (blank ones are dropped). */
export const FILTER_KEYS = ["q", "tier", "status", "source", "owner", "endingBefore", "cursor"] as const;

function errorOf(error: unknown): { message: string; field: Record<string, string>; code: string } | null {
  const e = error as { code?: unknown; message?: unknown; field?: unknown; status?: unknown };
  if (e?.code === "PROVIDER_UNAVAILABLE") return { code: e.code, message: String(e.message), field: {} };
  if (typeof e?.code !== "string" || typeof e.status !== "number" || e.status >= 500) return null;
  if (e.status === 401 || e.status === 403) return null;
  return {
    code: e.code,
    message: String(e.message),
    field: (e.field && typeof e.field === "object" ? e.field : {}) as Record<string, string>,
  };
}

/** A refusal is the error page with its status; anything else goes on (rethrown by the caller if unknown). */
const forbidden = (error: unknown): void => {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401 || e?.status === 403) throw data(e.message ?? "Forbidden", { status: e.status });
};

export async function loadAdminSubscriptions(args: Args): Promise<{
  page: AdminSubscriptionPage | null;
  filters: Record<string, string>;
  filterError: { message: string; field: Record<string, string> } | null;
  plans: { id: string; name: string; tier: string }[];
}> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const url = new URL(args.request.url);
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = url.searchParams.get(key)?.trim();
    if (value) filters[key] = value;
  }
  const plans = (
    await services.plans.listAll(actor).catch((error) => {
      forbidden(error);
      throw error;
    })
  )
    .filter((p) => !p.archived && !p.perSeat && p.tier !== "free")
    .map((p) => ({ id: p.id, name: p.name, tier: p.tier }));
  try {
    return {
      page: await services.billing.listSubscriptions(actor, filters),
      filters,
      filterError: null,
      plans,
    };
  } catch (error) {
    forbidden(error);
    const problem = errorOf(error);
    if (!problem) throw error;
    return { page: null, filters, filterError: problem, plans };
  }
}

const fieldsOf = (form: FormData, keys: readonly string[]) => {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = form.get(key);
    if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
  }
  return out;
};

export async function adminSubscriptionsAction(args: Args): Promise<AdminSubscriptionsFormResult> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = typeof form.get("id") === "string" ? String(form.get("id")) : null;
  if ((PLAN_INTENTS as readonly string[]).includes(intent)) return plansAction(args, intent, form);
  try {
    if (intent === "grant") {
      const input = fieldsOf(form, ["email", "planId", "days", "until", "note"]);
      if (input.until) delete input.days; // the form offers both; a date wins
      const view = await services.billing.grant(actor, input);
      return {
        intent,
        id: view.id,
        ok: true,
        message: `${view.user.email} now has ${view.planId} until ${view.expiresAt?.slice(0, 10)}.`,
        field: {},
      };
    }
    if (intent === "extend" && id) {
      const input = fieldsOf(form, ["version", "days", "until", "note"]);
      if (input.until) delete input.days;
      const view = await services.billing.extend(actor, id, input);
      return {
        intent,
        id,
        ok: true,
        message: `Extended ${view.user.email}'s subscription to ${(view.expiresAt ?? view.periodEnd)?.slice(0, 10)}.`,
        field: {},
      };
    }
    if (intent === "cancel" && id) {
      const view = await services.billing.adminCancel(actor, id, fieldsOf(form, ["version", "when", "note"]));
      return {
        intent,
        id,
        ok: true,
        message:
          view.status === "canceled"
            ? `Ended ${view.user.email}'s subscription now.`
            : `${view.user.email}'s subscription ends on ${view.canceledAt?.slice(0, 10)}.`,
        field: {},
      };
    }
    throw data("Unknown action", { status: 400 });
  } catch (error) {
    forbidden(error);
    const problem = errorOf(error);
    if (!problem) throw error;
    return { intent, id, ok: false, message: problem.message, field: problem.field };
  }
}
