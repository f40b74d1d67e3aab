/**
 * The `/content` screen's URL: which filters, sort and page it shows. Every control on the screen
 * is a link or a GET form built from these, so filtering and paging work without JavaScript, and
 * a URL can be shared. `?search=` (the sidebar's search for content managers) is read as `q`.
 */
import type { StudioSort } from "../../../../server/services.ts";

export const FILTER_NAMES = ["q", "state", "section", "category", "tier", "type", "author"] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export type SortDirection = "asc" | "desc";

/** The screen's filters ("" = not set) and order. */
export type StudioFilters = Record<FilterName, string> & { sort: StudioSort; dir: SortDirection };

export const DEFAULT_ORDER = { sort: "updated", dir: "desc" } as const satisfies {
  sort: StudioSort;
  dir: SortDirection;
};

/** The "Sort" choices: one select, each a sort and a direction (`order=updated-desc`). */
export const ORDER_CHOICES: readonly { sort: StudioSort; dir: SortDirection; label: string }[] = [
  { sort: "updated", dir: "desc", label: "Recently updated" },
  { sort: "updated", dir: "asc", label: "Least recently updated" },
  { sort: "published", dir: "desc", label: "Recently published" },
  { sort: "published", dir: "asc", label: "First published" },
  { sort: "created", dir: "desc", label: "Newest" },
  { sort: "created", dir: "asc", label: "Oldest" },
  { sort: "title", dir: "asc", label: "Title A–Z" },
  { sort: "title", dir: "desc", label: "Title Z–A" },
];

export const orderValue = (o: { sort: string; dir: string }) => `${o.sort}-${o.dir}`;

function readOrder(params: URLSearchParams): { sort: StudioSort; dir: SortDirection } {
  const [sort, dir] = (params.get("order") ?? "").split("-");
  const fromOrder = ORDER_CHOICES.find((o) => o.sort === sort && o.dir === dir);
  if (fromOrder) return { sort: fromOrder.sort, dir: fromOrder.dir };
  const explicit = ORDER_CHOICES.find(
    (o) => o.sort === params.get("sort") && o.dir === (params.get("dir") ?? DEFAULT_ORDER.dir),
  );
  return explicit ? { sort: explicit.sort, dir: explicit.dir } : { ...DEFAULT_ORDER };
}

/** The filters, order and cursor a `/content` URL asks for. */
export function readListUrl(url: URL): { filters: StudioFilters; cursor: string | null } {
  const params = url.searchParams;
  const filters = { ...readOrder(params) } as StudioFilters;
  for (const name of FILTER_NAMES) filters[name] = (params.get(name) ?? "").trim();
  if (!filters.q) filters.q = (params.get("search") ?? "").trim();
  return { filters, cursor: params.get("cursor") || null };
}

/** The list operation's parameters for these filters (only those that are set). */
export function listParams(filters: StudioFilters, cursor: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FILTER_NAMES) if (filters[name]) out[name] = filters[name];
  out.sort = filters.sort;
  out.dir = filters.dir;
  if (cursor) out.cursor = cursor;
  return out;
}

/**
 * Where the list lives: `/content` (the studio), or another screen that shows the same list
 * (`/admin/content?tab=all`): its path and the parameters that select the list there.
 */
export interface ListBase {
  path: string;
  params?: Readonly<Record<string, string>>;
}
export const STUDIO_LIST_BASE: ListBase = { path: "/content" };

/** The unfiltered list at `base`. */
export function baseHref(base: ListBase = STUDIO_LIST_BASE): string {
  const query = new URLSearchParams(base.params ?? {}).toString();
  return query ? `${base.path}?${query}` : base.path;
}

/** A `/content` link: these filters with `change` applied; a change of filters starts at page one. */
export function listHref(
  filters: StudioFilters,
  change: Partial<StudioFilters> & { cursor?: string | null } = {},
  base: ListBase = STUDIO_LIST_BASE,
): string {
  const next = { ...filters, ...change };
  const params = new URLSearchParams(base.params ?? {});
  for (const name of FILTER_NAMES) if (next[name]) params.set(name, next[name]);
  if (next.sort !== DEFAULT_ORDER.sort || next.dir !== DEFAULT_ORDER.dir) {
    params.set("sort", next.sort);
    params.set("dir", next.dir);
  }
  if (change.cursor) params.set("cursor", change.cursor);
  const query = params.toString();
  return query ? `${base.path}?${query}` : base.path;
}

/** Whether any filter (other than the state tab) narrows the list. */
export const isFiltered = (filters: StudioFilters) =>
  FILTER_NAMES.some((name) => name !== "state" && filters[name] !== "");

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/**
 * "5 minutes ago", "yesterday", "in 2 days": `iso` relative to `now` (the loader's clock, so the
 * server and the browser render the same words).
 */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (!Number.isFinite(seconds)) return "";
  if (Math.abs(seconds) < 60) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(Math.trunc(seconds / 60), "minute");
}
