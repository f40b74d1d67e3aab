import { Bug, X } from "lucide-react";
import { useLocation } from "react-router";
import { matchRoute } from "../../../core/index.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { writeStoredFlag } from "./debug.tsx";

function Json({ value }: { value: unknown }) {
  return (
    <pre className="max-h-72 overflow-auto rounded-lg border border-line bg-sunken p-3 font-mono text-xs leading-relaxed text-ink">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** Route match, the user context (never the claims) and the feature flags. */
export default function DebugPanel({ featureFlags }: { featureFlags: Record<string, boolean> }) {
  const location = useLocation();
  const { user, access } = useAuth();
  const match = matchRoute(location.pathname);
  const routeInfo = match
    ? {
        path: match.route.path,
        label: match.route.label,
        params: match.params,
        auth: match.route.auth,
        minTier: match.route.minTier ?? null,
        rolesAllowed: match.route.rolesAllowed ?? [],
        accountTypes: match.route.accountTypes ?? [],
        category: match.route.category,
        allowPublicDebug: match.route.allowPublicDebug === true,
      }
    : { path: null, note: "No registry route matches this path (not-found page)." };

  return (
    <section
      aria-labelledby="debug-panel-title"
      className="mb-8 rounded-xl border border-dashed border-warn-line bg-warn-soft/60 p-4"
    >
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 id="debug-panel-title" className="flex items-center gap-2 text-sm font-semibold text-warn-text">
          <Bug aria-hidden="true" className="size-4" />
          Debug mode
        </h2>
        <button
          type="button"
          onClick={() => {
            writeStoredFlag(null);
            const url = new URL(window.location.href);
            url.searchParams.delete("debug");
            window.location.assign(url.toString());
          }}
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-ink-muted hover:bg-sunken hover:text-ink"
        >
          <X aria-hidden="true" className="size-3.5" />
          Turn off
        </button>
      </div>
      <p className="mb-4 text-xs text-ink-muted">
        Press <kbd className="rounded border border-line-strong px-1 font-mono">Ctrl</kbd>+
        <kbd className="rounded border border-line-strong px-1 font-mono">Shift</kbd>+
        <kbd className="rounded border border-line-strong px-1 font-mono">D</kbd> to toggle. Identity claims
        and secrets are never sent to the browser.
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wider text-ink-subtle">Route match</h3>
          <Json value={{ pathname: location.pathname, search: location.search, ...routeInfo }} />
          <h3 className="pt-2 text-xs font-semibold uppercase tracking-wider text-ink-subtle">
            Feature flags
          </h3>
          <Json value={{ ...featureFlags, ...user.featureFlags }} />
        </div>
        <div className="space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wider text-ink-subtle">User context</h3>
          <Json value={{ ...user, access }} />
        </div>
      </div>
    </section>
  );
}
