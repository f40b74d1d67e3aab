import {
  ChevronRight,
  CircleCheck,
  CircleDot,
  Download,
  ExternalLink,
  FileCode,
  FileText,
  Folder,
  GitBranch,
  GitCommitHorizontal,
  GitFork,
  ImageIcon,
  Search,
  Star,
  Workflow,
} from "lucide-react";
import { type ChangeEvent, useEffect, useState } from "react";
import { Form, Link, useSubmit } from "react-router";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { formatDate } from "../../lib/format.ts";
import { CodeView } from "./code-view.tsx";
import type { FileData, RepositoryPageData, TreeEntryData } from "./repositories.server.ts";
import { LanguageDot, Tags } from "./repository-card.tsx";
import { breadcrumbs, formatBytes, type RepositoryView, rawHref, repositoryHref } from "./view-model.ts";

type Page = RepositoryPageData;

export function RepositoryHeader({ page }: { page: Page }) {
  const r = page.repository;
  const synced = formatDate(r.lastSyncAt);
  return (
    <header className="mb-6 border-b border-line pb-6">
      <nav aria-label="Breadcrumb" className="mb-3">
        <ol className="flex items-center gap-1 text-sm text-ink-subtle">
          <li>
            <Link to="/resources" className="rounded hover:text-ink">
              Resources
            </Link>
          </li>
          {r.category ? (
            <li className="flex items-center gap-1">
              <ChevronRight aria-hidden="true" className="size-3.5" />
              <Link
                to={`/resources?category=${encodeURIComponent(r.category.slug)}`}
                className="rounded hover:text-ink"
              >
                {r.category.name}
              </Link>
            </li>
          ) : null}
        </ol>
      </nav>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">{r.displayName}</h1>
          {r.description ? <p className="mt-2 max-w-3xl text-base text-ink-muted">{r.description}</p> : null}
        </div>
        {r.htmlUrl ? (
          <a
            href={r.htmlUrl}
            rel="noopener noreferrer nofollow"
            target="_blank"
            className={buttonClass("secondary", "sm", "shrink-0")}
          >
            <ExternalLink aria-hidden="true" className="size-4" />
            View on GitHub
          </a>
        ) : null}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-ink-muted">
        {r.language ? <LanguageDot language={r.language} /> : null}
        <span className="inline-flex items-center gap-1">
          <Star aria-hidden="true" className="size-4" /> {r.stars} <span>stars</span>
        </span>
        <span className="inline-flex items-center gap-1">
          <GitFork aria-hidden="true" className="size-4" /> {r.forks} <span>forks</span>
        </span>
        {r.defaultBranch ? (
          <span className="inline-flex items-center gap-1">
            <GitBranch aria-hidden="true" className="size-4" />
            <span>
              Default branch <code className="font-mono text-ink">{r.defaultBranch}</code>
            </span>
          </span>
        ) : null}
        <span className="text-ink-subtle">
          {r.sourceType === "local" ? "Local repository" : "GitHub repository"} ·{" "}
          {synced ? (
            <>
              last synced <time dateTime={r.lastSyncAt ?? undefined}>{synced}</time>
            </>
          ) : (
            "not synced yet"
          )}
        </span>
      </div>
      {r.tags.length > 0 ? (
        <div className="mt-3">
          <Tags tags={r.tags} />
        </div>
      ) : null}
      {page.stale || page.unavailable ? (
        <Notice tone="warn" title="Showing cached data" className="mt-4" role="status">
          {page.unavailable
            ? "The repository's source cannot be reached right now and nothing is cached for this view. Try again later."
            : "The repository's source cannot be reached right now; this is the last copy we fetched."}
          {synced ? ` Last synced ${synced}.` : ""}
        </Notice>
      ) : null}
    </header>
  );
}

const TABS: { view: RepositoryView; label: string; icon: typeof FileCode }[] = [
  { view: "files", label: "Code", icon: FileCode },
  { view: "commits", label: "Commits", icon: GitCommitHorizontal },
  { view: "issues", label: "Issues", icon: CircleDot },
  { view: "workflows", label: "Workflows", icon: Workflow },
  { view: "search", label: "Search", icon: Search },
];

