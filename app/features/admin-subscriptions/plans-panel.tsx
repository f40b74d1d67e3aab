/**
 * Plans and prices on /admin/subscriptions: every plan (archived ones too) with its tier, prices
 * per month and per year, currency, seats and Stripe price ids; each one edited in place (the
 * version it was loaded at is sent: a change made meanwhile answers "changed meanwhile, reload"),
 * archived or restored; and a form for a new plan. Plain forms: it works without JavaScript.
 */
import { useId } from "react";
import { Form } from "react-router";
import { formatMoney } from "../../../core/money.ts";
import type { AdminPlanView } from "../../../server/modules/billing/billing.types.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { AdminSubscriptionsFormResult } from "./admin-subscriptions.server.ts";

const money = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

function Choice({
  label,
  name,
  value,
  options,
  error,
}: {
  label: string;
  name: string;
  value: string;
  options: [string, string][];
  error?: string;
}) {
  const id = useId();
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1.5 block font-medium text-ink">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        className={inputClass}
        aria-invalid={error ? true : undefined}
      >
        {options.map(([v, t]) => (
          <option key={v} value={v}>
            {t}
          </option>
        ))}
      </select>
      {error ? <p className="mt-1.5 text-xs text-danger-text">{error}</p> : null}
    </div>
  );
}

function PlanFields({ plan, errors }: { plan: AdminPlanView | null; errors: Record<string, string> }) {
  const featuresId = useId();
  const currency = (plan?.currency ?? "usd").toUpperCase();
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {plan ? null : (
        <Field
          label="Plan id"
          name="planId"
          required
          hint="Lowercase letters, digits and hyphens; it cannot change later"
          error={errors.id}
        />
      )}
      <Field label="Name" name="name" defaultValue={plan?.name} required error={errors.name} />
      <Choice
        label="Tier"
        name="tier"
        value={plan?.tier ?? "pro"}
        options={[
          ["free", "Free"],
          ["basic", "Basic"],
          ["pro", "Pro"],
          ["enterprise", "Enterprise"],
        ]}
        error={errors.tier}
      />
      <Choice
        label="Kind"
        name="kind"
        value={plan?.kind ?? "individual"}
        options={[
          ["individual", "Individual"],
          ["organization", "Organisation"],
        ]}
        error={errors.kind}
      />
      <Field
        label={`Monthly price (${currency})`}
        name="monthlyPriceCents"
        inputMode="decimal"
        defaultValue={plan ? money(plan.monthlyPriceCents) : ""}
        required
        error={errors.monthlyPriceCents}
      />
      <Field
        label={`Yearly price (${currency})`}
        name="yearlyPriceCents"
        inputMode="decimal"
        defaultValue={plan ? money(plan.yearlyPriceCents) : ""}
        required
        error={errors.yearlyPriceCents}
      />
      <Field
        label="Currency"
        name="currency"
        defaultValue={plan?.currency ?? "usd"}
        maxLength={3}
        hint="ISO code, e.g. usd, eur"
        error={errors.currency}
      />
      <Field
        label="Minimum seats"
        name="minSeats"
        inputMode="numeric"
        defaultValue={String(plan?.minSeats ?? 1)}
        error={errors.minSeats}
      />
      <Field
        label="Maximum seats"
        name="maxSeats"
        inputMode="numeric"
        defaultValue={plan?.maxSeats === null || plan?.maxSeats === undefined ? "" : String(plan.maxSeats)}
        optional
        hint="Empty: no limit"
        error={errors.maxSeats}
      />
      <label className="flex items-center gap-2 self-end pb-2 text-sm text-ink">
        <input type="checkbox" name="perSeat" defaultChecked={plan?.perSeat ?? false} className="size-4" />
        Priced per seat
      </label>
      <Field
        label="Stripe monthly price id"
        name="stripeMonthlyPriceId"
        defaultValue={plan?.stripeMonthlyPriceId ?? ""}
        optional
        placeholder="price_…"
        error={errors.stripeMonthlyPriceId}
      />
      <Field
        label="Stripe yearly price id"
        name="stripeYearlyPriceId"
        defaultValue={plan?.stripeYearlyPriceId ?? ""}
        optional
        placeholder="price_…"
        error={errors.stripeYearlyPriceId}
      />
      <Field
        label="Description"
        name="description"
        defaultValue={plan?.description ?? ""}
        optional
        error={errors.description}
      />
      <div className="text-sm sm:col-span-2 lg:col-span-3">
        <label htmlFor={featuresId} className="mb-1.5 block font-medium text-ink">
          Selling points on /pricing <span className="text-xs font-normal text-ink-subtle">one per line</span>
        </label>
        <textarea
          id={featuresId}
          name="features"
          rows={3}
          defaultValue={(plan?.features ?? []).join("\n")}
          className={`${inputClass} h-auto py-2`}
          aria-invalid={errors.features ? true : undefined}
        />
        {errors.features ? <p className="mt-1.5 text-xs text-danger-text">{errors.features}</p> : null}
      </div>
    </div>
  );
}

