import { Minus, Plus, ShoppingCart } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useRevalidator } from "react-router";
import type { PlanView } from "../../../server/modules/billing/billing.types.ts";
import type { OrganizationView } from "../../../server/modules/organizations/organizations.service.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import { inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { formatDate, formatMoney, seatsPrice } from "./format.ts";
import { SeatsMeter } from "./seats-meter.tsx";

const TIER_NAMES: Record<string, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  business: "Business",
  enterprise: "Enterprise",
};

const STATUS_NAMES: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Payment failed (grace period)",
};

type Interval = "month" | "year";

/**
 * The organisation's plan and seats (`/business/dashboard`): plan, seats used / total / pending,
 * and for its administrators either the purchase of a seat plan (no plan yet: a POST form to
 * `/checkout`) or adding and removing seats (`POST /api/billing/seats`). Members read only.
 */
export function SeatsCard({ org, seatPlans }: { org: OrganizationView; seatPlans: PlanView[] }) {
  const { plan, seats } = org;
  const { user } = useAuth();
  const canBuy = org.viewer.role === "admin";
  // An organisation admin whose rights wait for a second factor reads the organisation as a member.
  const adminPending =
    !canBuy && (user.mfaPendingRoles ?? []).some((r) => r === "AdminUser" || r === "Admin");
  return (
    <div>
      <KeyValueList
        className="mb-4"
        rows={[
          ["Plan", plan ? (plan.planName ?? TIER_NAMES[plan.tier] ?? plan.tier) : "No plan yet"],
          ...(plan ? planRows(plan, seats.total) : []),
        ]}
      />
      <SeatsMeter used={seats.used} total={seats.total} pending={seats.pending} />
      {plan?.pendingSeats != null ? (
        <p className="mt-2 text-xs text-ink-muted">
          Goes down to {plan.pendingSeats} seats on {formatDate(plan.periodEnd)}.
        </p>
      ) : null}
      {adminPending ? (
        <p className="mt-4 text-sm text-ink-muted">
          You administer this organisation: set up two-factor authentication to{" "}
          {plan ? "add or remove seats" : "buy seats for your team"}.
        </p>
      ) : !canBuy ? (
        <p className="mt-4 text-sm text-ink-muted">
          {plan
            ? "Your organisation's administrators manage its plan and seats."
            : "Your organisation has no plan yet: its administrators buy seats for the team."}
        </p>
      ) : plan ? (
        <ChangeSeats org={org} />
      ) : (
        <BuySeats org={org} seatPlans={seatPlans} />
      )}
    </div>
  );
}

/** Status, price and renewal rows of a plan. */
function planRows(
  plan: NonNullable<OrganizationView["plan"]>,
  total: number | null,
): Array<[string, string]> {
  const rows: Array<[string, string]> = [["Status", STATUS_NAMES[plan.status] ?? plan.status]];
  if (plan.seatPriceCents !== null && plan.currency && total !== null) {
    rows.push([
      "Price",
      `${formatMoney(plan.seatPriceCents * total, plan.currency)} per ${plan.interval ?? "month"} (${formatMoney(plan.seatPriceCents, plan.currency)} a seat)`,
    ]);
  }
  const end = plan.periodEnd ?? plan.expiresAt;
  rows.push([plan.cancelAtPeriodEnd ? "Ends" : "Renews", end ? formatDate(end) : "No end date"]);
  return rows;
}

