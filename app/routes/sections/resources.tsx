import { FolderGit2, Inbox, Search } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { ContentGrid } from "../../features/content/content-card.tsx";
import { FollowSectionButton } from "../../features/notifications/follow-section-button.tsx";
import {
  loadRepositoryList,
  type RepositoryListData,
} from "../../features/repositories/repositories.server.ts";
import { RepositoryCard } from "../../features/repositories/repository-card.tsx";
import { registryListingMeta } from "../../lib/seo-meta.ts";
import type { Route } from "./+types/resources";

export const meta: Route.MetaFunction = (args) =>
  registryListingMeta(args, "/resources", {
    description: "Public source repositories with a code viewer: prompt tooling, data scripts and templates.",
  });

export async function loader(args: Route.LoaderArgs) {
  return loadRepositoryList(args);
}

type Filters = RepositoryListData["filters"];

function hrefWith(filters: Filters, change: Partial<Filters>): string {
  const next = { ...filters, ...change };
  const params = new URLSearchParams();
  if (next.category) params.set("category", next.category);
  if (next.language) params.set("language", next.language);
  if (next.q) params.set("q", next.q);
  const query = params.toString();
  return query ? `/resources?${query}` : "/resources";
}

function Chip({ to, active, children }: { to: string; active: boolean; children: ReactNode }) {
  return (
    <Link
      to={to}
      preventScrollReset
      aria-current={active ? "true" : undefined}
      className={cx(
        "inline-flex h-8 items-center whitespace-nowrap rounded-full border px-3 text-sm transition-colors",
        active
          ? "border-accent bg-accent text-accent-ink"
          : "border-line bg-elevated text-ink-muted hover:border-line-strong hover:text-ink",
      )}
    >
      {children}
    </Link>
  );
}

export default function Resources({ loaderData }: Route.ComponentProps) {
  const { filters, categories, languages, groups, total, shown, guides } = loaderData;
  const filtered = Boolean(filters.category || filters.language || filters.q);
  return (
    <div>
      <PageHeader
        eyebrow="Section"
        title="Resources"
        actions={<FollowSectionButton section="resources" />}
        description="Public source repositories you can read in the browser — highlighted code, READMEs, branches and history — plus templates and playbooks."
        icon={
          <span className="flex size-9 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
            <FolderGit2 aria-hidden="true" className="size-5" />
          </span>
        }
      />

      <div className="mb-6 space-y-3">
        <Form method="get" action="/resources" role="search" className="flex max-w-xl gap-2">
          {filters.category ? <input type="hidden" name="category" value={filters.category} /> : null}
          {filters.language ? <input type="hidden" name="language" value={filters.language} /> : null}
          <label htmlFor="repository-search" className="sr-only">
            Search repositories by name
          </label>
          <div className="relative min-w-0 flex-1">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
            />
            <input
              id="repository-search"
              type="search"
              name="q"
              defaultValue={filters.q}
              maxLength={200}
              placeholder="Search repositories by name"
              className="h-9 w-full rounded-lg border border-line bg-elevated pr-3 pl-9 text-sm text-ink placeholder:text-ink-subtle focus-visible:outline-2 focus-visible:outline-focus"
            />
          </div>
          <button type="submit" className={buttonClass("secondary", "sm", "h-9")}>
            Search
          </button>
        </Form>
        {categories.length > 0 ? (
          <nav aria-label="Filter by category" className="flex flex-wrap gap-2">
            <Chip to={hrefWith(filters, { category: null })} active={!filters.category}>
              All categories
            </Chip>
            {categories.map((c) => (
              <Chip
                key={c.slug}
                to={hrefWith(filters, { category: c.slug })}
                active={filters.category === c.slug}
              >
                {c.name}
                <span className="ml-1.5 text-xs opacity-70">{c.count}</span>
              </Chip>
            ))}
          </nav>
        ) : null}
        {languages.length > 0 ? (
          <nav aria-label="Filter by language" className="flex flex-wrap items-center gap-2">
            <span className="mr-1 text-xs font-medium uppercase tracking-wider text-ink-subtle">
              Language
            </span>
            <Chip to={hrefWith(filters, { language: null })} active={!filters.language}>
              All languages
            </Chip>
            {languages.map((l) => (
              <Chip
                key={l.name}
                to={hrefWith(filters, { language: l.name })}
                active={filters.language?.toLowerCase() === l.name.toLowerCase()}
              >
                {l.name}
                <span className="ml-1.5 text-xs opacity-70">{l.count}</span>
              </Chip>
            ))}
          </nav>
        ) : null}
      </div>

      <h2 className="sr-only">Repositories</h2>
      {filtered ? (
        <p className="mb-4 text-sm text-ink-muted" role="status">
          {shown} of {total} repositories{filters.q ? ` match “${filters.q}”` : ""}.
        </p>
      ) : null}
      {groups.length > 0 ? (
        <div className="space-y-10">
          {groups.map((group) => (
            <section key={group.slug ?? "other"} aria-labelledby={`group-${group.slug ?? "other"}`}>
              <h3 id={`group-${group.slug ?? "other"}`} className="text-lg font-semibold text-ink">
                {group.name}
              </h3>
              {group.description ? <p className="mt-1 text-sm text-ink-muted">{group.description}</p> : null}
              <div className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {group.repositories.map((r) => (
                  <RepositoryCard key={r.slug} repository={r} />
                ))}
              </div>
            </section>
          ))}
        </div>
      ) : (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line px-6 py-14 text-center">
          <Inbox aria-hidden="true" className="mb-3 size-8 text-ink-subtle" />
          <p className="font-medium text-ink">No repositories {filtered ? "match" : "yet"}</p>
          <p className="mt-1 text-sm text-ink-muted">
            {filtered
              ? "Try another category, language or name."
              : "An administrator can add local or GitHub repositories."}
          </p>
          {filtered ? (
            <Link to="/resources" className={buttonClass("secondary", "sm", "mt-4")}>
              Clear filters
            </Link>
          ) : null}
        </div>
      )}

      {guides.length > 0 ? (
        <section aria-labelledby="guides-heading" className="mt-12 border-t border-line pt-8">
          <h2 id="guides-heading" className="text-lg font-semibold text-ink">
            Templates and playbooks
          </h2>
          <p className="mt-1 mb-4 text-sm text-ink-muted">
            Checklists and guides from the Resources section.
          </p>
          <ContentGrid items={guides} />
        </section>
      ) : null}
    </div>
  );
}
