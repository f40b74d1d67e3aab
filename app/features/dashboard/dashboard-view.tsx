import { Building2, Compass, Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import type { DashboardData, UpgradeTeaser } from "../../../server/modules/dashboard/dashboard.types.ts";
import { TierBadge } from "../../components/tier-badge.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { contentPath, formatDate, TYPE_LABEL } from "../../lib/format.ts";
import {
  ContinueCard,
  DashboardSection,
  EmptyState,
  emptyIcons,
  ItemCard,
  ItemGrid,
} from "./dashboard-cards.tsx";

const TYPE_PLURAL: Record<string, string> = {
  article: "articles",
  course: "courses",
  video: "videos",
  markdown: "pages",
  category: "categories",
  collection: "collections",
};

const browse = (
  <Link to="/ai-education" className={buttonClass("secondary", "sm")}>
    Browse courses
  </Link>
);

/** "What Pro would add": the next plan's share of the library, a few titles, and where to upgrade. */
export function UpgradeCard({
  upgrade,
  organisationPlan,
}: {
  upgrade: UpgradeTeaser;
  organisationPlan: DashboardData["organisationPlan"];
}) {
  const counts = Object.entries(upgrade.byType)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(
      ([type, n]) =>
        `${n} ${n === 1 ? (TYPE_LABEL as Record<string, string>)[type]?.toLowerCase() : TYPE_PLURAL[type]}`,
    );
  return (
    <Card className="p-5" data-testid="upgrade-card">
      <div className="flex flex-wrap items-center gap-2">
        <Sparkles aria-hidden="true" className="size-4 text-accent-text" />
        <h2 id="dash-upgrade" className="text-base font-semibold text-ink">
          What {upgrade.tier} would add
        </h2>
        <TierBadge tier={upgrade.tier} />
      </div>
      <p className="mt-2 text-sm text-ink-muted">
        {upgrade.items > 0
          ? `${upgrade.items} more ${upgrade.items === 1 ? "item" : "items"} in the library${counts.length ? `: ${counts.join(", ")}` : ""}.`
          : `The ${upgrade.tier} plan adds no items beyond yours yet.`}
      </p>
      {upgrade.highlights.length > 0 ? (
        <ul className="mt-3 space-y-1.5 text-sm">
          {upgrade.highlights.map((h) => (
            <li key={h.slug} className="flex items-center gap-2">
              <span className="w-16 shrink-0 text-xs uppercase tracking-wide text-ink-subtle">
                {TYPE_LABEL[h.type]}
              </span>
              <Link to={contentPath(h.slug)} className="min-w-0 truncate text-ink hover:underline">
                {h.title}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {organisationPlan ? (
        <p className="mt-4 flex items-start gap-2 text-sm text-ink-muted">
          <Building2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            Your plan comes from {organisationPlan.orgName ?? "your organisation"}: ask its administrator
            about moving the organisation to {upgrade.tier}.
          </span>
        </p>
      ) : (
        <div className="mt-4 flex flex-wrap gap-2">
          <Link to="/pricing" className={buttonClass("primary", "sm")}>
            See {upgrade.tier}
          </Link>
          <Link to="/subscription" className={buttonClass("secondary", "sm")}>
            Your subscription
          </Link>
        </div>
      )}
    </Card>
  );
}

export interface DashboardViewProps {
  firstName: string;
  data: DashboardData;
  /** The completions/certificates panel, mounted by the route. */
  completions?: ReactNode;
}

const SECTION_LABEL: Record<DashboardData["unavailable"][number], string> = {
  continue: "Continue where you left off",
  saved: "Saved",
  fresh: "New in your plan",
  recommended: "Recommended for you",
  upgrade: "What the next plan would add",
};

export function DashboardView({ firstName, data, completions }: DashboardViewProps) {
  const navigation = useNavigation();
  const since = formatDate(data.fresh.since);
  return (
    <div
      className={cx("space-y-8 transition-opacity", navigation.state === "loading" && "opacity-60")}
      aria-busy={navigation.state === "loading"}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <p className="text-lg font-medium text-ink">Welcome back, {firstName}.</p>
        <TierBadge tier={data.tier} />
        {data.organisationPlan ? (
          <span className="inline-flex items-center gap-1 text-sm text-ink-muted">
            <Building2 aria-hidden="true" className="size-3.5" />
            Plan from {data.organisationPlan.orgName ?? "your organisation"}
          </span>
        ) : null}
      </div>

      {data.unavailable.length > 0 ? (
        <Notice tone="warn" title="Part of your dashboard could not be loaded" role="status">
          {data.unavailable.map((s) => SECTION_LABEL[s]).join(", ")}: reload the page in a moment to try
          again.
        </Notice>
      ) : null}

      <DashboardSection id="dash-continue" title="Continue where you left off">
        {data.continueReading.length > 0 ? (
          <ItemGrid>
            {data.continueReading.map((entry) => (
              <ContinueCard key={entry.item.id} entry={entry} />
            ))}
          </ItemGrid>
        ) : (
          <EmptyState icon={emptyIcons.reading} action={browse}>
            Items you read and courses you work through will wait for you here.
          </EmptyState>
        )}
      </DashboardSection>

      {completions}

      <DashboardSection
        id="dash-saved"
        title="Saved"
        description={
          data.savedCount > data.saved.length
            ? `The newest ${data.saved.length} of ${data.savedCount} saved items.`
            : undefined
        }
      >
        {data.saved.length > 0 ? (
          <ItemGrid>
            {data.saved.map((s) => (
              <ItemCard
                key={s.item.id}
                item={s.item}
                footer={<span>Saved {formatDate(s.savedAt) ?? ""}</span>}
              />
            ))}
          </ItemGrid>
        ) : (
          <EmptyState icon={emptyIcons.saved}>
            Use <strong className="font-medium text-ink">Save</strong> on any article, course or video to keep
            it here for later.
          </EmptyState>
        )}
      </DashboardSection>

      <DashboardSection
        id="dash-new"
        title="New in your plan since your last visit"
        description={
          data.fresh.firstVisit
            ? "Published in the last 14 days."
            : since
              ? `Published since ${since}.`
              : undefined
        }
      >
        {data.fresh.items.length > 0 ? (
          <ItemGrid>
            {data.fresh.items.map((item) => (
              <ItemCard key={item.id} item={item} />
            ))}
          </ItemGrid>
        ) : (
          <EmptyState icon={<Compass aria-hidden="true" className="size-4" />} action={browse}>
            Nothing new since your last visit. The library is all yours to explore.
          </EmptyState>
        )}
      </DashboardSection>

      <DashboardSection
        id="dash-recommended"
        title="Recommended for you"
        description="From the sections you read most, and our featured picks."
      >
        {data.recommended.length > 0 ? (
          <ItemGrid>
            {data.recommended.map((item) => (
              <ItemCard key={item.id} item={item} />
            ))}
          </ItemGrid>
        ) : (
          <EmptyState icon={<Compass aria-hidden="true" className="size-4" />} action={browse}>
            You have read everything we would suggest. New items will show up here.
          </EmptyState>
        )}
      </DashboardSection>

      {data.upgrade ? (
        <section aria-labelledby="dash-upgrade">
          <UpgradeCard upgrade={data.upgrade} organisationPlan={data.organisationPlan} />
        </section>
      ) : null}
    </div>
  );
}
