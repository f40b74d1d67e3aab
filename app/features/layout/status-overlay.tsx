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

/** Where the overlay is docked: the sidebar's bottom bar (desktop) or the top bar (phones). */
export type StatusPlacement = "sidebar" | "header";

/**
 * The status overlay: auth status, tier, roles and the 8-character user id. It is docked in the
 * fixed chrome (the sidebar's bottom bar on large screens, the top bar below 1024 px), so it never
 * covers the page; collapsed it is a small pill, a click opens the full card over the chrome.
 */
export function StatusOverlay({ placement, className }: { placement: StatusPlacement; className?: string }) {
  const { user, isAuthenticated } = useAuth();
  const security = useSecurityContext();
  const level = isAuthenticated && security?.level ? SECURITY_LEVEL_TEXT[security.level] : null;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  // An audience page's neutral user has no id of its own; the reader's arrives once the page runs.
  const shortId = user.audience ? "" : shortUserId(user.userId);
  const roles = user.roles.length > 0 ? user.roles.join(", ") : "none";

  return (
    <div
      className={cx(
        "relative min-w-0 print:hidden",
        placement === "sidebar" ? "hidden lg:block" : "lg:hidden",
        className,
      )}
    >
      {open ? (
        <div
          id={panelId}
          className={cx(
            "absolute z-40 w-60 rounded-xl border border-line bg-elevated px-3 py-2.5 text-xs shadow-lg",
            placement === "sidebar" ? "bottom-full left-0 mb-2" : "top-full right-0 mt-3",
          )}
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
      ) : null}
      <button
        type="button"
        aria-label={`Session status: ${user.authStatus}, ${user.pricingTier} tier. ${open ? "Hide" : "Show"} details`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        title={`${user.authStatus} · ${user.pricingTier} · ${roles}${shortId ? ` · ${shortId}` : ""}`}
        onClick={() => setOpen(!open)}
        className="inline-flex h-7 max-w-full min-w-0 items-center gap-1.5 rounded-full border border-line bg-elevated px-2.5 text-[11px] font-medium text-ink-muted hover:text-ink lg:collapsed:px-2"
      >
        <span
          aria-hidden="true"
          className={cx("size-1.5 shrink-0 rounded-full", statusDot[user.authStatus])}
        />
        <span className="truncate lg:collapsed:sr-only">
          {placement === "sidebar" ? `${user.authStatus} · ` : null}
          {user.pricingTier}
        </span>
      </button>
    </div>
  );
}
