import { LoaderCircle } from "lucide-react";
import { useAuth } from "../../lib/session/auth-context.tsx";

/**
 * Shown while the client restores the cached user context and reconciles it with the server's view
 * (the first client render). It is small and fixed, never blocking the server-rendered page; without
 * JavaScript it fades out on its own (CSS animation).
 */
export function StartupLoader() {
  const { phase } = useAuth();
  if (phase === "ready") return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="startup-loader pointer-events-none fixed top-3 right-3 z-[60] flex items-center gap-3 rounded-xl border border-line bg-elevated/95 px-3.5 py-2.5 shadow-lg backdrop-blur max-lg:top-16"
    >
      <LoaderCircle aria-hidden="true" className="spin size-4 text-accent-text" />
      <div className="text-xs leading-tight">
        <p className="font-medium text-ink">Initializing secure authentication...</p>
        <p className="text-ink-subtle">
          {phase === "session" ? "Loading user session..." : "Setting up security context..."}
        </p>
      </div>
    </div>
  );
}
