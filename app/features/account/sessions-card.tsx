import { LoaderCircle, LogOut, Monitor, RotateCw, Smartphone } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { markSignOutExplained, useAuth } from "../../lib/session/auth-context.tsx";
import { deviceLabel, formatWhen } from "../../lib/session/security.ts";
import { clearAuthCache } from "../../lib/session/session-cache.ts";

/** One row of GET /api/account/sessions. */
export interface ActiveSession {
  id: string;
  createdAt: string | number | null;
  lastActiveAt: string | number | null;
  ipAddress: string | null;
  userAgent: string | null;
  current: boolean;
}

/** The list answer as an array (also accepts `{sessions: [...]}`), current session first. */
export function parseSessions(body: unknown): ActiveSession[] | null {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === "object" && Array.isArray((body as { sessions?: unknown }).sessions)
      ? (body as { sessions: unknown[] }).sessions
      : null;
  if (!list) return null;
  return list
    .filter((s): s is Record<string, unknown> => !!s && typeof s === "object" && typeof s.id === "string")
    .map((s) => ({
      id: s.id as string,
      createdAt: (s.createdAt as string | number | undefined) ?? null,
      lastActiveAt: (s.lastActiveAt as string | number | undefined) ?? null,
      ipAddress: typeof s.ipAddress === "string" && s.ipAddress ? s.ipAddress : null,
      userAgent: typeof s.userAgent === "string" ? s.userAgent : null,
      current: s.current === true,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

const isPhone = (ua: string | null) => /iPhone|Android|Mobile/.test(ua ?? "");

/** The list itself (pure presentation; tested with renderToString). */
export function SessionList({
  sessions,
  busyId,
  onRevoke,
}: {
  sessions: ActiveSession[];
  busyId: string | null;
  onRevoke: (session: ActiveSession) => void;
}) {
  return (
    <ul className="divide-y divide-line">
      {sessions.map((s) => {
        const device = deviceLabel(s.userAgent);
        const Icon = isPhone(s.userAgent) ? Smartphone : Monitor;
        return (
          <li key={s.id} className="flex flex-wrap items-start gap-3 py-3 first:pt-0 last:pb-0">
            <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-sunken text-ink-muted">
              <Icon aria-hidden="true" className="size-4" />
            </span>
            <div className="min-w-0 flex-1 text-sm">
              <p className="flex flex-wrap items-center gap-2 font-medium text-ink">
                {device}
                {s.current ? (
                  <span className="rounded-full border border-ok-line bg-ok-soft px-2 py-px text-[11px] font-semibold text-ok-text">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-xs text-ink-muted">
                {s.ipAddress ?? "Unknown address"} · signed in {formatWhen(s.createdAt)}
              </p>
              <p className="text-xs text-ink-subtle">Last active {formatWhen(s.lastActiveAt)}</p>
            </div>
            {s.current ? null : (
              <Button
                variant="secondary"
                size="sm"
                disabled={busyId !== null}
                onClick={() => onRevoke(s)}
                aria-label={`Sign out ${device}, signed in ${formatWhen(s.createdAt)}`}
              >
                {busyId === s.id ? (
                  <LoaderCircle aria-hidden="true" className="spin size-4" />
                ) : (
                  <LogOut aria-hidden="true" className="size-4" />
                )}
                Sign out
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

type LoadState =
  | { kind: "loading" }
  | { kind: "error"; message: string }
  | { kind: "ready"; sessions: ActiveSession[] };

/**
 * /settings 'Sessions': the account's active sessions with a sign-out for each other device,
 * 'Sign out of all devices' (every device including this one, after a confirmation) and
 * 'Sign out' for this device.
 */
export function SessionsCard({ reloadKey }: { reloadKey: number }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [state, setState] = useState<LoadState>({ kind: "loading" });
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [globalBusy, setGlobalBusy] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const load = useCallback(async () => {
    setState({ kind: "loading" });
    const result = await settle(api.get("/api/account/sessions"));
    const sessions = result.ok ? parseSessions(result.data) : null;
    if (sessions) setState({ kind: "ready", sessions });
    else
      setState({
        kind: "error",
        message: result.ok ? "The server sent an unexpected answer." : result.error.message,
      });
  }, []);

  useEffect(() => {
    void reloadKey;
    void load();
  }, [load, reloadKey]);

  async function revoke(session: ActiveSession) {
    setBusyId(session.id);
    const result = await settle(api.delete(`/api/account/sessions/${encodeURIComponent(session.id)}`));
    setBusyId(null);
    if (!result.ok) {
      showToast("Could not sign out that device", { description: result.error.message });
      return;
    }
    showToast(`Signed out ${deviceLabel(session.userAgent)}`);
    setState((s) =>
      s.kind === "ready" ? { kind: "ready", sessions: s.sessions.filter((x) => x.id !== session.id) } : s,
    );
  }

  async function revokeAll() {
    setGlobalBusy(true);
    const result = await settle(api.post("/api/account/sessions/revoke-all", {}));
    if (!result.ok) {
      setGlobalBusy(false);
      setConfirming(false);
      showToast("Could not sign out everywhere", { description: result.error.message });
      return;
    }
    markSignOutExplained();
    clearAuthCache();
    showToast("Signed out of all devices", { description: "Sign in again to continue." });
    navigate("/auth/signin?redirect=%2Fsettings", { replace: true });
  }

  const others = state.kind === "ready" ? state.sessions.filter((s) => !s.current).length : 0;

  return (
    <Panel
      title="Sessions"
      action={
        <Button
          variant="ghost"
          size="sm"
          onClick={() => void load()}
          disabled={state.kind === "loading"}
          aria-label="Refresh the list of sessions"
        >
          <RotateCw aria-hidden="true" className={state.kind === "loading" ? "spin size-4" : "size-4"} />
        </Button>
      }
    >
      <div aria-live="polite" aria-busy={state.kind === "loading"}>
        {state.kind === "loading" ? (
          <p className="flex items-center gap-2 py-3 text-sm text-ink-muted">
            <LoaderCircle aria-hidden="true" className="spin size-4" />
            Loading your sessions…
          </p>
        ) : state.kind === "error" ? (
          <Notice tone="warn" title="Your sessions could not be loaded">
            <p>{state.message}</p>
            <button
              type="button"
              onClick={() => void load()}
              className="mt-1 font-medium text-accent-text hover:underline"
            >
              Try again
            </button>
          </Notice>
        ) : state.sessions.length === 0 ? (
          <p className="py-3 text-sm text-ink-muted">No active sessions were found.</p>
        ) : (
          <>
            <SessionList sessions={state.sessions} busyId={busyId} onRevoke={(s) => void revoke(s)} />
            {others === 0 ? (
              <p className="mt-3 text-xs text-ink-subtle">You are not signed in on any other device.</p>
            ) : null}
          </>
        )}
      </div>
      <div className="mt-5 flex flex-wrap gap-2 border-t border-line pt-4">
        <Button
          variant="secondary"
          size="sm"
          disabled={signingOut}
          onClick={() => {
            setSigningOut(true);
            void signOut();
          }}
        >
          <LogOut aria-hidden="true" className="size-4" />
          {signingOut ? "Signing out…" : "Sign out"}
        </Button>
        <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
          Sign out of all devices
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Sign out of all devices?"
        confirmLabel={globalBusy ? "Signing out…" : "Sign out everywhere"}
        busy={globalBusy}
        onConfirm={() => void revokeAll()}
        onClose={() => setConfirming(false)}
      >
        Every session ends, including this one. You will need to sign in again on each device.
      </ConfirmDialog>
    </Panel>
  );
}
