/**
 * The reports' charts (recharts, only the reports route imports this file). Theme colours from CSS
 * variables (light and dark). Each chart is one `role="img"` with a summary; a "Show as table"
 * toggle shows the same values as a table (also without JavaScript: the chart draws after
 * hydration, the table is in the server's HTML until then).
 */
import { type ReactNode, useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { CHART_COLOURS, chartAxis, chartTooltip, useMounted } from "../../components/charts/chart-theme.ts";

export interface Column {
  key: string;
  label: string;
}

/** A chart with its title, summary and a table toggle. */
export function ChartCard({
  title,
  summary,
  rows,
  columns,
  kind,
  x,
  series,
  badge,
}: {
  title: string;
  summary: string;
  rows: Record<string, string | number>[];
  columns: Column[];
  kind: "line" | "bar" | "hbar";
  x: string;
  series: { key: string; name: string }[];
  badge?: ReactNode;
}) {
  const mounted = useMounted();
  const [table, setTable] = useState(false);
  const showTable = table || !mounted;
  const height = kind === "hbar" ? Math.max(160, rows.length * 36 + 40) : 220;
  return (
    <figure className="rounded-xl border border-line bg-elevated p-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <figcaption className="flex items-center gap-2 text-sm font-semibold text-ink">
          {title}
          {badge}
        </figcaption>
        {mounted && (
          <button
            type="button"
            className="text-xs font-medium text-accent-text hover:underline"
            aria-pressed={table}
            onClick={() => setTable((t) => !t)}
          >
            {table ? "Show as chart" : "Show as table"}
          </button>
        )}
      </div>
      <p className="sr-only">{summary}</p>
      {showTable ? (
        <div className="max-h-72 overflow-auto">
          <table className="w-full text-left text-xs">
            <thead className="sticky top-0 bg-elevated text-ink-subtle">
              <tr>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className="py-1 pr-3 font-medium">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line text-ink">
              {rows.map((r) => (
                <tr key={String(r[x])}>
                  {columns.map((c) => (
                    <td key={c.key} className="py-1 pr-3 tabular-nums">
                      {r[c.key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div role="img" aria-label={summary} style={{ height }} className="w-full">
          <ResponsiveContainer width="100%" height="100%">
            {kind === "line" ? (
              <LineChart
                accessibilityLayer={false}
                data={rows}
                margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
              >
                <CartesianGrid stroke={CHART_COLOURS.grid} strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey={x} {...chartAxis} minTickGap={16} />
                <YAxis allowDecimals {...chartAxis} width={48} />
                <Tooltip {...chartTooltip} />
                {series.map((s, i) => (
                  <Line
                    key={s.key}
                    type="monotone"
                    dataKey={s.key}
                    name={s.name}
                    stroke={i === 0 ? CHART_COLOURS.primary : CHART_COLOURS.secondary}
                    strokeWidth={2}
                    dot={false}
                    isAnimationActive={false}
                  />
                ))}
              </LineChart>
            ) : (
              <BarChart
                accessibilityLayer={false}
                data={rows}
                layout={kind === "hbar" ? "vertical" : "horizontal"}
                margin={{ top: 8, right: 8, bottom: 0, left: kind === "hbar" ? 8 : -16 }}
              >
                <CartesianGrid
                  stroke={CHART_COLOURS.grid}
                  strokeDasharray="3 3"
                  vertical={kind === "hbar"}
                  horizontal={kind !== "hbar"}
                />
                {kind === "hbar" ? (
                  <>
                    <XAxis type="number" {...chartAxis} allowDecimals />
                    <YAxis type="category" dataKey={x} {...chartAxis} width={120} />
                  </>
                ) : (
                  <>
                    <XAxis dataKey={x} {...chartAxis} minTickGap={16} />
                    <YAxis allowDecimals={false} {...chartAxis} width={48} />
                  </>
                )}
                <Tooltip {...chartTooltip} cursor={{ fill: "var(--c-sunken)" }} />
                {series.map((s, i) => (
                  <Bar
                    key={s.key}
                    dataKey={s.key}
                    name={s.name}
                    fill={i === 0 ? CHART_COLOURS.primary : CHART_COLOURS.secondary}
                    radius={3}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            )}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
