/**
 * Loaders of the repository browser (/resources and /resources/{slug}). They call the repositories
 * service with the request's actor (the service applies the access rule) and return plain data:
 * highlighted HTML is made here, on the server, so the client bundle carries no highlighter.
 * Unknown or malformed repository, branch or path → 404; an unreachable source → cached data or a
 * notice, never a 500.
 */
import { data, type RouterContextProvider, redirect } from "react-router";
import { highlightCode, plainCodeHtml } from "../../../server/modules/content/highlight-code.ts";
import { renderMarkdown } from "../../../server/modules/content/render-markdown.ts";
import type { GitHubRepository } from "../../../server/modules/repositories/repositories.service.ts";
import type { ContentSummary } from "../../../server/services.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";
import {
  type FileDisplay,
  fileDisplay,
  parentDir,
  parseView,
  type RepositoryView,
  repositoryHref,
  resolveReadmeUrl,
} from "./view-model.ts";

interface LoaderBase {
  context: Readonly<RouterContextProvider>;
  request: Request;
}

export interface RepositoryCardData {
  slug: string;
  displayName: string;
  description: string | null;
  language: string | null;
  stars: number;
  forks: number;
  tags: string[];
  lastSyncAt: string | null;
  sourceType: "github" | "local";
}

export interface RepositoryGroup {
  slug: string | null;
  name: string;
  description: string | null;
  repositories: RepositoryCardData[];
}

export interface RepositoryListData {
  filters: { category: string | null; language: string | null; q: string };
  categories: { slug: string; name: string; count: number }[];
  languages: { name: string; count: number }[];
  groups: RepositoryGroup[];
  total: number;
  shown: number;
  guides: ContentSummary[];
}

const card = (r: GitHubRepository): RepositoryCardData => ({
  slug: r.slug,
  displayName: r.displayName || r.name || r.slug,
  description: r.description,
  language: r.language,
  stars: r.stargazersCount,
  forks: r.forksCount,
  tags: r.tags,
  lastSyncAt: r.lastSyncAt,
  sourceType: r.sourceType,
});

const param = (url: URL, name: string, max = 100) => url.searchParams.get(name)?.trim().slice(0, max) || null;

/** /resources: visible repositories grouped by visible category (sortOrder), filtered and searched. */
export async function loadRepositoryList({ context, request }: LoaderBase): Promise<RepositoryListData> {
  const services = context.get(servicesContext);
  if (services.config.featureFlags.repositoryBrowser === false) notFound();
  const actor = context.get(actorContext);
  const url = new URL(request.url);
  const filters = {
    category: param(url, "category"),
    language: param(url, "language"),
    q: param(url, "q", 200) ?? "",
  };

  const all: GitHubRepository[] = [];
  let nextToken: string | null = null;
  do {
    const page = await services.repositories.listGitHubRepositories(actor, {
      limit: 100,
      nextToken: nextToken ?? undefined,
    });
    all.push(...page.items);
    nextToken = page.nextToken;
  } while (nextToken && all.length < 1000);
  const categoryRows = (await services.repositories.listRepositoryCategories(actor, { limit: 100 })).items;
  const categories = [...categoryRows].sort(
    (a, b) => a.sortOrder - b.sortOrder || (a.name ?? a.slug).localeCompare(b.name ?? b.slug),
  );
  const known = new Set(categories.map((c) => c.slug));
  // A repository in a hidden (or deleted) category is listed under "Other" only when it has no category.
  const listed = all.filter((r) => r.category === null || known.has(r.category));
  const bySort = (a: GitHubRepository, b: GitHubRepository) =>
    a.sortOrder - b.sortOrder || card(a).displayName.localeCompare(card(b).displayName);

  const languageCounts = new Map<string, number>();
  for (const r of listed)
    if (r.language) languageCounts.set(r.language, (languageCounts.get(r.language) ?? 0) + 1);

  const needle = filters.q.toLowerCase();
  const matches = listed.filter(
    (r) =>
      (!filters.category || r.category === filters.category) &&
      (!filters.language || r.language?.toLowerCase() === filters.language.toLowerCase()) &&
      (!needle || [r.slug, r.name, r.displayName, r.fullName].some((v) => v?.toLowerCase().includes(needle))),
  );

  const groups: RepositoryGroup[] = categories
    .map((c) => ({
      slug: c.slug,
      name: c.name ?? c.slug,
      description: c.description,
      repositories: matches
        .filter((r) => r.category === c.slug)
        .sort(bySort)
        .map(card),
    }))
    .filter((g) => g.repositories.length > 0);
  const other = matches
    .filter((r) => r.category === null)
    .sort(bySort)
    .map(card);
  if (other.length > 0)
    groups.push({ slug: null, name: "Other repositories", description: null, repositories: other });

  const section = services.content.sections().find((s) => s.slug === "resources");
  const guides = section
    ? (await services.content.list(actor, { section: section.slug, limit: 6, publishedOnly: true })).items
    : [];

  return {
    filters,
    categories: categories.map((c) => ({
      slug: c.slug,
      name: c.name ?? c.slug,
      count: listed.filter((r) => r.category === c.slug).length,
    })),
    languages: [...languageCounts]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    groups,
    total: listed.length,
    shown: matches.length,
    guides,
  };
}

