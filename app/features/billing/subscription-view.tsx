import { CreditCard, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { ChangeQuote } from "../../../server/modules/billing/billing.service.ts";
import type { SubscriptionOverview } from "../../../server/modules/billing/billing.types.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatDay, formatMoney, intervalAdverb, perInterval, STATUS_LABEL, TIER_NAME } from "./format.ts";
import { InvoicesTable } from "./invoices-table.tsx";
import { SeatEditor } from "./seat-editor.tsx";
import { useBillingAction } from "./use-billing-action.ts";

type Subscription = NonNullable<SubscriptionOverview["subscription"]>;

const STATUS_TONE: Record<string, string> = {
  active:
    "border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  trialing: "border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-300",
  past_due: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300",
};

function StatusBadge({ status, ending }: { status: string; ending: boolean }) {
  const label = ending && status === "active" ? "Ends at period end" : (STATUS_LABEL[status] ?? status);
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium",
        ending
          ? "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-300"
          : (STATUS_TONE[status] ?? "border-line-strong bg-sunken text-ink-muted"),
      )}
    >
      {label}
    </span>
  );
}

/** The whole /subscription screen below its header. */
export function SubscriptionView({
  overview,
  quotes,
}: {
  overview: SubscriptionOverview;
  quotes: ChangeQuote[];
}) {
  const sub = overview.subscription;
  return (
    <>
      <CurrentPlan overview={overview} />
      {sub?.canManage ? <ChangePlan sub={sub} quotes={quotes} /> : null}
      {sub?.seats ? (
        <Panel title="Seats">
          {sub.canManage ? (
            <SeatEditor
              total={sub.seats.total}
              used={sub.seats.used}
              pending={sub.seats.pending}
              minSeats={sub.plan.minSeats}
              maxSeats={sub.plan.maxSeats}
              seatPrice={`${formatMoney(sub.interval === "year" ? sub.plan.yearlyPriceCents : sub.plan.monthlyPriceCents, sub.currency)}${perInterval(sub.interval)}`}
              pendingSeats={sub.pendingChange?.seats ?? null}
              version={sub.version}
            />
          ) : (
            <p className="text-sm text-ink-muted">
              {sub.seats.used} of {sub.seats.total} seats used. Your organisation's administrators manage
              seats.
            </p>
          )}
        </Panel>
      ) : null}
      <PaymentMethod overview={overview} />
      {sub?.canManage && !sub.cancelAtPeriodEnd ? <CancelPanel sub={sub} /> : null}
      <Panel title="Invoices and receipts">
        <InvoicesTable invoices={overview.invoices} />
      </Panel>
    </>
  );
}

