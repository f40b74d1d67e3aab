/**
 * The analytics export (`GET /api/admin/analytics/export?format=csv`): one row per day of the
 * range, with a header row; RFC 4180 quoting, CRLF line ends, and text cells that start with
 * = + - @ (or a tab / carriage return) prefixed with ' so a spreadsheet never runs them.
 */
import type { DayFigures } from "./analytics.service.ts";

export const ANALYTICS_CSV_COLUMNS = [
  ["day", "day"],
  ["views", "views"],
  ["unique_readers", "readers"],
  ["sign_ups", "signUps"],
  ["upgrades", "upgrades"],
  ["downgrades", "downgrades"],
  ["conversions", "conversions"],
  ["churn", "churn"],
  ["course_completions", "completions"],
  ["content_published", "published"],
  ["searches", "searches"],
  ["zero_result_searches", "zeroResultSearches"],
] as const satisfies readonly (readonly [string, keyof DayFigures])[];

/** One CSV cell (see the file comment). */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows of cells as CSV text. */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

/** The daily series as CSV: the header row, then one row per day. */
export function analyticsCsv(series: readonly DayFigures[]): string {
  return toCsv([
    ANALYTICS_CSV_COLUMNS.map(([header]) => header),
    ...series.map((day) => ANALYTICS_CSV_COLUMNS.map(([, key]) => day[key])),
  ]);
}
