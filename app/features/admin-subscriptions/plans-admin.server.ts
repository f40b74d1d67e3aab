/**
 * The plans and prices panel of /admin/subscriptions: every plan (archived ones too) through the
 * plans service (server/modules/billing/plans.service.ts: `plans.manage`, validation, versions,
 * audit rows). Prices are typed as money ("19", "9.50") and sent in cents; a price that is not an
 * amount is refused here, next to its field, before anything is sent.
 */
import type { RouterContextProvider } from "react-router";
import type { AdminPlanView } from "../../../server/modules/billing/billing.types.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

/** The outcome of a plan form (the same shape as the screen's other forms). */
export interface PlanFormResult {
  intent: string;
  id: string | null;
  ok: boolean;
  message: string;
  field: Record<string, string>;
}

export const PLAN_INTENTS = ["plan-create", "plan-update", "plan-archive", "plan-restore"] as const;

export async function loadPlansAdmin(args: Args): Promise<AdminPlanView[]> {
  return args.context.get(servicesContext).plans.listAll(args.context.get(actorContext));
}

class FormFieldError extends Error {
  readonly field: Record<string, string>;
  constructor(field: Record<string, string>, message: string) {
    super(message);
    this.field = field;
  }
}

/** "19", "19.5", "1,299.00" → cents; anything else names the field. */
export function centsOf(value: string, field: string): number {
  const text = value.trim().replace(/,/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(text)) {
    const problem = "expected an amount such as 19 or 9.50";
    throw new FormFieldError({ [field]: problem }, `${field}: ${problem}`);
  }
  return Math.round(Number(text) * 100);
}

function wholeOf(value: string, field: string): number {
  if (!/^\d+$/.test(value.trim())) {
    const problem = "expected a whole number";
    throw new FormFieldError({ [field]: problem }, `${field}: ${problem}`);
  }
  return Number(value.trim());
}

/** The plan fields of a form, as the plans service takes them. */
function planInput(form: FormData, creating: boolean): Record<string, unknown> {
  const text = (key: string) => {
    const v = form.get(key);
    return typeof v === "string" ? v.trim() : "";
  };
  const out: Record<string, unknown> = {};
  if (creating) out.id = text("planId");
  for (const key of ["name", "tier", "kind", "description", "currency"]) {
    if (form.has(key)) out[key] = text(key);
  }
  for (const key of ["monthlyPriceCents", "yearlyPriceCents"]) {
    if (form.has(key)) out[key] = centsOf(text(key), key);
  }
  out.perSeat = form.get("perSeat") === "on";
  if (form.has("minSeats")) out.minSeats = wholeOf(text("minSeats") || "1", "minSeats");
  if (form.has("maxSeats")) out.maxSeats = text("maxSeats") ? wholeOf(text("maxSeats"), "maxSeats") : null;
  for (const key of ["stripeMonthlyPriceId", "stripeYearlyPriceId"]) {
    if (form.has(key)) out[key] = text(key) || null;
  }
  if (form.has("features")) {
    out.features = text("features")
      .split("\n")
      .map((f) => f.trim())
      .filter(Boolean);
  }
  return out;
}

/** One plan form post; failures become the form's message and field errors. */
export async function plansAction(args: Args, intent: string, form: FormData): Promise<PlanFormResult> {
  const plans = args.context.get(servicesContext).plans;
  const actor = args.context.get(actorContext);
  const id = typeof form.get("id") === "string" ? String(form.get("id")) : null;
  const ok = (message: string, planId: string | null = id): PlanFormResult => ({
    intent,
    id: planId,
    ok: true,
    message,
    field: {},
  });
  try {
    if (intent === "plan-create") {
      const plan = await plans.create(actor, planInput(form, true));
      return ok(`Created the plan “${plan.name}” (${plan.id}).`, null);
    }
    if (intent === "plan-update" && id) {
      const version = Number(form.get("version"));
      const plan = await plans.update(actor, id, { version, ...planInput(form, false) });
      return ok(`Saved “${plan.name}”.`);
    }
    if (intent === "plan-archive" && id) {
      const plan = await plans.archive(actor, id);
      return ok(`“${plan.name}” is archived: no longer offered; its subscriptions run to their end.`);
    }
    if (intent === "plan-restore" && id) {
      const plan = await plans.restore(actor, id);
      return ok(`“${plan.name}” is offered again.`);
    }
    return { intent, id, ok: false, message: "Unknown action.", field: {} };
  } catch (error) {
    if (error instanceof FormFieldError) {
      return { intent, id, ok: false, message: error.message, field: error.field };
    }
    const e = error as { code?: string; status?: number; message?: string; field?: Record<string, string> };
    if (typeof e?.status !== "number" || e.status >= 500 || e.status === 401 || e.status === 403) throw error;
    const stale = e.code === "STALE_VERSION";
    return {
      intent,
      id,
      ok: false,
      message: stale
        ? `This plan was changed meanwhile by someone else: reload the page to see it, then make your change again. (${e.message})`
        : String(e.message),
      field: e.field ?? {},
    };
  }
}
