import { Lock, SearchX } from "lucide-react";
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { findRoute, meetsContentTier, PRICING_PATH, signInUrl } from "../../../core/index.ts";
import type { SearchResultItem, SnippetPart } from "../../../server/services.ts";
import { TierBadge } from "../../components/tier-badge.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { contentPath, formatDate, TYPE_LABEL } from "../../lib/format.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { type SearchPageData, searchPageUrl } from "./search-data.ts";

/** Text with the matched words in <mark>; every part is rendered as text (never as HTML). */
export function Highlighted({ parts }: { parts: SnippetPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.hit ? (
          <mark key={i} className="rounded-sm bg-accent-soft px-0.5 text-ink">
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

/** "12 results"; "500+ results" when the search stopped counting at its candidate limit. */
export function resultCountText(total: number | null, shown: number, capped = false): string {
  const n = total ?? shown;
  if (capped) return `${n.toLocaleString("en-US")}+ results`;
  return `${n.toLocaleString("en-US")} ${n === 1 ? "result" : "results"}`;
}

/** Why a locked result is locked, and where to go: sign in, upgrade, or a role it needs. */
function LockedHint({ item }: { item: SearchResultItem }) {
  const { access, isAuthenticated } = useAuth();
  const path = contentPath(item.slug);
  let hint: ReactNode;
  if (!isAuthenticated) {
    hint = (
      <>
        <Link to={signInUrl(path)} className="font-medium text-accent-text hover:underline">
          Sign in
        </Link>{" "}
        to read it{item.tier !== "Free" ? ` (${item.tier} plan)` : ""}.
      </>
    );
  } else if (!meetsContentTier(access.tier, item.tier)) {
    hint = (
      <>
        <Link to={PRICING_PATH} className="font-medium text-accent-text hover:underline">
          Upgrade
        </Link>{" "}
        to the {item.tier} plan to read it.
      </>
    );
  } else {
    hint = <>For {item.rolesRequired.join(", ") || "certain roles"} only.</>;
  }
  return (
    <p className="mt-2 flex items-center gap-1.5 text-xs text-ink-subtle">
      <Lock aria-hidden="true" className="size-3.5 shrink-0" />
      <span>{hint}</span>
    </p>
  );
}

function ResultItem({ item }: { item: SearchResultItem }) {
  const sectionLabel = item.section ? (findRoute(`/${item.section}`)?.label ?? item.section) : null;
  const date = formatDate(item.publishedAt);
  return (
    <li className="rounded-xl border border-line bg-elevated p-5">
      <article>
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-xs text-ink-subtle">
          <p className="flex min-w-0 flex-wrap items-center gap-2">
            <span className="font-medium uppercase tracking-wide text-accent-text">
              {TYPE_LABEL[item.type]}
            </span>
            {sectionLabel ? (
              <>
                <span aria-hidden="true">·</span>
                <span>{sectionLabel}</span>
              </>
            ) : null}
            {date ? (
              <>
                <span aria-hidden="true">·</span>
                <time dateTime={item.publishedAt ?? undefined}>{date}</time>
              </>
            ) : null}
          </p>
          <TierBadge tier={item.tier} locked={item.locked} className="shrink-0" />
        </div>
        <h2 className="text-base font-semibold leading-snug text-ink">
          <Link to={contentPath(item.slug)} className="hover:text-accent-text hover:underline">
            <Highlighted parts={item.titleParts} />
          </Link>
        </h2>
        {item.snippet.length > 0 ? (
          <p className="mt-2 text-sm leading-relaxed text-ink-muted">
            <Highlighted parts={item.snippet} />
          </p>
        ) : null}
        {item.locked ? <LockedHint item={item} /> : null}
      </article>
    </li>
  );
}

/** The search results screen: heading with the term and count, results, empty state, paging. */
export function SearchResults({ data, path }: { data: SearchPageData; path: string }) {
  const { query, items, total, totalCapped, nextCursor, cursor, error } = data;
  return (
    <section aria-labelledby="search-title" className="space-y-6">
      <header>
        <h1 id="search-title" className="text-2xl font-semibold tracking-tight text-ink">
          {query ? (
            <>
              Results for <span className="text-accent-text">“{query}”</span>
            </>
          ) : (
            "Search"
          )}
        </h1>
        {query && !error ? (
          <p className="mt-1 text-sm text-ink-muted" role="status">
            {resultCountText(total, items.length, totalCapped)}
          </p>
        ) : null}
      </header>

      {error ? (
        <Notice tone="warn" title="Search again" role="alert">
          {error}{" "}
          <Link
            to={searchPageUrl(path, query, null)}
            className="font-medium text-accent-text hover:underline"
          >
            Back to the first page
          </Link>
        </Notice>
      ) : !query ? (
        <Notice tone="info" title="Type a word to search">
          Search looks through titles, summaries, tags and the text of what you can read.
        </Notice>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-line px-6 py-10 text-center">
          <SearchX aria-hidden="true" className="size-6 text-ink-subtle" />
          <p className="font-medium text-ink">No results for “{query}”</p>
          <p className="text-sm text-ink-muted">Try fewer or different words, or check the spelling.</p>
        </div>
      ) : (
        <ol className="space-y-3" aria-label="Search results">
          {items.map((item) => (
            <ResultItem key={item.id} item={item} />
          ))}
        </ol>
      )}

      {cursor || nextCursor ? (
        <nav aria-label="Search result pages" className="flex justify-between">
          {cursor ? (
            <Link
              to={searchPageUrl(path, query, null)}
              className="text-sm font-medium text-accent-text hover:underline"
            >
              First results
            </Link>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <Link
              to={searchPageUrl(path, query, nextCursor)}
              className="text-sm font-medium text-accent-text hover:underline"
            >
              More results
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
