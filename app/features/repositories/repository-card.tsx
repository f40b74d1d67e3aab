import { GitFork, Star } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "../../lib/format.ts";
import type { RepositoryCardData } from "./repositories.server.ts";
import { languageColor, repositoryHref } from "./view-model.ts";

export function LanguageDot({ language }: { language: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className="size-2.5 rounded-full ring-1 ring-black/10"
        style={{ backgroundColor: languageColor(language) }}
      />
      {language}
    </span>
  );
}

export function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li
          key={tag}
          className="rounded-full border border-accent-line bg-accent-soft px-2 py-0.5 text-xs text-accent-text"
        >
          {tag}
        </li>
      ))}
    </ul>
  );
}

/** A repository on /resources: name, description, language, stars, forks, tags, last sync. */
export function RepositoryCard({ repository: r }: { repository: RepositoryCardData }) {
  const synced = formatDate(r.lastSyncAt);
  return (
    <article className="relative flex flex-col rounded-xl border border-line bg-elevated p-5 transition-colors hover:border-line-strong hover:bg-surface has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-focus">
      <h3 className="text-base font-semibold leading-snug text-ink">
        <Link
          to={repositoryHref(r.slug)}
          prefetch="intent"
          className="after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none"
        >
          {r.displayName}
        </Link>
      </h3>
      <p className="font-mono text-xs text-ink-subtle">{r.slug}</p>
      {r.description ? (
        <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-ink-muted">{r.description}</p>
      ) : null}
      <div className="relative mt-3">
        <Tags tags={r.tags} />
      </div>
      <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-4 text-xs text-ink-muted">
        {r.language ? <LanguageDot language={r.language} /> : null}
        <span className="inline-flex items-center gap-1" title="Stars">
          <Star aria-hidden="true" className="size-3.5" />
          <span className="sr-only">Stars:</span> {r.stars}
        </span>
        <span className="inline-flex items-center gap-1" title="Forks">
          <GitFork aria-hidden="true" className="size-3.5" />
          <span className="sr-only">Forks:</span> {r.forks}
        </span>
        {synced ? (
          <span className="ml-auto text-ink-subtle">
            Synced <time dateTime={r.lastSyncAt ?? undefined}>{synced}</time>
          </span>
        ) : (
          <span className="ml-auto text-ink-subtle">Not synced yet</span>
        )}
      </div>
    </article>
  );
}