/** The branch <select> in a GET form (works without JavaScript; with it, submits on change). */
export function BranchSwitcher({ page }: { page: Page }) {
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const names = page.branches.map((b) => b.name);
  if (!names.includes(page.branch)) names.unshift(page.branch);
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => submit(event.currentTarget.form);
  return (
    <Form method="get" className="flex items-center gap-2">
      <label htmlFor="branch-select" className="inline-flex items-center gap-1.5 text-sm text-ink-muted">
        <GitBranch aria-hidden="true" className="size-4" />
        <span>Branch</span>
      </label>
      <select
        id="branch-select"
        name="branch"
        value={page.branch}
        onChange={onChange}
        className="h-8 max-w-[16rem] rounded-lg border border-line bg-elevated px-2 font-mono text-sm text-ink focus-visible:outline-2 focus-visible:outline-focus"
      >
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
            {name === page.repository.defaultBranch ? " (default)" : ""}
          </option>
        ))}
      </select>
      {page.path && page.view === "files" ? <input type="hidden" name="path" value={page.path} /> : null}
      {page.view !== "files" ? <input type="hidden" name="view" value={page.view} /> : null}
      <input type="hidden" name="switch" value="1" />
      <button type="submit" className={cx(buttonClass("secondary", "sm"), hydrated && "sr-only")}>
        Switch
      </button>
    </Form>
  );
}

