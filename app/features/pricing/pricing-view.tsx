import { ArrowRight, Building2, Check, Crown, Users } from "lucide-react";
import { Link } from "react-router";
import {
  flattenRoutes,
  formatMoney,
  includingPhrase,
  parseTier,
  plural,
  type Tier,
  yearlySavingText,
} from "../../../core/index.ts";
import type {
  BillingInterval,
  PlanUnlocks,
  PlanView,
} from "../../../server/modules/billing/billing.types.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { type PlanAction, planAction } from "./plan-action.ts";
import type { PlanInventory, PricingData, PricingViewer } from "./pricing-data.ts";

const TYPE_PLURAL: Record<string, [string, string]> = {
  article: ["article", "articles"],
  course: ["course", "courses"],
  video: ["video", "videos"],
  markdown: ["page", "pages"],
  category: ["category page", "category pages"],
  collection: ["collection", "collections"],
};

const INTERVAL_LABEL: Record<BillingInterval, string> = { month: "Monthly", year: "Yearly" };

/** Monthly / Yearly as a labelled group of links: works without JavaScript (`?interval=year`). */
export function IntervalSwitch({ interval }: { interval: BillingInterval }) {
  return (
    <fieldset className="inline-flex min-w-0 self-start rounded-xl sm:self-auto border border-line bg-sunken p-1 text-sm">
      <legend className="sr-only">Billing interval</legend>
      {(["month", "year"] as const).map((value) => {
        const current = value === interval;
        return (
          <Link
            key={value}
            to={value === "year" ? "?interval=year" : "?interval=month"}
            preventScrollReset
            replace
            aria-current={current ? "true" : undefined}
            className={cx(
              "rounded-lg px-4 py-1.5 font-medium transition-colors",
              current ? "bg-elevated text-ink shadow-sm" : "text-ink-muted hover:text-ink",
            )}
          >
            {INTERVAL_LABEL[value]}
          </Link>
        );
      })}
    </fieldset>
  );
}

function Price({ plan, interval }: { plan: PlanView; interval: BillingInterval }) {
  const cents = interval === "year" ? plan.yearlyPriceCents : plan.monthlyPriceCents;
  const free = plan.monthlyPriceCents === 0 && plan.yearlyPriceCents === 0;
  const saving = yearlySavingText(plan);
  return (
    <div className="mt-4">
      <p className="flex items-baseline gap-1.5">
        <span className="text-3xl font-semibold tracking-tight text-ink">
          {formatMoney(cents, plan.currency)}
        </span>
        <span className="text-sm text-ink-muted">
          {free ? "forever" : `${plan.perSeat ? "per seat " : ""}per ${interval}`}
        </span>
      </p>
      {free ? null : interval === "year" ? (
        saving ? (
          <p className="mt-1 text-xs font-medium text-ok-text">{saving}</p>
        ) : null
      ) : (
        <p className="mt-1 text-xs text-ink-subtle">
          or {formatMoney(plan.yearlyPriceCents, plan.currency)} a year
          {plan.yearlySavingPercent > 0 ? ` (save ${plan.yearlySavingPercent}%)` : ""}
        </p>
      )}
    </div>
  );
}

function ActionButton({ action }: { action: PlanAction }) {
  if (action.kind === "checkout") {
    return (
      // A plain form: it works before (and without) JavaScript.
      <form method="post" action="/checkout">
        <input type="hidden" name="planId" value={action.planId} />
        <input type="hidden" name="interval" value={action.interval} />
        <input type="hidden" name="returnTo" value={action.returnTo} />
        <button
          type="submit"
          className={buttonClass("primary", "md", "h-auto min-h-10 w-full py-2 text-center")}
        >
          {action.label}
        </button>
      </form>
    );
  }
  return (
    <>
      <Link
        to={action.to}
        className={buttonClass(
          action.primary ? "primary" : "secondary",
          "md",
          "h-auto min-h-10 w-full py-2 text-center",
        )}
      >
        {action.label}
      </Link>
      {action.note ? <p className="mt-2 text-center text-xs text-ink-subtle">{action.note}</p> : null}
    </>
  );
}

function Item({ children, muted }: { children: React.ReactNode; muted?: boolean }) {
  return (
    <li className={cx("flex gap-2", muted ? "text-ink-muted" : "text-ink")}>
      <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok-text" />
      <span>{children}</span>
    </li>
  );
}

/** "Pro unlocks 14 more items" and ", including the Responsible AI course". */
function unlockLine(
  plan: PlanView,
  unlocks: PlanUnlocks | undefined,
  tier: Tier,
): { head: string; including: string } | null {
  if (!unlocks || unlocks.newItems === 0) return null;
  const including = includingPhrase(unlocks.highlights, 1);
  if (tier === "Free") return { head: `${plural(unlocks.newItems, "item")} free to read`, including };
  return { head: `${plan.name} unlocks ${plural(unlocks.newItems, "more item", "more items")}`, including };
}