function Refusal({
  result,
  intent,
  id,
}: {
  result: AdminSubscriptionsFormResult | null;
  intent: string;
  id: string | null;
}) {
  if (!result || result.ok || result.intent !== intent || result.id !== id) return null;
  const stale = "version" in result.field;
  return (
    <Notice
      tone={stale ? "warn" : "danger"}
      role="alert"
      title={stale ? "Changed meanwhile: reload" : "Not saved"}
    >
      {result.message}
    </Notice>
  );
}

const errorsFor = (result: AdminSubscriptionsFormResult | null, intent: string, id: string | null) =>
  result && !result.ok && result.intent === intent && result.id === id ? result.field : {};

export function PlansPanel({
  plans,
  result,
}: {
  plans: AdminPlanView[];
  result: AdminSubscriptionsFormResult | null;
}) {
  const createErrors = errorsFor(result, "plan-create", null);
  return (
    <Panel title={`Plans and prices (${plans.length})`}>
      <p className="mb-3 text-sm text-ink-muted">
        What /pricing offers and checkout charges. Prices are amounts in the plan's currency. Archived plans
        are no longer offered; their subscriptions run to their end.
      </p>
      <ul className="space-y-2" aria-label="Plans">
        {plans.map((plan) => {
          const errors = errorsFor(result, "plan-update", plan.id);
          const refused = Boolean(result && !result.ok && result.id === plan.id);
          return (
            <li key={plan.id} className="rounded-lg border border-line" data-testid={`plan-${plan.id}`}>
              <details open={Object.keys(errors).length > 0 || refused}>
                <summary className="flex cursor-pointer flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm">
                  <span className="min-w-0">
                    <span className="font-medium text-ink">{plan.name}</span>{" "}
                    <span className="text-xs text-ink-subtle">
                      {plan.id} · {plan.tier} · {plan.kind === "organization" ? "organisation" : "individual"}
                    </span>
                    {plan.archived ? (
                      <span className="ml-2 rounded-full bg-warn-soft px-2 py-0.5 text-xs font-medium text-warn-text">
                        Archived
                      </span>
                    ) : null}
                  </span>
                  <span className="text-xs tabular-nums text-ink-muted">
                    {formatMoney(plan.monthlyPriceCents, plan.currency)}/month ·{" "}
                    {formatMoney(plan.yearlyPriceCents, plan.currency)}/year
                    {plan.perSeat ? " per seat" : ""} · seats {plan.minSeats}
                    {plan.maxSeats ? `–${plan.maxSeats}` : "+"}
                    {plan.stripeMonthlyPriceId || plan.stripeYearlyPriceId ? " · Stripe" : ""}
                  </span>
                </summary>
                <div className="space-y-4 border-t border-line px-4 py-4">
                  <Refusal result={result} intent="plan-update" id={plan.id} />
                  <Refusal result={result} intent="plan-archive" id={plan.id} />
                  <Refusal result={result} intent="plan-restore" id={plan.id} />
                  <Form
                    method="post"
                    preventScrollReset
                    className="space-y-3"
                    aria-label={`Edit ${plan.name}`}
                  >
                    <input type="hidden" name="intent" value="plan-update" />
                    <input type="hidden" name="id" value={plan.id} />
                    <input type="hidden" name="version" value={plan.version} />
                    <PlanFields plan={plan} errors={errors} />
                    <Button type="submit" size="sm">
                      Save {plan.name}
                    </Button>
                  </Form>
                  {plan.id === "free" ? null : (
                    <Form method="post" preventScrollReset>
                      <input
                        type="hidden"
                        name="intent"
                        value={plan.archived ? "plan-restore" : "plan-archive"}
                      />
                      <input type="hidden" name="id" value={plan.id} />
                      <Button type="submit" size="sm" variant={plan.archived ? "secondary" : "danger"}>
                        {plan.archived ? "Offer again" : "Archive"}
                        <span className="sr-only"> {plan.name}</span>
                      </Button>
                    </Form>
                  )}
                </div>
              </details>
            </li>
          );
        })}
      </ul>
      <details
        className="mt-4 rounded-lg border border-line"
        open={Boolean(result && !result.ok && result.intent === "plan-create")}
      >
        <summary className="cursor-pointer px-4 py-3 text-sm font-medium text-accent-text">New plan</summary>
        <Form
          method="post"
          preventScrollReset
          className="space-y-3 border-t border-line px-4 py-4"
          aria-label="New plan"
        >
          <input type="hidden" name="intent" value="plan-create" />
          <Refusal result={result} intent="plan-create" id={null} />
          <PlanFields plan={null} errors={createErrors} />
          <Button type="submit">Create plan</Button>
        </Form>
      </details>
    </Panel>
  );
}
