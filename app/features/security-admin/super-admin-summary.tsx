/**
 * /super-admin: one card per child screen with a short, live status (no placeholders): the
 * settings and flags (how many flags are on, changes in the last 7 days), security (sessions,
 * locks, MFA adoption), infrastructure (version, uptime, storage latency) and the database (kind
 * and latency). Each card links to the screen that explains its figures.
 */
import { Link } from "react-router";
import { getRoute } from "../../../core/index.ts";
import { NamedIcon } from "../../components/ui/icon.tsx";

export interface SuperAdminStatus {
  flags: { on: number; total: number; changes: number; days: number };
  security: {
    sessions: number;
    people: number;
    lockouts: number;
    mfaPercent: number;
    staffWithoutMfa: number;
  };
  health: {
    status: string;
    version: string;
    uptimeS: number;
    db: { ok: boolean; latencyMs: number; kind: string };
    storage: { ok: boolean; latencyMs: number; kind: string };
  };
}

function uptime(s: number): string {
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min`;
  if (s < 86_400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

function Card({ path, lines, tone }: { path: string; lines: string[]; tone?: "warn" }) {
  const route = getRoute(path);
  return (
    <li>
      <Link
        to={path}
        className="flex h-full flex-col rounded-xl border border-line bg-elevated p-5 transition-colors hover:border-line-strong hover:bg-surface"
        data-testid={`status-${path.split("/").pop()}`}
      >
        <span className="mb-3 flex items-center gap-3">
          <span className="flex size-9 items-center justify-center rounded-lg bg-sunken text-ink-muted">
            <NamedIcon name={route.icon} className="size-5" />
          </span>
          <span className="font-semibold text-ink">{route.label}</span>
        </span>
        <ul className="space-y-1 text-sm">
          {lines.map((line, i) => (
            <li key={line} className={i === 0 && tone === "warn" ? "text-warn-text" : "text-ink-muted"}>
              {line}
            </li>
          ))}
        </ul>
        <span className="mt-auto pt-3 text-sm font-medium text-accent-text">Open →</span>
      </Link>
    </li>
  );
}

export function SuperAdminSummary({ status }: { status: SuperAdminStatus }) {
  const { flags, security, health } = status;
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      <Card
        path="/super-admin/system-config"
        lines={[
          `${flags.on} of ${flags.total} feature flags on`,
          `${flags.changes} setting change${flags.changes === 1 ? "" : "s"} in the last ${flags.days} days`,
        ]}
      />
      <Card
        path="/super-admin/security"
        tone={security.lockouts > 0 || security.staffWithoutMfa > 0 ? "warn" : undefined}
        lines={[
          `${security.lockouts} current sign-in lock${security.lockouts === 1 ? "" : "s"}${security.staffWithoutMfa ? ` · ${security.staffWithoutMfa} staff without MFA` : ""}`,
          `${security.sessions} active session${security.sessions === 1 ? "" : "s"} (${security.people} ${security.people === 1 ? "person" : "people"})`,
          `${security.mfaPercent}% of accounts use a second factor`,
        ]}
      />
      <Card
        path="/super-admin/infrastructure"
        tone={health.status === "ok" ? undefined : "warn"}
        lines={[
          health.status === "ok" ? "All components healthy" : "Degraded: a component failed its check",
          `Version ${health.version}, this process up ${uptime(health.uptimeS)}`,
          `Storage (${health.storage.kind}) ${health.storage.ok ? `answers in ${health.storage.latencyMs} ms` : "unreachable"}`,
        ]}
      />
      <Card
        path="/super-admin/database"
        tone={health.db.ok ? undefined : "warn"}
        lines={[
          `${health.db.kind}: ${health.db.ok ? `answers in ${health.db.latencyMs} ms` : "unreachable"}`,
          "Migrations, tables, integrity check and backup",
        ]}
      />
    </ul>
  );
}