export interface TreeEntryData {
  name: string;
  path: string;
  type: "file" | "dir";
  size: number | null;
}

export interface FileData {
  path: string;
  name: string;
  size: number;
  mimeType: string;
  language: string | null;
  display: FileDisplay;
  /** The code viewer's HTML (highlighted or plain lines); null when the file is not shown as text. */
  html: string | null;
  lineCount: number;
}

export interface RepositoryPageData {
  repository: RepositoryCardData & {
    htmlUrl: string | null;
    defaultBranch: string | null;
    category: { slug: string; name: string } | null;
    lastSyncError: string | null;
  };
  branches: {
    name: string;
    isDefault: boolean;
    lastCommitMessage: string | null;
    lastCommitDate: string | null;
  }[];
  branch: string;
  view: RepositoryView;
  /** Some of what is shown came from an expired cache: the source could not be reached. */
  stale: boolean;
  /** The source could not be reached and nothing was cached for this view. */
  unavailable: boolean;
  /** The folder shown in the tree ("" = root) and its entries. */
  tree: { dir: string; entries: TreeEntryData[] } | null;
  /** The path of the page: a folder or a file ("" = root). */
  path: string;
  file: FileData | null;
  readme: { path: string; html: string } | null;
  commits: { sha: string; message: string; author: string; date: string }[] | null;
  issues: { number: number | null; title: string | null; state: string; labels: string[] }[] | null;
  workflows:
    | {
        name: string | null;
        path: string | null;
        state: string;
        lastRunStatus: string | null;
        lastRunDate: string | null;
      }[]
    | null;
  search: {
    q: string;
    hits: { path: string; line: number; text: string }[];
    filesSearched: number;
    truncated: boolean;
    error: string | null;
  } | null;
}

const codeOf = (error: unknown) => (error as { code?: unknown })?.code;
const isMissing = (error: unknown) => codeOf(error) === "NOT_FOUND" || codeOf(error) === "BAD_USER_INPUT";
const isUnavailable = (error: unknown) =>
  codeOf(error) === "SOURCE_UNAVAILABLE" || codeOf(error) === "RATE_LIMITED";

function notFound(): never {
  throw data(null, { status: 404 });
}

async function renderReadme(
  readme: { path: string; text: string },
  slug: string,
  branch: string,
): Promise<{ path: string; html: string }> {
  const baseDir = parentDir(readme.path);
  const rendered = await renderMarkdown(readme.text, {
    resolveUrl: (url, kind) => resolveReadmeUrl(url, kind, { slug, branch, baseDir }),
  });
  return { path: readme.path, html: rendered.html };
}