export function RepositoryToolbar({ page }: { page: Page }) {
  const slug = page.repository.slug;
  return (
    <div className="mb-5 flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
      <nav aria-label="Repository views" className="-mx-1 flex gap-1 overflow-x-auto">
        {TABS.map(({ view, label, icon: Icon }) => (
          <Link
            key={view}
            to={repositoryHref(slug, { branch: page.branch, view })}
            aria-current={page.view === view ? "page" : undefined}
            className={cx(
              "inline-flex h-8 shrink-0 items-center gap-1.5 rounded-lg px-3 text-sm transition-colors",
              page.view === view
                ? "bg-accent-soft font-medium text-accent-text"
                : "text-ink-muted hover:bg-sunken hover:text-ink",
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {label}
          </Link>
        ))}
      </nav>
      <BranchSwitcher page={page} />
    </div>
  );
}

export function PathCrumbs({ page }: { page: Page }) {
  const slug = page.repository.slug;
  const crumbs = breadcrumbs(page.path);
  return (
    <nav aria-label="File path" className="mb-3 min-w-0">
      <ol className="flex flex-wrap items-center gap-1 font-mono text-sm">
        <li>
          <Link
            to={repositoryHref(slug, { branch: page.branch })}
            className="font-semibold text-accent-text hover:underline"
          >
            {slug}
          </Link>
        </li>
        {crumbs.map((c, i) => (
          <li key={c.path} className="flex items-center gap-1">
            <span aria-hidden="true" className="text-ink-subtle">
              /
            </span>
            {i === crumbs.length - 1 ? (
              <span aria-current="page" className="font-semibold text-ink">
                {c.name}
              </span>
            ) : (
              <Link
                to={repositoryHref(slug, { branch: page.branch, path: c.path })}
                className="text-accent-text hover:underline"
              >
                {c.name}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function EntryIcon({ entry }: { entry: TreeEntryData }) {
  if (entry.type === "dir") return <Folder aria-hidden="true" className="size-4 shrink-0 text-accent-text" />;
  return <FileText aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />;
}

/** The entries of one folder (folders are links: one folder per request). */
export function DirectoryTable({ page }: { page: Page }) {
  const tree = page.tree;
  if (!tree) return null;
  const slug = page.repository.slug;
  const up = page.path ? page.path.split("/").slice(0, -1).join("/") : null;
  const latest = page.branches.find((b) => b.name === page.branch);
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-elevated">
      {latest?.lastCommitMessage ? (
        <div className="flex items-center gap-2 border-b border-line bg-sunken px-4 py-2.5 text-sm text-ink-muted">
          <GitCommitHorizontal aria-hidden="true" className="size-4 shrink-0" />
          <span className="min-w-0 truncate">{latest.lastCommitMessage.split("\n")[0]}</span>
          {latest.lastCommitDate ? (
            <time dateTime={latest.lastCommitDate} className="ml-auto shrink-0 text-xs text-ink-subtle">
              {formatDate(latest.lastCommitDate)}
            </time>
          ) : null}
        </div>
      ) : null}
      <ul aria-label={page.path ? `Files in ${page.path}` : "Files"} className="divide-y divide-line">
        {up !== null ? (
          <li>
            <Link
              to={repositoryHref(slug, { branch: page.branch, path: up })}
              className="flex items-center gap-3 px-4 py-2 text-sm text-ink-muted hover:bg-sunken"
            >
              <Folder aria-hidden="true" className="size-4" />
              <span>..</span>
              <span className="sr-only">(parent folder)</span>
            </Link>
          </li>
        ) : null}
        {tree.entries.map((entry) => (
          <li key={entry.path}>
            <Link
              to={repositoryHref(slug, { branch: page.branch, path: entry.path })}
              className="flex items-center gap-3 px-4 py-2 text-sm text-ink hover:bg-sunken"
            >
              <EntryIcon entry={entry} />
              <span className="min-w-0 truncate hover:underline">{entry.name}</span>
              {entry.type === "file" ? (
                <span className="ml-auto shrink-0 text-xs text-ink-subtle">{formatBytes(entry.size)}</span>
              ) : null}
            </Link>
          </li>
        ))}
        {tree.entries.length === 0 ? (
          <li className="px-4 py-6 text-sm text-ink-muted">This folder is empty.</li>
        ) : null}
      </ul>
    </div>
  );
}

/** The folder of the open file, beside the viewer (wide screens). */
export function FileSidebar({ page }: { page: Page }) {
  const tree = page.tree;
  if (!tree) return null;
  const slug = page.repository.slug;
  return (
    <nav aria-label="Files in this folder" className="hidden min-w-0 lg:block">
      <p className="mb-2 truncate px-2 font-mono text-xs text-ink-subtle">
        {tree.dir ? `${tree.dir}/` : "/"}
      </p>
      <ul className="space-y-0.5 text-sm">
        {tree.entries.map((entry) => (
          <li key={entry.path}>
            <Link
              to={repositoryHref(slug, { branch: page.branch, path: entry.path })}
              aria-current={entry.path === page.path ? "page" : undefined}
              className={cx(
                "flex items-center gap-2 rounded-md px-2 py-1",
                entry.path === page.path
                  ? "bg-accent-soft font-medium text-accent-text"
                  : "text-ink-muted hover:bg-sunken hover:text-ink",
              )}
            >
              <EntryIcon entry={entry} />
              <span className="min-w-0 truncate">{entry.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function FilePanel({ page, file }: { page: Page; file: FileData }) {
  const slug = page.repository.slug;
  const raw = rawHref(slug, page.branch, file.path);
  const download = rawHref(slug, page.branch, file.path, true);
  const { display } = file;
  return (
    <section
      aria-label={`File ${file.name}`}
      className="min-w-0 overflow-hidden rounded-xl border border-line bg-elevated"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-line bg-sunken px-4 py-2">
        <p className="flex min-w-0 items-center gap-2 text-xs text-ink-muted">
          {file.lineCount > 0 ? <span>{file.lineCount} lines</span> : null}
          <span>{formatBytes(file.size)}</span>
          {file.language ? <span className="font-mono">{file.language}</span> : null}
        </p>
        <div className="ml-auto flex gap-2">
          {display.kind !== "download-only" ? (
            <a href={raw} className={buttonClass("ghost", "sm")} target="_blank" rel="noopener">
              Raw
            </a>
          ) : null}
          <a href={download} className={buttonClass("secondary", "sm")} download={file.name}>
            <Download aria-hidden="true" className="size-4" />
            Download
          </a>
        </div>
      </div>
      {display.kind === "plain" && display.reason === "too-large" ? (
        <Notice tone="info" className="m-3" title="Shown without highlighting">
          This file is larger than 1 MB, so it is shown as plain text.
        </Notice>
      ) : null}
      {file.html ? <CodeView html={file.html} label={`Contents of ${file.name}`} /> : null}
      {display.kind === "image" ? (
        <div className="flex justify-center bg-sunken p-6">
          <img src={raw} alt={file.name} className="max-h-[32rem] max-w-full rounded-md" />
        </div>
      ) : null}
      {display.kind === "binary" ? (
        <div className="flex flex-col items-center gap-2 px-6 py-12 text-center text-sm text-ink-muted">
          <ImageIcon aria-hidden="true" className="size-8 text-ink-subtle" />
          <p className="font-medium text-ink">Binary file not shown</p>
          <p>
            {formatBytes(file.size)} · <span className="font-mono">{file.mimeType}</span>
          </p>
        </div>
      ) : null}
      {display.kind === "download-only" ? (
        <div className="flex flex-col items-center gap-2 px-6 py-12 text-center text-sm text-ink-muted">
          <Download aria-hidden="true" className="size-8 text-ink-subtle" />
          <p className="font-medium text-ink">This file is too large to show</p>
          <p>
            {formatBytes(file.size)} (over 8 MB) · <span className="font-mono">{file.mimeType}</span>.
            Download it to read it.
          </p>
        </div>
      ) : null}
    </section>
  );
}

export function ReadmePanel({ readme }: { readme: { path: string; html: string } }) {
  return (
    <section
      aria-labelledby="readme-heading"
      className="mt-6 overflow-hidden rounded-xl border border-line bg-elevated"
    >
      <h2
        id="readme-heading"
        className="flex items-center gap-2 border-b border-line bg-sunken px-4 py-2.5 text-sm font-medium text-ink"
      >
        <FileText aria-hidden="true" className="size-4" />
        {readme.path}
      </h2>
      <div
        className="readme-body prose-content px-5 py-6 sm:px-8"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the markdown pipeline sanitizes the README on the server
        dangerouslySetInnerHTML={{ __html: readme.html }}
      />
    </section>
  );
}

export function CommitList({ page }: { page: Page }) {
  const commits = page.commits ?? [];
  if (commits.length === 0) return <Empty text="No commits to show." />;
  return (
    <ol
      aria-label={`Commits on ${page.branch}`}
      className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-elevated"
    >
      {commits.map((c) => (
        <li key={c.sha} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-ink">{c.message.split("\n")[0]}</p>
            <p className="text-xs text-ink-muted">
              {c.author} · <time dateTime={c.date}>{formatDate(c.date)}</time>
            </p>
          </div>
          <code className="shrink-0 font-mono text-xs text-ink-subtle">{c.sha.slice(0, 7)}</code>
        </li>
      ))}
    </ol>
  );
}

function StateBadge({ state, ok }: { state: string; ok: boolean }) {
  return (
    <span
      className={cx(
        "inline-flex shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium",
        ok ? "border-ok-line bg-ok-soft text-ok-text" : "border-line bg-sunken text-ink-muted",
      )}
    >
      {ok ? (
        <CircleDot aria-hidden="true" className="size-3" />
      ) : (
        <CircleCheck aria-hidden="true" className="size-3" />
      )}
      {state}
    </span>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <div className="rounded-xl border border-dashed border-line px-6 py-12 text-center text-sm text-ink-muted">
      {text}
    </div>
  );
}

export function IssueList({ page }: { page: Page }) {
  const issues = page.issues ?? [];
  if (issues.length === 0) {
    return (
      <Empty
        text={
          page.repository.sourceType === "local"
            ? "Local repositories have no issues."
            : "No issues were synced for this repository."
        }
      />
    );
  }
  return (
    <ul
      aria-label="Issues"
      className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-elevated"
    >
      {issues.map((issue) => (
        <li key={`${issue.number}-${issue.title}`} className="flex flex-wrap items-center gap-2 px-4 py-3">
          <StateBadge state={issue.state} ok={issue.state === "open"} />
          <span className="min-w-0 flex-1 text-sm text-ink">
            {issue.title}
            {issue.number !== null ? <span className="ml-1 text-ink-subtle">#{issue.number}</span> : null}
          </span>
          {issue.labels.length > 0 ? <Tags tags={issue.labels} /> : null}
        </li>
      ))}
    </ul>
  );
}

export function WorkflowList({ page }: { page: Page }) {
  const workflows = page.workflows ?? [];
  if (workflows.length === 0) {
    return (
      <Empty
        text={
          page.repository.sourceType === "local"
            ? "Local repositories have no workflows."
            : "No workflows were synced for this repository."
        }
      />
    );
  }
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-elevated">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-line bg-sunken text-xs text-ink-muted">
          <tr>
            <th className="px-4 py-2 font-medium">Workflow</th>
            <th className="px-4 py-2 font-medium">State</th>
            <th className="px-4 py-2 font-medium">Last run</th>
            <th className="px-4 py-2 font-medium">Date</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {workflows.map((w) => (
            <tr key={`${w.path}-${w.name}`}>
              <td className="px-4 py-2.5">
                <p className="text-ink">{w.name}</p>
                {w.path ? <p className="font-mono text-xs text-ink-subtle">{w.path}</p> : null}
              </td>
              <td className="px-4 py-2.5 text-ink-muted">{w.state}</td>
              <td className="px-4 py-2.5">
                {w.lastRunStatus ? (
                  <StateBadge state={w.lastRunStatus} ok={w.lastRunStatus === "success"} />
                ) : (
                  "—"
                )}
              </td>
              <td className="px-4 py-2.5 text-ink-muted">
                {w.lastRunDate ? <time dateTime={w.lastRunDate}>{formatDate(w.lastRunDate)}</time> : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SearchPanel({ page }: { page: Page }) {
  const search = page.search ?? { q: "", hits: [], filesSearched: 0, truncated: false, error: null };
  const slug = page.repository.slug;
  return (
    <div>
      <Form method="get" role="search" className="mb-5 flex max-w-xl gap-2">
        <input type="hidden" name="branch" value={page.branch} />
        <input type="hidden" name="view" value="search" />
        <label htmlFor="repo-search" className="sr-only">
          Search the files of {page.branch}
        </label>
        <input
          id="repo-search"
          type="search"
          name="q"
          defaultValue={search.q}
          maxLength={200}
          placeholder={`Search the files of ${page.branch}`}
          className="h-9 min-w-0 flex-1 rounded-lg border border-line bg-elevated px-3 text-sm text-ink placeholder:text-ink-subtle focus-visible:outline-2 focus-visible:outline-focus"
        />
        <button type="submit" className={buttonClass("secondary", "sm", "h-9")}>
          Search
        </button>
      </Form>
      {search.error ? <Notice tone="warn">{search.error}</Notice> : null}
      {search.q && !search.error ? (
        <p className="mb-3 text-sm text-ink-muted" role="status">
          {search.hits.length === 0
            ? `No lines contain “${search.q}”.`
            : `${search.hits.length}${search.truncated ? "+" : ""} matching lines in ${new Set(search.hits.map((h) => h.path)).size} files.`}
          {search.truncated ? " Only the first results are shown." : ""}
        </p>
      ) : null}
      {search.hits.length > 0 ? (
        <ul
          aria-label="Search results"
          className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-elevated"
        >
          {search.hits.map((hit) => (
            <li key={`${hit.path}:${hit.line}`}>
              <Link
                to={repositoryHref(slug, { branch: page.branch, path: hit.path }, `L${hit.line}`)}
                className="block px-4 py-2.5 hover:bg-sunken"
              >
                <span className="font-mono text-xs text-accent-text">
                  {hit.path}:{hit.line}
                </span>
                <code className="mt-0.5 block truncate font-mono text-sm text-ink">{hit.text}</code>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
