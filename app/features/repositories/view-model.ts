/**
 * Pure helpers of the repository browser (shared by the loaders and the components): URLs of the
 * /resources/{slug} page and the raw endpoint, line ranges (#L10-L20), breadcrumbs, how a file is
 * shown, sizes and language colours.
 */

export type RepositoryView = "files" | "commits" | "issues" | "workflows" | "search";
export const REPOSITORY_VIEWS: readonly RepositoryView[] = [
  "files",
  "commits",
  "issues",
  "workflows",
  "search",
];

export function parseView(value: string | null): RepositoryView {
  return value && (REPOSITORY_VIEWS as readonly string[]).includes(value)
    ? (value as RepositoryView)
    : "files";
}

export interface RepositoryLocation {
  branch?: string | null;
  path?: string | null;
  view?: RepositoryView | null;
  q?: string | null;
}

/** `/resources/{slug}?branch=&path=&view=&q=` (empty parts left out; `hash` like "L10"). */
export function repositoryHref(slug: string, location: RepositoryLocation = {}, hash?: string): string {
  const params = new URLSearchParams();
  if (location.branch) params.set("branch", location.branch);
  if (location.path) params.set("path", location.path);
  if (location.view && location.view !== "files") params.set("view", location.view);
  if (location.q) params.set("q", location.q);
  const query = params.toString();
  return `/resources/${encodeURIComponent(slug)}${query ? `?${query}` : ""}${hash ? `#${hash}` : ""}`;
}

/** The raw endpoint of a file; `download` makes it an attachment. */
export function rawHref(slug: string, branch: string, path: string, download = false): string {
  const params = new URLSearchParams({ branch, path });
  if (download) params.set("download", "1");
  return `/api/repositories/${encodeURIComponent(slug)}/raw?${params.toString()}`;
}

export interface LineRange {
  start: number;
  end: number;
}

/** "#L10" → 10..10, "#L20-L10" → 10..20; anything else null. */
export function parseLineRange(hash: string | null | undefined): LineRange | null {
  const match = /^#?L(\d{1,7})(?:-L?(\d{1,7}))?$/.exec(hash ?? "");
  if (!match) return null;
  const a = Number(match[1]);
  const b = match[2] ? Number(match[2]) : a;
  if (a < 1 || b < 1) return null;
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/** 10..10 → "#L10", 10..20 → "#L10-L20". */
export function formatLineRange(range: LineRange): string {
  return range.start === range.end ? `#L${range.start}` : `#L${range.start}-L${range.end}`;
}

/** A click on line `line`: a new single line, or (shift) the range from the current anchor to it. */
export function selectLine(current: LineRange | null, line: number, extend: boolean): LineRange {
  if (!extend || !current) return { start: line, end: line };
  const anchor = current.start;
  return { start: Math.min(anchor, line), end: Math.max(anchor, line) };
}

export interface Crumb {
  name: string;
  /** The folder's or file's path from the root ("" = root). */
  path: string;
}

/** "src/lib/a.ts" → src, src/lib, src/lib/a.ts (the root is not included). */
export function breadcrumbs(path: string): Crumb[] {
  const parts = path.split("/").filter(Boolean);
  return parts.map((name, i) => ({ name, path: parts.slice(0, i + 1).join("/") }));
}

/** The folder a path lies in ("" for a root entry). */
export function parentDir(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

export type FileDisplay =
  | { kind: "download-only" }
  | { kind: "image" }
  | { kind: "binary" }
  | { kind: "plain"; reason: "too-large" | "no-language" }
  | { kind: "highlighted" };

const INLINE_IMAGES = /^image\/(png|jpeg|gif|webp|x-icon|svg\+xml)\b/i;

/** How the viewer shows a file (issue 6 limits: 1 MiB highlighted, 8 MiB viewable, images inline). */
export function fileDisplay(file: {
  isBinary: boolean;
  mimeType: string;
  language: string | null;
  tooLargeToHighlight: boolean;
  downloadOnly: boolean;
}): FileDisplay {
  if (file.downloadOnly) return { kind: "download-only" };
  if (INLINE_IMAGES.test(file.mimeType)) return { kind: "image" };
  if (file.isBinary) return { kind: "binary" };
  if (file.tooLargeToHighlight) return { kind: "plain", reason: "too-large" };
  if (!file.language) return { kind: "plain", reason: "no-language" };
  return { kind: "highlighted" };
}

/** 512 → "512 B", 2048 → "2.0 KB", 3 MiB → "3.0 MB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A relative link or image of a README (in folder `baseDir`) resolved inside the repository:
 * links open the file on the page, images load from the raw endpoint. "../" cannot leave the root.
 */
export function resolveReadmeUrl(
  url: string,
  kind: "link" | "image",
  context: { slug: string; branch: string; baseDir: string },
): string {
  let resolved: URL;
  try {
    const base = `https://repo.invalid/${context.baseDir ? `${context.baseDir}/` : ""}`;
    resolved = new URL(url, base);
  } catch {
    return "#";
  }
  let path: string;
  try {
    path = decodeURIComponent(resolved.pathname).replace(/^\/+|\/+$/g, "");
  } catch {
    return "#";
  }
  if (kind === "image") return rawHref(context.slug, context.branch, path);
  const hash = resolved.hash.replace(/^#/, "");
  return repositoryHref(context.slug, { branch: context.branch, path }, hash || undefined);
}

/** GitHub's linguist colours of common languages (others get a neutral dot). */
const LANGUAGE_COLORS: Record<string, string> = {
  typescript: "#3178c6",
  javascript: "#f1e05a",
  python: "#3572a5",
  markdown: "#083fa1",
  go: "#00add8",
  rust: "#dea584",
  java: "#b07219",
  ruby: "#701516",
  shell: "#89e051",
  html: "#e34c26",
  css: "#663399",
  csv: "#237346",
  json: "#292929",
  "jupyter notebook": "#da5b0b",
};

export function languageColor(language: string | null | undefined): string {
  return (language && LANGUAGE_COLORS[language.toLowerCase()]) || "#8b949e";
}
