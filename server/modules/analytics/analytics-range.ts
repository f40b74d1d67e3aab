/**
 * The date range of the analytics (pure, shared by the REST API and the screens): whole UTC days,
 * `from` and `to` inclusive, and the previous period of equal length just before it.
 *
 * Query parameters: `days` (a preset: 1–366 days ending today), or `from`/`to` (YYYY-MM-DD; `to`
 * defaults to today). Nothing given: the last 30 days. A bad value is a BadInputError naming the
 * parameter: not a real date, `to` before `from`, `to` after today, longer than 366 days, or
 * `days` together with `from`/`to`.
 */
import { BadInputError } from "../../errors.ts";

export const ANALYTICS_MAX_DAYS = 366;
export const ANALYTICS_DEFAULT_DAYS = 30;
/** The presets the screens offer. */
export const ANALYTICS_PRESETS = [7, 30, 90] as const;
/** The overview's periods. */
export const OVERVIEW_PERIODS = ["7d", "30d", "90d"] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface AnalyticsRange {
  /** First day (YYYY-MM-DD), inclusive. */
  from: string;
  /** Last day (YYYY-MM-DD), inclusive. */
  to: string;
  days: number;
  /** The preset it came from (days=), else null (a custom from/to). */
  preset: number | null;
  /** The period of equal length just before. */
  previous: { from: string; to: string };
}

export type RangeInput = URLSearchParams | Record<string, string | string[] | undefined>;

function bad(field: string, problem: string): BadInputError {
  return new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
}

/** The UTC day of an epoch (YYYY-MM-DD). */
export const dayOfEpoch = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Epoch ms of a day's start (UTC). */
export const epochOfDay = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** `day` moved by `n` days. */
export const addDays = (day: string, n: number) => dayOfEpoch(epochOfDay(day) + n * DAY_MS);

/** Every day from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = epochOfDay(from); t <= epochOfDay(to); t += DAY_MS) out.push(dayOfEpoch(t));
  return out;
}

function one(input: RangeInput, key: string): string | null {
  const raw = input instanceof URLSearchParams ? input.getAll(key) : [input[key] ?? []].flat();
  const set = raw.map((v) => v.trim()).filter((v) => v !== "");
  if (set.length > 1) throw bad(key, "give it once");
  return set[0] ?? null;
}

function realDay(field: string, value: string): string {
  if (!DATE_ONLY.test(value)) throw bad(field, "expected a date as YYYY-MM-DD");
  const t = epochOfDay(value);
  if (Number.isNaN(t) || dayOfEpoch(t) !== value) throw bad(field, "not a real date");
  if (value < "2000-01-01") throw bad(field, "must be in 2000 or later");
  return value;
}

function make(from: string, to: string, preset: number | null): AnalyticsRange {
  const days = Math.round((epochOfDay(to) - epochOfDay(from)) / DAY_MS) + 1;
  return { from, to, days, preset, previous: { from: addDays(from, -days), to: addDays(from, -1) } };
}

/** A preset range: `days` days ending on `today`. */
export function lastDays(days: number, today: string): AnalyticsRange {
  return make(addDays(today, -(days - 1)), today, days);
}

/**
 * Parses `days` or `from`/`to` (see the file comment); `allowed` are the other parameters the
 * caller accepts (anything else is refused, naming it).
 */
export function parseAnalyticsRange(
  input: RangeInput,
  now: number,
  allowed: readonly string[] = [],
): AnalyticsRange {
  const keys = input instanceof URLSearchParams ? [...input.keys()] : Object.keys(input);
  const known = new Set(["days", "from", "to", ...allowed]);
  for (const key of keys) if (!known.has(key)) throw bad(key, "is not a parameter of the analytics");
  const today = dayOfEpoch(now);
  const daysText = one(input, "days");
  const fromText = one(input, "from");
  const toText = one(input, "to");
  if (daysText !== null) {
    if (fromText !== null || toText !== null) throw bad("days", "give either days or from and to");
    if (!/^\d{1,3}$/.test(daysText) || Number(daysText) < 1 || Number(daysText) > ANALYTICS_MAX_DAYS)
      throw bad("days", `a whole number from 1 to ${ANALYTICS_MAX_DAYS}`);
    return lastDays(Number(daysText), today);
  }
  if (fromText === null && toText === null) return lastDays(ANALYTICS_DEFAULT_DAYS, today);
  if (fromText === null) throw bad("from", "required with to");
  const from = realDay("from", fromText);
  const to = toText === null ? today : realDay("to", toText);
  if (to > today) throw bad("to", "must not be after today");
  if (from > to) throw bad("to", "must not be before from");
  const range = make(from, to, null);
  if (range.days > ANALYTICS_MAX_DAYS) throw bad("from", `the range is at most ${ANALYTICS_MAX_DAYS} days`);
  return range;
}

/** The overview's `period` (7d, 30d or 90d; default 30d) as a range ending today. */
export function parseOverviewPeriod(
  input: RangeInput,
  now: number,
): { period: OverviewPeriod; range: AnalyticsRange } {
  const keys = input instanceof URLSearchParams ? [...input.keys()] : Object.keys(input);
  for (const key of keys) if (key !== "period") throw bad(key, "is not a parameter of the overview");
  const text = one(input, "period") ?? "30d";
  if (!(OVERVIEW_PERIODS as readonly string[]).includes(text)) throw bad("period", "7d, 30d or 90d");
  const period = text as OverviewPeriod;
  return { period, range: lastDays(Number.parseInt(period, 10), dayOfEpoch(now)) };
}

/** The range as the query string of a link (a preset as days=, else from and to). */
export function rangeQuery(range: Pick<AnalyticsRange, "from" | "to" | "preset">): string {
  return range.preset !== null ? `days=${range.preset}` : `from=${range.from}&to=${range.to}`;
}
