import { CircleCheck, CircleX, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { useRevalidator } from "react-router";
import type { ComponentHealth, Diagnostics } from "../../../server/services.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";

function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [d ? `${d} d` : "", h ? `${h} h` : "", m ? `${m} min` : "", `${s % 60} s`].filter(Boolean);
  return parts.slice(0, 3).join(" ");
}

function StatusPill({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium",
        ok ? "border-ok-line bg-ok-soft text-ok-text" : "border-danger-line bg-danger-soft text-danger-text",
      )}
    >
      {ok ? (
        <CircleCheck aria-hidden="true" className="size-3.5" />
      ) : (
        <CircleX aria-hidden="true" className="size-3.5" />
      )}
      {children}
    </span>
  );
}

function Table({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="border-b border-line px-4 py-3 text-left text-sm font-semibold text-ink">
            {caption}
          </caption>
          <thead className="bg-sunken text-xs uppercase tracking-wider text-ink-muted">
            <tr>
              {head.map((h) => (
                <th key={h} scope="col" className="px-4 py-2 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={head.length} className="px-4 py-3 text-ink-muted">
                  None
                </td>
              </tr>
            ) : (
              rows.map((cells, i) => (
                <tr key={i}>
                  {cells.map((cell, j) => (
                    <td
                      key={j}
                      className={cx(
                        "px-4 py-2.5 align-top",
                        j === 0 ? "font-medium text-ink" : "text-ink-muted",
                      )}
                    >
                      {cell}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function componentRow(name: string, c: ComponentHealth): ReactNode[] {
  return [
    name,
    <StatusPill key="s" ok={c.ok}>
      {c.ok ? "healthy" : "unreachable"}
    </StatusPill>,
    c.kind,
    `${c.latencyMs.toFixed(1)} ms`,
    c.error ?? "—",
  ];
}

/** Public diagnostics as tables: health, runtime, counts, feature flags and the configuration shape. */
export function DiagnosticsView({
  diagnostics: d,
  showRuntime = true,
}: {
  diagnostics: Diagnostics;
  showRuntime?: boolean;
}) {
  const revalidator = useRevalidator();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <StatusPill ok={d.status === "ok"}>
          {d.status === "ok" ? "All systems operational" : "Degraded"}
        </StatusPill>
        <span className="text-sm text-ink-muted">
          Version {d.version} · up {formatUptime(d.uptimeS)}
        </span>
        <Button
          size="sm"
          variant="secondary"
          className="ml-auto"
          disabled={revalidator.state === "loading"}
          onClick={() => void revalidator.revalidate()}
        >
          <RefreshCw
            aria-hidden="true"
            className={cx("size-3.5", revalidator.state === "loading" && "spin")}
          />
          Refresh
        </Button>
      </div>

      <Table
        caption="Components"
        head={["Component", "Status", "Kind", "Latency", "Error"]}
        rows={[componentRow("Database", d.db), componentRow("Object storage", d.storage)]}
      />

      {showRuntime ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Table
            caption="Runtime"
            head={["Property", "Value"]}
            rows={[
              ["Status", d.status],
              ["Version", d.version],
              ["Environment", d.environment],
              ...(d.node ? [["Node.js", d.node]] : []),
              ...(d.platform ? [["Platform", d.platform]] : []),
              ["Started", d.startedAt],
              ["Uptime", formatUptime(d.uptimeS)],
              ["Routes in registry", String(d.routeCount)],
            ]}
          />
          <Table
            caption="Records"
            head={["Kind", "Count"]}
            rows={[
              [d.counts.users === undefined ? "Published items" : "Content items", String(d.counts.content)],
              [
                d.counts.users === undefined ? "Active categories" : "Categories",
                String(d.counts.categories),
              ],
              ...(d.counts.users === undefined ? [] : [["Users", String(d.counts.users)]]),
            ]}
          />
        </div>
      ) : null}

      <Table
        caption="Feature flags"
        head={["Flag", "State"]}
        rows={Object.entries(d.featureFlags).map(([name, on]) => [
          <code key="n" className="font-mono text-xs">
            {name}
          </code>,
          on ? "on" : "off",
        ])}
      />

      {showRuntime ? (
        <Table
          caption="Configuration (shape only, no secrets)"
          head={["Setting", "Value"]}
          rows={d.configuration.map((c) => [
            <code key="n" className="font-mono text-xs">
              {c.name}
            </code>,
            c.value,
          ])}
        />
      ) : null}
    </div>
  );
}