function PlanCard({
  plan,
  below,
  unlocks,
  inventory,
  interval,
  viewer,
}: {
  plan: PlanView;
  below: PlanView | null;
  unlocks: PlanUnlocks | undefined;
  inventory: PlanInventory | undefined;
  interval: BillingInterval;
  viewer: PricingViewer;
}) {
  const tier = parseTier(plan.tier) ?? "Enterprise";
  const mine = viewer.tier === tier;
  const action = planAction(plan, viewer, interval);
  const types = Object.entries(inventory?.byType ?? {}).filter(([, n]) => (n ?? 0) > 0);
  const routes = flattenRoutes().filter((r) => r.minTier === tier && !r.isDynamic);
  const headingId = `plan-${plan.id}`;
  const unlockText = unlockLine(plan, unlocks, tier);
  return (
    <li
      aria-labelledby={headingId}
      className={cx(
        "relative flex flex-col rounded-2xl border bg-elevated p-6",
        mine ? "border-accent shadow-[0_0_0_1px_var(--c-accent)]" : "border-line",
      )}
    >
      {mine ? (
        <span className="absolute -top-3 left-6 rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold text-accent-ink">
          Your plan
        </span>
      ) : null}
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-ink">
        {tier === "Enterprise" ? <Crown aria-hidden="true" className="size-4 text-amber-500" /> : null}
        {plan.name}
      </h2>
      <p className="mt-2 text-sm text-ink-muted">{plan.description}</p>
      <Price plan={plan} interval={interval} />
      <div className="mt-5">
        <ActionButton action={action} />
      </div>
      <ul className="mt-6 space-y-2.5 text-sm">
        {below ? <Item muted>Everything in {below.name}</Item> : null}
        {unlockText ? (
          <Item>
            <span>
              <strong className="font-semibold">{unlockText.head}</strong>
              {unlockText.including}
            </span>
            {types.length > 0 ? (
              <span className="block text-xs text-ink-subtle">
                {types.map(([type, n]) => plural(n ?? 0, ...(TYPE_PLURAL[type] ?? [type, type]))).join(" · ")}
              </span>
            ) : null}
          </Item>
        ) : null}
        {inventory && inventory.categories.length > 0 ? (
          <Item>
            {plural(inventory.categories.length, "category", "categories")} opened at this plan:
            <span className="block text-xs text-ink-subtle">
              {inventory.categories.map((c) => c.label).join(", ")}
            </span>
          </Item>
        ) : null}
        {routes.map((r) => (
          <Item key={r.path}>
            {r.label}: {r.description.replace(/\.$/, "")}
          </Item>
        ))}
        {plan.features.map((feature) => (
          <Item key={feature}>{feature}</Item>
        ))}
      </ul>
    </li>
  );
}

function TeamPlanCard({
  plan,
  interval,
  viewer,
}: {
  plan: PlanView;
  interval: BillingInterval;
  viewer: PricingViewer;
}) {
  const tier = parseTier(plan.tier) ?? "Enterprise";
  const headingId = `plan-${plan.id}`;
  return (
    <li aria-labelledby={headingId} className="flex flex-col rounded-2xl border border-line bg-elevated p-6">
      <h3 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-ink">
        {tier === "Enterprise" ? (
          <Building2 aria-hidden="true" className="size-4 text-ink-muted" />
        ) : (
          <Users aria-hidden="true" className="size-4 text-ink-muted" />
        )}
        {plan.name}
      </h3>
      <p className="mt-2 text-sm text-ink-muted">{plan.description}</p>
      <Price plan={plan} interval={interval} />
      <ul className="mt-4 space-y-2 text-sm">
        <Item>Every member reads with {tier}</Item>
        <Item>
          From {plural(plan.minSeats, "seat")}
          {plan.maxSeats ? `, up to ${plan.maxSeats}` : ""}; add or remove seats any time
        </Item>
        {plan.features.map((feature) => (
          <Item key={feature}>{feature}</Item>
        ))}
      </ul>
      <div className="mt-auto pt-6">
        <ActionButton action={planAction(plan, viewer, interval)} />
      </div>
    </li>
  );
}

export interface PricingViewProps {
  data: PricingData;
  inventory: PlanInventory[];
}

/** /pricing: the individual plans, the interval switch and the organisations' seat plans. */
export function PricingView({ data, inventory }: PricingViewProps) {
  const { plans, unlocks, interval, viewer } = data;
  const individual = plans.filter((p) => p.kind === "individual");
  const team = plans.filter((p) => p.kind === "organization");
  return (
    <div>
      <div className="mb-8 flex flex-col gap-4 border-b border-line pb-6 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Pricing</h1>
          <p className="mt-2 max-w-2xl text-base text-ink-muted">
            Four plans, each including everything below it. What each one unlocks is counted live from the
            library.
          </p>
        </div>
        <IntervalSwitch interval={interval} />
      </div>

      <ol className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {individual.map((plan, index) => {
          const tier = parseTier(plan.tier) ?? "Enterprise";
          return (
            <PlanCard
              key={plan.id}
              plan={plan}
              below={index > 0 ? (individual[index - 1] ?? null) : null}
              unlocks={unlocks.find((u) => u.planId === plan.id)}
              inventory={inventory.find((i) => i.tier === tier)}
              interval={interval}
              viewer={viewer}
            />
          );
        })}
      </ol>

      {team.length > 0 ? (
        <section aria-labelledby="teams-title" className="mt-14">
          <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
            <div>
              <h2 id="teams-title" className="text-xl font-semibold tracking-tight text-ink">
                For teams
              </h2>
              <p className="mt-1 text-sm text-ink-muted">
                One bill for your organisation, priced per seat. Members read with the organisation's plan.
              </p>
            </div>
            {viewer.signedIn ? null : (
              <Link
                to="/auth/signin?redirect=%2Fbusiness%2Fdashboard"
                className="inline-flex items-center gap-1 text-sm font-medium text-accent-text hover:underline"
              >
                Already have a business account? Sign in
                <ArrowRight aria-hidden="true" className="size-3.5" />
              </Link>
            )}
          </div>
          <ul className="grid gap-4 md:grid-cols-2">
            {team.map((plan) => (
              <TeamPlanCard key={plan.id} plan={plan} interval={interval} viewer={viewer} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
