import { ArrowRight, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { BillingInterval, PlanTier, PlanView } from "../../../server/modules/billing/billing.types.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import type { FormError } from "./billing.server.ts";
import { formatMoney, perInterval, TIER_NAME } from "./format.ts";

export interface CheckoutReviewProps {
  plans: PlanView[];
  selected: PlanView | null;
  interval: BillingInterval;
  seats: number | null;
  returnTo: string | null;
  currentTier: PlanTier;
  /** The reader already pays for a plan: this one replaces it now, prorated. */
  hasSubscription?: boolean;
  takesPayments: boolean;
  error: FormError | null;
}

/** The "Review your plan" step of /checkout: the plan, the interval choice and Continue (a POST form). */
export function CheckoutReview(props: CheckoutReviewProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [interval, setInterval] = useState<BillingInterval>(props.interval);
  const plan = props.selected;
  if (!plan) {
    return (
      <Panel title="Choose a plan">
        <ul className="grid gap-3 sm:grid-cols-2">
          {props.plans
            .filter((p) => p.kind === "individual")
            .map((p) => (
              <li key={p.id}>
                <Link
                  to={`/checkout?plan=${encodeURIComponent(p.id)}&interval=month${props.returnTo ? `&returnTo=${encodeURIComponent(props.returnTo)}` : ""}`}
                  className="block rounded-lg border border-line p-4 hover:border-accent-line hover:bg-sunken"
                >
                  <span className="block font-semibold text-ink">{p.name}</span>
                  <span className="text-sm text-ink-muted">
                    {formatMoney(p.monthlyPriceCents, p.currency)}/month
                  </span>
                </Link>
              </li>
            ))}
        </ul>
        <p className="mt-4 text-sm text-ink-muted">
          Compare everything each plan opens on{" "}
          <Link to="/pricing" className="text-accent-text underline">
            the pricing page
          </Link>
          .
        </p>
      </Panel>
    );
  }
  const seats = plan.perSeat ? Math.max(props.seats ?? plan.minSeats, plan.minSeats) : 1;
  const price = (i: BillingInterval) =>
    (i === "year" ? plan.yearlyPriceCents : plan.monthlyPriceCents) * (plan.perSeat ? seats : 1);
  return (
    <Panel title="Review your plan">
      {props.error ? (
        <Notice tone="danger" role="alert" title="This plan can't be bought right now" className="mb-4">
          {props.error.message}{" "}
          {props.error.message.includes("/subscription") ? (
            <Link to="/subscription" className="font-medium underline">
              Open your subscription
            </Link>
          ) : null}
        </Notice>
      ) : null}
      <div className="mb-5">
        <p className="text-2xl font-semibold tracking-tight text-ink">{plan.name}</p>
        <p className="text-sm text-ink-muted">{plan.description}</p>
        {props.currentTier !== "free" ? (
          <p className="mt-1 text-sm text-ink-muted">
            You read with {TIER_NAME[props.currentTier]} now.
            {props.hasSubscription
              ? " Your current plan is upgraded: you pay only the difference for the rest of its period."
              : ""}
          </p>
        ) : null}
      </div>
      <Form method="post" className="space-y-5">
        <input type="hidden" name="planId" value={plan.id} />
        {plan.perSeat ? <input type="hidden" name="seats" value={seats} /> : null}
        {props.returnTo ? <input type="hidden" name="returnTo" value={props.returnTo} /> : null}
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-ink">Billing interval</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {(["month", "year"] as const).map((i) => (
              <label
                key={i}
                className={cx(
                  "flex cursor-pointer items-start gap-3 rounded-lg border p-4",
                  interval === i ? "border-accent-line bg-accent-soft" : "border-line hover:bg-sunken",
                )}
              >
                <input
                  type="radio"
                  name="interval"
                  value={i}
                  checked={interval === i}
                  onChange={() => setInterval(i)}
                  className="mt-1"
                />
                <span>
                  <span className="block font-medium text-ink">{i === "year" ? "Yearly" : "Monthly"}</span>
                  <span className="block text-sm text-ink-muted">
                    {formatMoney(price(i), plan.currency)}
                    {perInterval(i)}
                    {plan.perSeat ? ` for ${seats} seats` : ""}
                  </span>
                  {i === "year" && plan.yearlySavingPercent > 0 ? (
                    <span className="mt-1 block text-xs font-medium text-accent-text">
                      Save {plan.yearlySavingPercent}% against monthly
                    </span>
                  ) : null}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {props.takesPayments ? null : (
          <p className="text-sm text-ink-muted">
            This installation takes no payments: the next step records the plan without charging anything.
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
            Continue
            {busy ? null : <ArrowRight aria-hidden="true" className="size-4" />}
          </Button>
          <Link to="/pricing" className={buttonClass("ghost")}>
            Compare plans
          </Link>
        </div>
      </Form>
    </Panel>
  );
}
