import { CheckCircle2, LoaderCircle, RefreshCw } from "lucide-react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import type { CheckoutView } from "../../../server/modules/billing/billing.types.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { FormError } from "./billing.server.ts";
import { formatDay, formatMoney, intervalAdverb, perInterval, TIER_NAME } from "./format.ts";

/** /checkout/:id: the manual confirmation, the return from Stripe, and the completed state. */
export function CheckoutStatus({ checkout, error }: { checkout: CheckoutView; error: FormError | null }) {
  const navigation = useNavigation();
  const { revalidate, state } = useRevalidator();
  const submitting = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const continueTo = checkout.returnTo ?? "/subscription";
  const planLine = `${checkout.plan.name}, ${intervalAdverb(checkout.interval)}${checkout.plan.perSeat ? `, ${checkout.seats} seats` : ""}`;

  if (checkout.status === "completed") {
    return (
      <Panel title="Done">
        <div className="flex items-start gap-3">
          <CheckCircle2
            aria-hidden="true"
            className="mt-0.5 size-6 shrink-0 text-emerald-600 dark:text-emerald-400"
          />
          <div>
            <p className="text-2xl font-semibold tracking-tight text-ink">
              {checkout.organizationName
                ? `${checkout.organizationName} is on ${checkout.plan.name}`
                : `You're on ${TIER_NAME[checkout.plan.tier]}`}
            </p>
            <p className="mt-1 text-sm text-ink-muted">
              {checkout.takesPayments ? "Payment received. " : ""}
              Everything marked {TIER_NAME[checkout.plan.tier]} is open now.
            </p>
          </div>
        </div>
        <div className="mt-5 flex flex-wrap gap-3">
          <Link to={continueTo} className={buttonClass("primary")}>
            Continue
          </Link>
          {continueTo !== "/subscription" ? (
            <Link to="/subscription" className={buttonClass("ghost")}>
              See your subscription
            </Link>
          ) : null}
        </div>
      </Panel>
    );
  }

  if (checkout.status === "expired" || checkout.status === "canceled") {
    return (
      <Panel title="Checkout closed">
        <Notice
          tone="warn"
          title={checkout.status === "expired" ? "This checkout expired" : "This checkout was canceled"}
        >
          Nothing was charged or changed. Choose a plan again to start over.
        </Notice>
        <div className="mt-4">
          <Link to="/pricing" className={buttonClass("primary")}>
            Choose a plan
          </Link>
        </div>
      </Panel>
    );
  }

  const amount = formatMoney(checkout.amountCents, checkout.currency);
  const fullPrice =
    (checkout.interval === "year" ? checkout.plan.yearlyPriceCents : checkout.plan.monthlyPriceCents) *
    (checkout.plan.perSeat ? checkout.seats : 1);
  // An upgrade of a plan already paid for costs the difference for the rest of its period.
  const amountLine =
    checkout.amountCents === fullPrice
      ? `${amount}${perInterval(checkout.interval)}`
      : `${amount} now (prorated for the rest of your current period), then ${formatMoney(fullPrice, checkout.currency)}${perInterval(checkout.interval)}`;
  return (
    <Panel title={checkout.status === "awaiting_approval" ? "Waiting for approval" : "Confirm your plan"}>
      {error ? (
        <Notice tone="danger" role="alert" className="mb-4">
          {error.message}
        </Notice>
      ) : null}
      <KeyValueList
        className="mb-5"
        rows={[
          ["Plan", planLine],
          ...(checkout.organizationName
            ? ([["Organisation", checkout.organizationName]] as Array<[string, string]>)
            : []),
          ["Amount", amountLine],
          ["Open until", formatDay(checkout.expiresAt)],
        ]}
      />
      {checkout.provider === "manual" ? (
        checkout.status === "awaiting_approval" ? (
          <Notice tone="info" title="An administrator will confirm it once paid">
            This installation takes no payments online. Your request is recorded; you get{" "}
            {TIER_NAME[checkout.plan.tier]} as soon as an administrator approves it.
          </Notice>
        ) : checkout.selfServe ? (
          <Notice tone="info" title="This installation takes no payments">
            Confirming records the change to {checkout.plan.name} and a receipt for {amount}; nothing is
            charged.
          </Notice>
        ) : (
          <Notice tone="info" title="This installation takes no payments">
            Confirming sends the request to an administrator, who approves it once it is paid outside this
            site.
          </Notice>
        )
      ) : (
        <Notice tone="info" title="Payment still processing">
          We have not heard from the payment provider yet. This page updates once the payment is confirmed.
        </Notice>
      )}
      <div className="mt-5 flex flex-wrap gap-3">
        {checkout.status === "open" && checkout.provider === "manual" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="confirm" />
            <Button type="submit" disabled={submitting != null}>
              {submitting === "confirm" ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : null}
              {checkout.selfServe ? "Confirm" : "Send for approval"}
            </Button>
          </Form>
        ) : null}
        {checkout.provider === "stripe" && checkout.status === "open" ? (
          <>
            <a href={checkout.url} className={buttonClass("primary")}>
              Continue to payment
            </a>
            <Button variant="secondary" onClick={() => void revalidate()} disabled={state !== "idle"}>
              <RefreshCw aria-hidden="true" className="size-4" />
              Refresh
            </Button>
          </>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="cancel" />
          <Button type="submit" variant="ghost" disabled={submitting != null}>
            {submitting === "cancel" ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : null}
            Cancel
          </Button>
        </Form>
      </div>
    </Panel>
  );
}
