import { LoaderCircle } from "lucide-react";
import { cx } from "../../components/ui/cx.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { StatusPlacement } from "./status-overlay.tsx";

/**
 * Shown only while the session is really unknown: a signed-in browser's first security check of the
 * session (nothing cached yet), or a sign-in or sign-out loading the next page. A server-rendered
 * page knows its session, so it never shows on arrival. It sits over the chrome (the sidebar's
 * bottom bar, or the top bar's brand below 1024 px), never over the page.
 */
export function StartupLoader({ placement }: { placement: StatusPlacement }) {
  const { phase } = useAuth();
  if (phase === "ready") return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className={cx(
        "pointer-events-none absolute z-[60] flex items-center gap-3 rounded-xl border border-line bg-elevated px-3.5 py-2 shadow-lg",
        placement === "sidebar"
          ? "inset-x-3 bottom-full mb-2 hidden lg:flex"
          : "inset-y-1.5 left-12 right-2 lg:hidden",
      )}
    >
      <LoaderCircle aria-hidden="true" className="spin size-4 shrink-0 text-accent-text" />
      <div className="min-w-0 text-xs leading-tight">
        <p className="truncate font-medium text-ink">Initializing secure authentication...</p>
        <p className="truncate text-ink-subtle">
          {phase === "session" ? "Loading user session..." : "Setting up security context..."}
        </p>
      </div>
    </div>
  );
}