function CurrentPlan({ overview }: { overview: SubscriptionOverview }) {
  const sub = overview.subscription;
  const action = useBillingAction();
  const tierName = TIER_NAME[overview.currentTier];
  if (!sub) {
    return (
      <Panel
        title="Current plan"
        action={
          <Link to="/pricing" className={buttonClass("secondary", "sm")}>
            Compare plans
          </Link>
        }
      >
        <p className="text-3xl font-semibold tracking-tight text-ink">{tierName}</p>
        <p className="mt-1 text-sm text-ink-muted">
          {overview.currentTier === "free"
            ? "Everything marked Free is open to you. A paid plan opens more of the library."
            : `You read with ${tierName} (granted to your account, not billed here).`}
        </p>
        {overview.openCheckout ? (
          <Notice tone="info" className="mt-4" title="A checkout is waiting">
            {overview.openCheckout.plan.name}, {intervalAdverb(overview.openCheckout.interval)}:{" "}
            <Link to={`/checkout/${overview.openCheckout.id}`} className="font-medium underline">
              {overview.openCheckout.status === "awaiting_approval"
                ? "waiting for an administrator"
                : "finish it"}
            </Link>
          </Notice>
        ) : null}
        <div className="mt-4">
          <Link to="/pricing" className={buttonClass("primary")}>
            Choose a plan
          </Link>
        </div>
      </Panel>
    );
  }
  const price = `${formatMoney(sub.amountCents, sub.currency)}${perInterval(sub.interval)}`;
  const pendingName = sub.pendingChange?.plan.name;
  return (
    <Panel title={sub.scope === "organization" ? "Your organisation's plan" : "Current plan"}>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-3xl font-semibold tracking-tight text-ink">{sub.plan.name}</p>
        <StatusBadge status={sub.status} ending={sub.cancelAtPeriodEnd} />
      </div>
      <p className="mt-1 text-sm text-ink-muted">
        {sub.cancelAtPeriodEnd
          ? `${TIER_NAME[sub.plan.tier]} until ${formatDay(sub.periodEnd)}`
          : sub.status === "past_due"
            ? `${price}, ${intervalAdverb(sub.interval)}`
            : `${price} · renews on ${formatDay(sub.periodEnd)}`}
        {sub.seats ? ` · ${sub.seats.total} seats` : ""}
      </p>
      {action.error ? (
        <Notice tone="danger" role="alert" className="mt-4">
          {action.error}
        </Notice>
      ) : null}
      <div className="mt-4 space-y-3">
        {sub.status === "past_due" ? (
          <Notice tone="danger" title="Your last payment failed">
            You keep {TIER_NAME[sub.plan.tier]} until {formatDay(sub.graceUntil)}; update your payment method
            to keep it after that.
          </Notice>
        ) : null}
        {sub.cancelAtPeriodEnd ? (
          <Notice tone="warn" title={`Your plan ends on ${formatDay(sub.periodEnd)}`}>
            <p>You keep {TIER_NAME[sub.plan.tier]} until then, then read with Free.</p>
            {sub.canManage ? (
              <Button
                className="mt-3"
                size="sm"
                onClick={() =>
                  void action.run(
                    "resume",
                    "/api/billing/resume",
                    { version: sub.version },
                    `${sub.plan.name} continues`,
                  )
                }
                disabled={action.busy !== null}
              >
                {action.busy === "resume" ? (
                  <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                ) : null}
                Resume {sub.plan.name}
              </Button>
            ) : null}
          </Notice>
        ) : null}
        {sub.pendingChange ? (
          <Notice tone="info" title={`Changing to ${pendingName} on ${formatDay(sub.pendingChange.at)}`}>
            <p>
              You keep {sub.plan.name} until then
              {sub.pendingChange.interval !== sub.interval
                ? `, then pay ${intervalAdverb(sub.pendingChange.interval)}`
                : ""}
              .
            </p>
            {sub.canManage ? (
              <Button
                className="mt-3"
                size="sm"
                variant="secondary"
                onClick={() =>
                  void action.run(
                    "keep",
                    "/api/billing/change",
                    {
                      planId: sub.plan.id,
                      interval: sub.interval,
                      ...(sub.seats ? { seats: sub.seats.total } : {}),
                      version: sub.version,
                    },
                    `You keep ${sub.plan.name}`,
                  )
                }
                disabled={action.busy !== null}
              >
                {action.busy === "keep" ? (
                  <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                ) : null}
                Keep {sub.plan.name}
              </Button>
            ) : null}
          </Notice>
        ) : null}
        {!sub.canManage ? (
          <p className="text-sm text-ink-muted">
            Your organisation's administrators manage this subscription.
          </p>
        ) : null}
      </div>
    </Panel>
  );
}

