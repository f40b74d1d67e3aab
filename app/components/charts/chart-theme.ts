/**
 * What the recharts charts of /admin/analytics and the reading reports share: the theme's colours
 * (CSS variables defined for light and dark in app.css), the axis and tooltip styles, and
 * `useMounted` (charts measure the page, so they draw only after hydration). No recharts import
 * here: the library stays in the chunks of the routes that draw charts.
 */
import { useEffect, useState } from "react";

/** Theme colours (CSS variables defined for light and dark in app.css). */
export const CHART_COLOURS = {
  primary: "var(--c-accent-text)",
  secondary: "var(--c-ok-text)",
  warn: "var(--c-warn-text)",
  danger: "var(--c-danger-text)",
  muted: "var(--c-ink-subtle)",
  grid: "var(--c-line)",
  axis: "var(--c-ink-muted)",
} as const;

/** Props for recharts' XAxis / YAxis. */
export const chartAxis = { stroke: CHART_COLOURS.grid, tick: { fill: CHART_COLOURS.axis, fontSize: 12 } };

/** Props for recharts' Tooltip. */
export const chartTooltip = {
  contentStyle: {
    background: "var(--c-elevated)",
    border: "1px solid var(--c-line)",
    borderRadius: 8,
    color: "var(--c-ink)",
    fontSize: 12,
  },
  labelStyle: { color: "var(--c-ink)" },
  itemStyle: { color: "var(--c-ink)" },
};

/** False on the server and in the first client render, true once hydrated. */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
