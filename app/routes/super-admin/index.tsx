import { Screen } from "../../components/screen.tsx";
import { loadSecuritySummary } from "../../features/security-admin/security-admin.server.ts";
import {
  type SuperAdminStatus,
  SuperAdminSummary,
} from "../../features/security-admin/super-admin-summary.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin");

/** Live figures of each child screen (the platform owner only: route guard, then the services). */
export async function loader(args: Route.LoaderArgs): Promise<{ status: SuperAdminStatus }> {
  requireScreenAccess(args, "/super-admin");
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const [security, settings, health] = await Promise.all([
    loadSecuritySummary(args),
    services.settings.read(actor),
    services.diagnostics.health(),
  ]);
  const flags = settings.catalogue.filter((d) => d.type === "boolean" && d.featureFlag);
  const on = flags.filter((d) => settings.settings.find((s) => s.key === d.key)?.value === true).length;
  return {
    status: {
      flags: { on, total: flags.length, changes: security.settingChanges, days: security.recent.days },
      security: {
        sessions: security.sessions.active,
        people: security.sessions.users,
        lockouts: security.lockouts,
        mfaPercent: security.mfa.percent,
        staffWithoutMfa: security.mfa.staff.withoutMfa.length,
      },
      health: {
        status: health.status,
        version: health.version,
        uptimeS: health.uptimeS,
        db: { ok: health.db.ok, latencyMs: health.db.latencyMs, kind: health.db.kind },
        storage: { ok: health.storage.ok, latencyMs: health.storage.latencyMs, kind: health.storage.kind },
      },
    },
  };
}

export default function SuperAdminIndex({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/super-admin"
      purpose="Configuration, security and infrastructure of this installation, at a glance. Only the platform owner sees these pages; each card opens the screen behind its figures."
    >
      <SuperAdminSummary status={loaderData.status} />
    </Screen>
  );
}
