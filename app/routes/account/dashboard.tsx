import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { findRoute, PUBLIC_SIDEBAR_PATHS } from "../../../core/index.ts";
import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { NamedIcon } from "../../components/ui/icon.tsx";
import { AccessFacts, IdentityFacts } from "../../features/account/user-summary.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/dashboard");

export default function Dashboard() {
  const { user } = useAuth();
  const first = user.fullName?.split(" ")[0] ?? user.username ?? "there";
  const shortcuts = PUBLIC_SIDEBAR_PATHS.filter((p) => p !== "/" && p !== "/pricing")
    .map((p) => findRoute(p))
    .filter((r) => r !== undefined);
  return (
    <FeatureScreen
      path="/dashboard"
      purpose={`Welcome back, ${first}. Your dashboard brings together your account, your plan and where to pick up learning.`}
      coming="your activity, saved content and course progress will appear here."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="You">
          <IdentityFacts user={user} />
        </Panel>
        <Panel
          title="Your access"
          action={
            <Link to="/subscription" className="text-xs font-medium text-accent-text hover:underline">
              Subscription
            </Link>
          }
        >
          <AccessFacts user={user} />
        </Panel>
      </div>
      <Panel title="Continue exploring">
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {shortcuts.map((r) => (
            <li key={r.path}>
              <Link
                to={r.path}
                className="flex items-center gap-3 rounded-lg border border-line px-3 py-2.5 text-sm hover:bg-surface"
              >
                <NamedIcon name={r.icon} className="size-4 text-accent-text" />
                <span className="flex-1 font-medium text-ink">{r.label}</span>
                <ArrowRight aria-hidden="true" className="size-3.5 text-ink-subtle" />
              </Link>
            </li>
          ))}
        </ul>
      </Panel>
    </FeatureScreen>
  );
}
