import { Check, Crown, Lock } from "lucide-react";
import { Link } from "react-router";
import { compareTiers, flattenRoutes, isTier, type Tier } from "../../core/index.ts";
import { buttonClass } from "../components/ui/button.tsx";
import { cx } from "../components/ui/cx.ts";
import { Notice } from "../components/ui/notice.tsx";
import { PageHeader } from "../components/ui/page-header.tsx";
import { loadTierInventory } from "../features/content/content.server.ts";
import { registryListingMeta } from "../lib/seo-meta.ts";
import { useAuth } from "../lib/session/auth-context.tsx";
import type { Route } from "./+types/pricing";

export const meta: Route.MetaFunction = (args) =>
  registryListingMeta(args, "/pricing", {
    description:
      "Compare the Free, Basic, Pro and Enterprise plans and what each one unlocks: content, categories and features.",
  });

export async function loader(args: Route.LoaderArgs) {
  return { inventory: await loadTierInventory(args) };
}

const PLAN_PITCH: Record<Tier, string> = {
  Free: "Start learning: everything marked Free, your dashboard and profile.",
  Basic: "For regular learners: Basic content and your personal reports.",
  Pro: "For practitioners: in-depth courses, tools and playbooks marked Pro.",
  Enterprise: "For organisations: the full library, including Enterprise playbooks.",
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const TYPE_PLURAL: Record<string, [string, string]> = {
  article: ["article", "articles"],
  course: ["course", "courses"],
  video: ["video", "videos"],
  markdown: ["page", "pages"],
  category: ["category page", "category pages"],
  collection: ["collection", "collections"],
};

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { inventory } = loaderData;
  const { isAuthenticated, user } = useAuth();
  const current = isTier(user.pricingTier) ? user.pricingTier : null;
  const gatedRoutes = flattenRoutes().filter((r) => r.minTier && !r.isDynamic);

  return (
    <div>
      <PageHeader
        title="Pricing"
        description="Four plans, each including everything below it. Counts are live from the library."
      />
      <Notice tone="info" title="Billing arrives in a later release" className="mb-8">
        Plans can't be bought or changed online yet; an administrator assigns them.
        {isAuthenticated
          ? ` You are on the ${user.pricingTier} plan.`
          : " Create a free account to get started."}
      </Notice>

      <ol className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {inventory.map((plan, index) => {
          const mine = current === plan.tier;
          const below = current !== null && compareTiers(plan.tier, current) < 0;
          const routes = gatedRoutes.filter((r) => r.minTier === plan.tier);
          const types = Object.entries(plan.byType).filter(([, n]) => (n ?? 0) > 0);
          return (
            <li
              key={plan.tier}
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
              <h2 className="flex items-center gap-2 text-lg font-semibold text-ink">
                {plan.tier === "Enterprise" ? (
                  <Crown aria-hidden="true" className="size-4 text-amber-500" />
                ) : null}
                {plan.tier}
              </h2>
              <p className="mt-2 text-sm text-ink-muted">{PLAN_PITCH[plan.tier]}</p>
              <ul className="mt-5 space-y-2.5 text-sm">
                {index > 0 ? (
                  <li className="flex gap-2 text-ink-muted">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok-text" />
                    Everything in {inventory[index - 1]?.tier}
                  </li>
                ) : null}
                <li className="flex gap-2 text-ink">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok-text" />
                  <span>
                    {plan.more ? "More than " : ""}
                    {plural(plan.items, "item")} marked {plan.tier}
                    {types.length > 0 ? (
                      <span className="block text-xs text-ink-subtle">
                        {types
                          .map(([type, n]) => plural(n ?? 0, ...(TYPE_PLURAL[type] ?? [type, type])))
                          .join(" · ")}
                      </span>
                    ) : null}
                  </span>
                </li>
                {plan.categories.length > 0 ? (
                  <li className="flex gap-2 text-ink">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok-text" />
                    <span>
                      {plural(plan.categories.length, "category", "categories")} opened at this plan:
                      <span className="block text-xs text-ink-subtle">
                        {plan.categories.map((c) => c.label).join(", ")}
                      </span>
                    </span>
                  </li>
                ) : null}
                {routes.map((r) => (
                  <li key={r.path} className="flex gap-2 text-ink">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok-text" />
                    {r.label}: {r.description.replace(/\.$/, "")}
                  </li>
                ))}
              </ul>
              <div className="mt-auto pt-6">
                {mine ? (
                  <Link to="/subscription" className={buttonClass("secondary", "md", "w-full")}>
                    Your subscription
                  </Link>
                ) : !isAuthenticated && plan.tier === "Free" ? (
                  <Link to="/auth/signup" className={buttonClass("primary", "md", "w-full")}>
                    Create free account
                  </Link>
                ) : !isAuthenticated ? (
                  <Link
                    to="/auth/signin?redirect=%2Fpricing"
                    className={buttonClass("secondary", "md", "w-full")}
                  >
                    Sign in
                  </Link>
                ) : below ? (
                  <p className="text-center text-sm text-ink-subtle">Included in your plan</p>
                ) : (
                  <p className="flex items-center justify-center gap-1.5 text-center text-sm text-ink-subtle">
                    <Lock aria-hidden="true" className="size-3.5" />
                    Upgrades open with billing
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
