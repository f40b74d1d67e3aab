/**
 * The analytics charts (recharts; only /admin/analytics imports this file, so the library is in
 * that route's chunk and never in a reader's first load). Colours come from the theme's CSS
 * variables, so they read in light and dark. Every chart is a `role="img"` with a summary for
 * screen readers and has a data table next to it (ChartFigure); charts draw after hydration
 * (they measure the page), the tables are in the server's HTML and work without JavaScript.
 * recharts' own keyboard layer is off: the container is one image with its summary, and the
 * table carries the values.
 */
import type { ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { CHART_COLOURS, chartAxis, chartTooltip, useMounted } from "../../components/charts/chart-theme.ts";

export { CHART_COLOURS };

export interface SeriesSpec {
  key: string;
  name: string;
  colour: string;
  dashed?: boolean;
}

const legend = { wrapperStyle: { fontSize: 12, color: "var(--c-ink-muted)" } };

/** The chart area: role="img" with its summary; empty until hydrated (the table is below). */
function ChartArea({ summary, height, children }: { summary: string; height: number; children: ReactNode }) {
  const mounted = useMounted();
  return (
    <div role="img" aria-label={summary} className="w-full" style={{ height }} data-chart>
      {mounted ? (
        <ResponsiveContainer width="100%" height="100%">
          {children as React.ReactElement}
        </ResponsiveContainer>
      ) : (
        <div className="flex h-full items-center justify-center rounded-lg bg-sunken text-xs text-ink-subtle">
          The chart draws when the page has loaded; its data table is below.
        </div>
      )}
    </div>
  );
}

/** Lines over days (`x` is the label key); dashed series for the previous period. */
export function LinesChart({
  data,
  series,
  summary,
  x = "label",
  height = 240,
}: {
  data: Record<string, string | number | null>[];
  series: SeriesSpec[];
  summary: string;
  x?: string;
  height?: number;
}) {
  return (
    <ChartArea summary={summary} height={height}>
      <LineChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid stroke={CHART_COLOURS.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey={x} {...chartAxis} minTickGap={16} />
        <YAxis allowDecimals={false} {...chartAxis} width={48} />
        <Tooltip {...chartTooltip} />
        <Legend {...legend} />
        {series.map((s) => (
          <Line
            key={s.key}
            type="monotone"
            dataKey={s.key}
            name={s.name}
            stroke={s.colour}
            strokeWidth={s.dashed ? 1.5 : 2}
            strokeDasharray={s.dashed ? "5 4" : undefined}
            strokeOpacity={s.dashed ? 0.7 : 1}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ChartArea>
  );
}

/** Bars over categories or days. */
export function BarsChart({
  data,
  series,
  summary,
  x = "label",
  height = 240,
  layout = "horizontal",
}: {
  data: Record<string, string | number | null>[];
  series: SeriesSpec[];
  summary: string;
  x?: string;
  height?: number;
  /** "vertical" draws horizontal bars (categories down the side). */
  layout?: "horizontal" | "vertical";
}) {
  const vertical = layout === "vertical";
  return (
    <ChartArea summary={summary} height={height}>
      <BarChart
        data={data}
        layout={layout}
        margin={{ top: 8, right: 8, bottom: 0, left: vertical ? 8 : -16 }}
      >
        <CartesianGrid
          stroke={CHART_COLOURS.grid}
          strokeDasharray="3 3"
          vertical={vertical}
          horizontal={!vertical}
        />
        {vertical ? (
          <>
            <XAxis type="number" allowDecimals={false} {...chartAxis} />
            <YAxis type="category" dataKey={x} {...chartAxis} width={80} />
          </>
        ) : (
          <>
            <XAxis dataKey={x} {...chartAxis} minTickGap={16} />
            <YAxis allowDecimals={false} {...chartAxis} width={48} />
          </>
        )}
        <Tooltip {...chartTooltip} cursor={{ fill: "var(--c-sunken)" }} />
        {series.length > 1 ? <Legend {...legend} /> : null}
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.name}
            fill={s.colour}
            isAnimationActive={false}
            radius={2}
          />
        ))}
      </BarChart>
    </ChartArea>
  );
}