function ChangePlan({ sub, quotes }: { sub: Subscription; quotes: ChangeQuote[] }) {
  const action = useBillingAction();
  const [chosen, setChosen] = useState<ChangeQuote | null>(null);
  if (quotes.length === 0) return null;
  const blocked = sub.status === "past_due";
  const describe = (q: ChangeQuote) =>
    q.direction === "upgrade"
      ? q.dueNowCents !== null
        ? `${formatMoney(q.dueNowCents, q.plan.currency)} now (prorated), then ${formatMoney(q.periodCents, q.plan.currency)}${perInterval(q.interval)}`
        : `Now, prorated; then ${formatMoney(q.periodCents, q.plan.currency)}${perInterval(q.interval)}`
      : `From ${formatDay(sub.periodEnd)}: ${formatMoney(q.periodCents, q.plan.currency)}${perInterval(q.interval)}`;
  return (
    <Panel title="Change plan">
      <p className="mb-3 text-sm text-ink-muted">
        Upgrades start now and you pay the difference for the rest of this period. Downgrades start at the end
        of the period; you keep {sub.plan.name} until then.
      </p>
      {blocked ? (
        <Notice tone="warn" className="mb-3">
          Plan changes wait until the failed payment is settled.
        </Notice>
      ) : null}
      {action.error ? (
        <Notice tone="danger" role="alert" className="mb-3">
          {action.error}
        </Notice>
      ) : null}
      <ul className="divide-y divide-line">
        {quotes.map((q) => (
          <li
            key={`${q.plan.id}-${q.interval}`}
            className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <p className="font-medium text-ink">
                {q.plan.name}{" "}
                <span className="font-normal text-ink-muted">· {intervalAdverb(q.interval)}</span>
              </p>
              <p className="text-sm text-ink-muted">
                {q.direction === "same" ? "Your current plan" : describe(q)}
              </p>
            </div>
            {q.direction === "same" ? (
              <span className="text-sm font-medium text-ink-subtle">Current</span>
            ) : (
              <Button
                size="sm"
                variant={q.direction === "upgrade" ? "primary" : "secondary"}
                disabled={blocked || action.busy !== null}
                onClick={() => setChosen(q)}
              >
                {q.direction === "upgrade" ? "Upgrade now" : "Switch at period end"}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={chosen !== null}
        title={
          chosen ? `${chosen.direction === "upgrade" ? "Upgrade" : "Switch"} to ${chosen.plan.name}?` : ""
        }
        confirmLabel={chosen?.direction === "upgrade" ? "Upgrade now" : "Switch at period end"}
        busy={action.busy !== null}
        onClose={() => setChosen(null)}
        onConfirm={() => {
          if (!chosen) return;
          void action
            .run(
              "change",
              "/api/billing/change",
              {
                planId: chosen.plan.id,
                interval: chosen.interval,
                ...(chosen.plan.perSeat ? { seats: chosen.seats } : {}),
                version: sub.version,
              },
              chosen.direction === "upgrade"
                ? `You're on ${chosen.plan.name}`
                : `${chosen.plan.name} from ${formatDay(sub.periodEnd)}`,
            )
            .then(() => setChosen(null));
        }}
      >
        {chosen ? describe(chosen) : null}
      </ConfirmDialog>
    </Panel>
  );
}

function CancelPanel({ sub }: { sub: Subscription }) {
  const action = useBillingAction();
  const [open, setOpen] = useState(false);
  return (
    <Panel title="Cancel subscription">
      <p className="text-sm text-ink-muted">
        You keep {TIER_NAME[sub.plan.tier]} until {formatDay(sub.periodEnd)}, then read with Free. You can
        resume before then.
      </p>
      {action.error ? (
        <Notice tone="danger" role="alert" className="mt-3">
          {action.error}
        </Notice>
      ) : null}
      <Button
        className="mt-3"
        variant="secondary"
        onClick={() => setOpen(true)}
        disabled={action.busy !== null}
      >
        Cancel subscription
      </Button>
      <ConfirmDialog
        open={open}
        title={`Cancel ${sub.plan.name}?`}
        confirmLabel="Cancel at period end"
        busy={action.busy !== null}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          void action
            .run(
              "cancel",
              "/api/billing/cancel",
              { version: sub.version },
              `${sub.plan.name} ends on ${formatDay(sub.periodEnd)}`,
            )
            .then(() => setOpen(false))
        }
      >
        {`You keep ${TIER_NAME[sub.plan.tier]} until ${formatDay(sub.periodEnd)}. Nothing is charged after that.`}
      </ConfirmDialog>
    </Panel>
  );
}

function PaymentMethod({ overview }: { overview: SubscriptionOverview }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!overview.takesPayments) {
    return (
      <Panel title="Payment method">
        <p className="text-sm text-ink-muted">
          This installation takes no payments: plans are recorded here and paid outside this site, if at all.
        </p>
      </Panel>
    );
  }
  if (!overview.portalAvailable) return null;
  return (
    <Panel title="Payment method">
      {error ? (
        <Notice tone="danger" role="alert" className="mb-3">
          {error}
        </Notice>
      ) : null}
      <Button
        variant="secondary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const result = await settle(
            api.post<{ url: string }>("/api/billing/portal", { returnTo: "/subscription" }),
          );
          if (result.ok) {
            window.location.assign(result.data.url);
            return;
          }
          setBusy(false);
          setError(result.error.message);
        }}
      >
        {busy ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <CreditCard aria-hidden="true" className="size-4" />
        )}
        Manage payment method
      </Button>
    </Panel>
  );
}
