/** Small formatters of the operations screens (bytes, milliseconds, ages), the same on server and browser. */

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** 42 → "42 s", 3700 → "1 h 1 min", 200000 → "2 d 7 h". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

/** Milliseconds as a period: 1000 → "every 1 s", 300000 → "every 5 min". */
export function formatEvery(ms: number | null): string {
  if (ms === null) return "once, at start-up";
  if (ms < 1000) return `every ${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `every ${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  const min = s / 60;
  return `every ${Number.isInteger(min) ? min : min.toFixed(1)} min`;
}

/** An ISO time relative to `nowIso`: "3 s ago", "in 2 s". */
export function formatRelative(iso: string | null, nowIso: string): string {
  if (!iso) return "—";
  const diff = (Date.parse(iso) - Date.parse(nowIso)) / 1000;
  if (!Number.isFinite(diff)) return "—";
  if (Math.abs(diff) < 1) return "now";
  return diff < 0 ? `${formatSeconds(-diff)} ago` : `in ${formatSeconds(diff)}`;
}

export function formatPercent(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}