/** /resources/{slug}?branch=&path=&view=&q= */
export async function loadRepositoryPage(
  { context, request }: LoaderBase,
  slug: string,
): Promise<RepositoryPageData> {
  const services = context.get(servicesContext);
  if (services.config.featureFlags.repositoryBrowser === false) notFound();
  const actor = context.get(actorContext);
  const repositories = services.repositories;
  const url = new URL(request.url);
  const view = parseView(url.searchParams.get("view"));
  const path = (url.searchParams.get("path") ?? "").replace(/^\/+|\/+$/g, "");
  const requestedBranch = url.searchParams.get("branch") || undefined;
  const switching = url.searchParams.get("switch") === "1";

  let overview: Awaited<ReturnType<typeof repositories.getRepositoryOverview>>;
  try {
    overview = await repositories.getRepositoryOverview(actor, slug);
  } catch (error) {
    if (isMissing(error)) notFound();
    throw error;
  }
  const r = overview.repository;
  const branch = requestedBranch ?? r.defaultBranch ?? "";
  if (!branch) notFound();

  const out: RepositoryPageData = {
    repository: {
      ...card(r),
      htmlUrl: r.sourceType === "github" ? r.htmlUrl : null,
      defaultBranch: r.defaultBranch,
      category: overview.category
        ? { slug: overview.category.slug, name: overview.category.name ?? overview.category.slug }
        : null,
      lastSyncError: r.lastSyncError,
    },
    branches: overview.branches.map((b) => ({
      name: b.name,
      isDefault: b.isDefault,
      lastCommitMessage: b.lastCommitMessage,
      lastCommitDate: b.lastCommitDate,
    })),
    branch,
    view,
    stale: false,
    unavailable: false,
    tree: null,
    path,
    file: null,
    readme: null,
    commits: null,
    issues: null,
    workflows: null,
    search: null,
  };

  try {
    if (view === "files") await loadFiles(out, path);
    else if (view === "commits") {
      const result = await repositories.listRepositoryCommits(actor, slug, { branch, limit: 30 });
      out.stale = result.stale;
      out.commits = result.commits;
    } else if (view === "issues" || view === "workflows") {
      // Branch-independent, but an unknown branch in the URL is still a 404.
      if (requestedBranch && !overview.branches.some((b) => b.name === requestedBranch)) {
        await repositories.listRepositoryTree(actor, slug, { branch });
      }
      const filter = { repositoryId: { eq: r.id } };
      if (view === "issues") {
        const issues = await repositories.listRepositoryIssues(actor, { filter, limit: 100 });
        out.issues = issues.items
          .map((i) => ({ number: i.number, title: i.title, state: i.state, labels: i.labels }))
          .sort((a, b) => (b.number ?? 0) - (a.number ?? 0));
      } else {
        const workflows = await repositories.listRepositoryWorkflows(actor, { filter, limit: 100 });
        out.workflows = workflows.items.map((w) => ({
          name: w.name,
          path: w.path,
          state: w.state,
          lastRunStatus: w.lastRunStatus,
          lastRunDate: w.lastRunDate,
        }));
      }
    } else if (view === "search") {
      const q = (url.searchParams.get("q") ?? "").trim();
      out.search = { q, hits: [], filesSearched: 0, truncated: false, error: null };
      if (q.length > 200) out.search.error = "Search for at most 200 characters.";
      else if (q) {
        const result = await repositories.searchRepository(actor, slug, { branch, query: q });
        out.stale = result.stale;
        out.search = {
          q,
          hits: result.hits,
          filesSearched: result.filesSearched,
          truncated: result.truncated,
          error: null,
        };
      } else {
        await repositories.listRepositoryTree(actor, slug, { branch }); // the branch must exist
      }
    }
  } catch (error) {
    if (isMissing(error)) {
      if (switching)
        throw redirect(`/resources/${encodeURIComponent(slug)}?branch=${encodeURIComponent(branch)}`);
      notFound();
    }
    if (!isUnavailable(error)) throw error;
    out.unavailable = true;
  }
  // The branch switcher's form adds `switch=1`: the address to share is the clean one.
  if (switching) {
    const q = view === "search" ? url.searchParams.get("q") : null;
    throw redirect(repositoryHref(slug, { branch, path: view === "files" ? path : null, view, q }));
  }
  return out;

  async function loadFiles(page: RepositoryPageData, target: string) {
    const entries = (listing: { entries: TreeEntryData[] }) =>
      listing.entries.map((e) => ({ name: e.name, path: e.path, type: e.type, size: e.size }));
    if (!target) {
      const root = await repositories.listRepositoryTree(actor, slug, { branch });
      page.stale ||= root.stale;
      page.tree = { dir: "", entries: entries(root) };
      const readme =
        branch === r.defaultBranch && overview.readme
          ? overview.readme
          : await repositories.readRepositoryReadme(actor, slug, { branch }).catch((error: unknown) => {
              if (isUnavailable(error)) return null;
              throw error;
            });
      if (readme) page.readme = await renderReadme(readme, slug, branch);
      return;
    }
    const parent = await repositories.listRepositoryTree(actor, slug, { branch, dir: parentDir(target) });
    page.stale ||= parent.stale;
    const entry = parent.entries.find((e) => e.path === target);
    if (!entry) throw Object.assign(new Error("path not found"), { code: "NOT_FOUND" });
    if (entry.type === "dir") {
      const folder = await repositories.listRepositoryTree(actor, slug, { branch, dir: target });
      page.stale ||= folder.stale;
      page.tree = { dir: target, entries: entries(folder) };
      return;
    }
    page.tree = { dir: parent.dir, entries: entries(parent) };
    const file = await repositories.readRepositoryFile(actor, slug, { branch, path: target });
    page.stale ||= file.stale;
    const display = fileDisplay(file);
    let code: { html: string; lineCount: number } | null = null;
    if (file.text !== null && display.kind === "highlighted")
      code = await highlightCode(file.text, file.language);
    else if (file.text !== null && display.kind === "plain") code = plainCodeHtml(file.text);
    page.file = {
      path: file.path,
      name: file.name,
      size: file.size,
      mimeType: file.mimeType,
      language: file.language,
      display,
      html: code?.html ?? null,
      lineCount: code?.lineCount ?? 0,
    };
  }
}
