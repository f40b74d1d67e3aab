import { ArrowRight, Sparkles } from "lucide-react";
import { Link } from "react-router";
import { findRoute } from "../../core/index.ts";
import { buttonClass } from "../components/ui/button.tsx";
import { NamedIcon } from "../components/ui/icon.tsx";
import { Notice } from "../components/ui/notice.tsx";
import { loadHome } from "../features/content/content.server.ts";
import { ContentGrid } from "../features/content/content-card.tsx";
import { loadSearch } from "../features/search/search.server.ts";
import { SearchResults } from "../features/search/search-results.tsx";
import { productNameFrom } from "../lib/meta.ts";
import { listingMeta } from "../lib/seo-meta.ts";
import { useAuth } from "../lib/session/auth-context.tsx";
import { useAppConfig } from "../lib/use-config.ts";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = (args) => {
  const product = productNameFrom(args);
  return listingMeta(args, {
    title: "Home",
    description: `${product}: AI education, workforce tools, resources, AI news and documentation, with Free, Basic, Pro and Enterprise plans.`,
    path: "/",
    // Search results (/?search=…) are not pages to index; the canonical stays the plain home page.
    noindex: new URLSearchParams(args.location.search).has("search"),
    feed: true,
    website: true,
  });
};

export async function loader(args: Route.LoaderArgs) {
  // `/?search=…` (the sidebar search for readers and visitors) shows results instead of the home page.
  const results = await loadSearch(args);
  if (results) return { featured: [], latest: [], search: results.query, results };
  return { ...(await loadHome(args)), results: null };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { featured, latest, results } = loaderData;
  const { isAuthenticated, user } = useAuth();
  const { productName, tagline } = useAppConfig();

  if (results) return <SearchResults data={results} path="/" />;

  return (
    <div className="space-y-14">
      <section className="relative overflow-hidden rounded-2xl border border-line bg-gradient-to-br from-accent-soft via-canvas to-canvas px-6 py-12 sm:px-10 sm:py-16">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-accent/10 blur-3xl"
        />
        <p className="mb-3 inline-flex items-center gap-1.5 rounded-full border border-accent-line bg-elevated px-3 py-1 text-xs font-medium text-accent-text">
          <Sparkles aria-hidden="true" className="size-3.5" />
          {tagline}
        </p>
        <h1 className="max-w-2xl text-4xl font-semibold tracking-tight text-balance text-ink sm:text-5xl">
          {productName}
        </h1>
        <p className="mt-4 max-w-2xl text-lg leading-relaxed text-ink-muted">
          Learn how AI works, put it to work in your team and keep up with what changes: courses, practical
          tools, ready-to-use resources, news and documentation in one place.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/ai-education" className={buttonClass("primary")}>
            Start learning
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
          {isAuthenticated ? (
            <Link to="/dashboard" className={buttonClass("secondary")}>
              Your dashboard
            </Link>
          ) : (
            <Link to="/pricing" className={buttonClass("secondary")}>
              Compare plans
            </Link>
          )}
        </div>
        {isAuthenticated ? (
          <p className="mt-6 text-sm text-ink-subtle">
            Signed in as {user.fullName ?? user.username ?? user.email} · {user.pricingTier} plan
          </p>
        ) : null}
      </section>

      {featured.length > 0 ? (
        <section aria-labelledby="featured-title">
          <h2 id="featured-title" className="mb-5 text-xl font-semibold tracking-tight text-ink">
            Featured
          </h2>
          <ContentGrid items={featured} />
        </section>
      ) : null}

      {latest
        .filter((group) => group.items.length > 0)
        .map(({ section, items }) => {
          const icon = findRoute(section.path)?.icon;
          const headingId = `latest-${section.slug}`;
          return (
            <section key={section.slug} aria-labelledby={headingId}>
              <div className="mb-5 flex items-end justify-between gap-4">
                <div>
                  <h2
                    id={headingId}
                    className="flex items-center gap-2 text-xl font-semibold tracking-tight text-ink"
                  >
                    <NamedIcon name={icon} className="size-5 text-accent-text" />
                    {section.label}
                  </h2>
                  <p className="mt-1 line-clamp-2 max-w-2xl text-sm text-ink-muted">{section.description}</p>
                </div>
                <Link
                  to={section.path}
                  className="inline-flex shrink-0 items-center gap-1 rounded text-sm font-medium text-accent-text hover:underline"
                >
                  View all
                  <span className="sr-only"> in {section.label}</span>
                  <ArrowRight aria-hidden="true" className="size-3.5" />
                </Link>
              </div>
              <ContentGrid items={items} />
            </section>
          );
        })}

      {featured.length === 0 && latest.every((g) => g.items.length === 0) ? (
        <Notice title="No content yet" tone="info">
          Nothing has been published yet. Content managers can add articles, courses and videos.
        </Notice>
      ) : null}
    </div>
  );
}