/** No plan yet: choose a seat plan, seats and interval → `/checkout` (the billing screens). */
function BuySeats({ org, seatPlans }: { org: OrganizationView; seatPlans: PlanView[] }) {
  const needed = org.seats.used + org.seats.pending;
  const [planId, setPlanId] = useState(seatPlans[0]?.id ?? "");
  const [interval, setBillingInterval] = useState<Interval>("month");
  const plan = seatPlans.find((p) => p.id === planId) ?? null;
  const least = Math.max(plan?.minSeats ?? 1, needed);
  const [seats, setSeats] = useState(Math.max(least, 5));
  const seatsId = useId();
  const [error, setError] = useState<string | null>(null);

  if (seatPlans.length === 0) {
    return (
      <Notice tone="warn" title="No seat plans on offer" className="mt-4">
        This installation offers no plans for organisations yet. Ask its administrator.
      </Notice>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!plan) return;
    if (!Number.isInteger(seats) || seats < least || (plan.maxSeats !== null && seats > plan.maxSeats)) {
      event.preventDefault();
      setError(
        plan.maxSeats !== null
          ? `Choose between ${least} and ${plan.maxSeats} seats.`
          : `Choose at least ${least} seats${needed > plan.minSeats ? " (your members and pending invitations)" : ""}.`,
      );
    }
  }

  return (
    <form method="post" action="/checkout" onSubmit={onSubmit} className="mt-5 space-y-4" noValidate>
      <h3 className="text-sm font-semibold text-ink">Buy seats for your team</h3>
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-ink">Plan</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {seatPlans.map((p) => (
            <label
              key={p.id}
              className={cx(
                "flex cursor-pointer gap-2.5 rounded-lg border p-3 text-sm transition-colors",
                p.id === planId ? "border-accent bg-accent/5 ring-2 ring-accent/30" : "border-line-strong",
              )}
            >
              <input
                type="radio"
                name="planId"
                value={p.id}
                checked={p.id === planId}
                onChange={() => {
                  setPlanId(p.id);
                  setSeats((s) => Math.max(s, p.minSeats, needed));
                }}
                className="mt-0.5 accent-accent"
              />
              <span>
                <span className="block font-medium text-ink">
                  {p.name} · {TIER_NAMES[p.tier] ?? p.tier} for everyone
                </span>
                <span className="block text-xs text-ink-muted">
                  {formatMoney(p.monthlyPriceCents, p.currency)} per seat a month, or{" "}
                  {formatMoney(p.yearlyPriceCents, p.currency)} a year · at least {p.minSeats} seats
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-28">
          <label htmlFor={seatsId} className="mb-1.5 block text-sm font-medium text-ink">
            Seats
          </label>
          <input
            id={seatsId}
            type="number"
            name="seats"
            inputMode="numeric"
            min={least}
            max={plan?.maxSeats ?? undefined}
            value={Number.isFinite(seats) ? seats : ""}
            onChange={(e) => {
              setSeats(e.target.valueAsNumber);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${seatsId}-hint`}
            className={inputClass}
          />
        </div>
        <fieldset className="flex gap-1 rounded-lg bg-sunken p-1">
          <legend className="sr-only">Billing interval</legend>
          {(["month", "year"] as const).map((i) => (
            <label
              key={i}
              className={cx(
                "cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium",
                interval === i ? "bg-elevated text-ink shadow-sm" : "text-ink-muted",
              )}
            >
              <input
                type="radio"
                name="interval"
                value={i}
                checked={interval === i}
                onChange={() => setBillingInterval(i)}
                className="sr-only"
              />
              {i === "month" ? "Monthly" : "Yearly"}
            </label>
          ))}
        </fieldset>
      </div>
      <p id={`${seatsId}-hint`} className="text-xs text-ink-muted">
        At least {least} seats
        {needed > (plan?.minSeats ?? 1)
          ? ` (${org.seats.used} members and ${org.seats.pending} invited)`
          : ""}
        .
      </p>
      {error ? (
        <p role="alert" className="text-sm text-danger-text">
          {error}
        </p>
      ) : null}
      {plan && Number.isInteger(seats) && seats > 0 ? (
        <p className="text-sm text-ink">
          <span className="font-semibold">
            {formatMoney(seatsPrice(plan, interval, seats), plan.currency)}
          </span>{" "}
          per {interval} for {seats} seats
          {interval === "year" && plan.yearlySavingPercent > 0
            ? ` · saves ${plan.yearlySavingPercent}% against monthly`
            : ""}
        </p>
      ) : null}
      <input type="hidden" name="returnTo" value="/business/dashboard" />
      <Button type="submit">
        <ShoppingCart aria-hidden="true" className="size-4" />
        Continue to checkout
      </Button>
    </form>
  );
}

/**
 * A plan: add or remove seats (`POST /api/billing/seats`). The server refuses fewer than members +
 * pending invitations (409 NO_SEATS); its message is shown here.
 */
function ChangeSeats({ org }: { org: OrganizationView }) {
  const plan = org.plan!;
  const current = org.seats.total ?? 0;
  const { revalidate } = useRevalidator();
  const [seats, setSeats] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const seatsId = useId();
  const interval: Interval = plan.interval ?? "month";
  const diff = Number.isInteger(seats) ? seats - current : 0;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || diff === 0) return;
    if (!Number.isInteger(seats) || seats < 1) {
      setError("Enter a whole number of seats.");
      return;
    }
    setPending(true);
    setError(null);
    const result = await settle(api.post("/api/billing/seats", { seats, version: plan.version }));
    setPending(false);
    if (result.ok) {
      showToast(diff > 0 ? "Seats added" : "Seats reduced", {
        description:
          diff > 0
            ? `Your organisation now has ${seats} seats.`
            : `Your organisation goes down to ${seats} seats at the end of the period.`,
      });
      void revalidate();
      return;
    }
    setError(result.error.field.seats ?? result.error.message);
  }

  const step = (by: number) => {
    setSeats((s) => Math.max(1, (Number.isInteger(s) ? s : current) + by));
    setError(null);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="mt-5 space-y-3">
      <h3 className="text-sm font-semibold text-ink">Change seats</h3>
      <div className="flex flex-wrap items-end gap-2">
        <Button type="button" variant="secondary" onClick={() => step(-1)} aria-label="One seat fewer">
          <Minus aria-hidden="true" className="size-4" />
        </Button>
        <div className="w-24">
          <label htmlFor={seatsId} className="mb-1.5 block text-sm font-medium text-ink">
            New total
          </label>
          <input
            id={seatsId}
            type="number"
            name="seats"
            inputMode="numeric"
            min={1}
            value={Number.isFinite(seats) ? seats : ""}
            onChange={(e) => {
              setSeats(e.target.valueAsNumber);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            className={inputClass}
            disabled={pending}
          />
        </div>
        <Button type="button" variant="secondary" onClick={() => step(1)} aria-label="One seat more">
          <Plus aria-hidden="true" className="size-4" />
        </Button>
      </div>
      {plan.seatPriceCents !== null && plan.currency && Number.isInteger(seats) && seats > 0 ? (
        <p className="text-sm text-ink">
          {seats} seats:{" "}
          <span className="font-semibold">
            {formatMoney(plan.seatPriceCents * seats, plan.currency)} per {interval}
          </span>
          {diff > 0 ? " · the added seats are charged for the rest of this period" : ""}
          {diff < 0 ? ` · from ${formatDate(plan.periodEnd)}, until then you keep ${current}` : ""}
        </p>
      ) : null}
      {error ? (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      ) : null}
      <Button type="submit" disabled={pending || diff === 0} variant={diff < 0 ? "secondary" : "primary"}>
        {diff < 0
          ? `Remove ${-diff} ${-diff === 1 ? "seat" : "seats"}`
          : diff > 0
            ? `Add ${diff} ${diff === 1 ? "seat" : "seats"}`
            : "Add or remove seats"}
      </Button>
    </form>
  );
}
