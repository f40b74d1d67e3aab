import { ChevronDown, ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import { shortUserId } from "../../../core/index.ts";
import { cx } from "../../components/ui/cx.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { SECURITY_LEVEL_TEXT } from "../../lib/session/security.ts";
import { useSecurityContext } from "../../lib/session/security-monitor.tsx";

const statusDot: Record<string, string> = {
  visitor: "bg-zinc-400",
  authenticated: "bg-emerald-500",
  admin: "bg-amber-500",
};

/**
 * Fixed status overlay (bottom-right): auth status, tier, roles and the 8-character user id.
 * Collapsed it is a small pill (on phones just the tier, so it never covers content); a click opens
 * the full card.
 */
export function StatusOverlay() {
  const { user, isAuthenticated } = useAuth();
  const security = useSecurityContext();
  const level = isAuthenticated && security?.level ? SECURITY_LEVEL_TEXT[security.level] : null;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const shortId = shortUserId(user.userId);
  const roles = user.roles.length > 0 ? user.roles.join(", ") : "none";

  return (
    <section
      aria-label="Session status"
      className="pointer-events-none fixed right-3 bottom-3 z-30 flex flex-col items-end print:hidden"
    >
      {open ? (
        <div
          id={panelId}
          className="pointer-events-auto w-60 rounded-xl border border-line bg-elevated/95 px-3 py-2.5 text-xs shadow-lg backdrop-blur"
        >
          <div className="mb-1.5 flex items-center justify-between">
            <span className="inline-flex items-center gap-1.5 font-semibold text-ink">
              <ShieldCheck aria-hidden="true" className="size-3.5 text-accent-text" />
              Session
            </span>
            <button
              type="button"
              aria-label="Collapse session status"
              aria-controls={panelId}
              aria-expanded={true}
              onClick={() => setOpen(false)}
              className="inline-flex size-6 items-center justify-center rounded-md text-ink-subtle hover:bg-sunken hover:text-ink"
            >
              <ChevronDown aria-hidden="true" className="size-3.5" />
            </button>
          </div>
          <dl className="grid grid-cols-[4rem_1fr] gap-x-2 gap-y-0.5">
            <dt className="text-ink-subtle">Status</dt>
            <dd className="flex items-center gap-1.5 font-medium text-ink">
              <span aria-hidden="true" className={cx("size-1.5 rounded-full", statusDot[user.authStatus])} />
              {user.authStatus}
            </dd>
            <dt className="text-ink-subtle">Tier</dt>
            <dd className="font-medium text-ink">{user.pricingTier}</dd>
            <dt className="text-ink-subtle">Roles</dt>
            <dd className="break-words text-ink">{roles}</dd>
            {isAuthenticated ? (
              <>
                <dt className="text-ink-subtle">Security</dt>
                <dd className="text-ink" title="From the last server security check">
                  {level ?? "not checked yet"}
                </dd>
              </>
            ) : null}
            <dt className="text-ink-subtle">User id</dt>
            <dd className="font-mono text-ink">{shortId || "—"}</dd>
          </dl>
        </div>
      ) : (
        <button
          type="button"
          aria-label={`Session status: ${user.authStatus}, ${user.pricingTier} tier. Show details`}
          aria-expanded={false}
          onClick={() => setOpen(true)}
          className="pointer-events-auto inline-flex h-7 max-w-[calc(100vw-1.5rem)] items-center gap-1.5 rounded-full border border-line bg-elevated/95 px-2.5 text-[11px] font-medium text-ink-muted shadow-md backdrop-blur hover:text-ink"
        >
          <span
            aria-hidden="true"
            className={cx("size-1.5 shrink-0 rounded-full", statusDot[user.authStatus])}
          />
          <span className="hidden lg:inline">{user.authStatus}</span>
          <span className="hidden text-ink-subtle lg:inline" aria-hidden="true">
            ·
          </span>
          <span>{user.pricingTier}</span>
          <span className="hidden max-w-40 truncate text-ink-subtle lg:inline">· {roles}</span>
          {shortId ? <span className="hidden font-mono text-ink-subtle sm:inline">{shortId}</span> : null}
        </button>
      )}
    </section>
  );
}
