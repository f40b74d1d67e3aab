import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation, useNavigate, useRevalidator } from "react-router";
import { ACTIVITY_EVENTS, SECURITY_CHECK_INTERVAL_MS, signInUrl } from "../../../core/index.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { ApiError, api } from "../api.ts";
import { isSigningOut, markSignOutExplained, sessionRequestSignal, signOutLocally } from "./auth-context.tsx";
import { interpretSecurityCheck, type SecurityCheckResult, signedOutMessage, toEpochMs } from "./security.ts";
import {
  getSecurityContextSnapshot,
  getServerSecurityContextSnapshot,
  readCache,
  readSecurityContext,
  type SecurityContextCache,
  setFirstSecurityCheckPending,
  subscribeSecurityContext,
  updateMetrics,
  writeCache,
  writeRememberSession,
  writeSecurityContext,
} from "./session-cache.ts";

/** The keep-alive ping is sent at most this often while the user is active. */
export const ACTIVITY_PING_INTERVAL_MS = 60_000;

let signedOutHandler: ((reason: string) => void) | null = null;

/**
 * Asks the server whether this session is still good (GET /api/account/security-check) and records
 * the answer in the session-storage cache. A 401 hands the reason to the mounted monitor, which signs
 * this device out. Anything else (offline, 5xx) concludes nothing.
 */
export async function checkSecurity(): Promise<SecurityCheckResult> {
  let result: SecurityCheckResult;
  if (isSigningOut()) return { kind: "unknown", status: 0 };
  try {
    const body = await api.get("/api/account/security-check", {
      cache: "no-store",
      signal: sessionRequestSignal(),
    });
    result = interpretSecurityCheck(200, body);
  } catch (error) {
    // A refusal is an answer too (401 says why); no answer or an abort concludes nothing.
    result =
      error instanceof ApiError && error.status > 0
        ? interpretSecurityCheck(error.status, error.body)
        : { kind: "unknown", status: 0 };
  }
  // Signing out began while the check was under way: its answer says nothing new.
  if (isSigningOut()) return { kind: "unknown", status: 0 };
  const now = Date.now();
  if (result.kind === "ok") {
    writeSecurityContext({ level: result.level, checkedAt: now });
    writeCache("token_cache", {
      expiresAt: toEpochMs(result.session?.expiresAt),
      rotatedAt: toEpochMs(result.session?.rotatedAt),
    });
    updateMetrics((m) => ({ checks: m.checks + 1 }));
  } else if (result.kind === "signed-out") {
    updateMetrics((m) => ({ checks: m.checks + 1, failures: m.failures + 1 }));
    signedOutHandler?.(result.reason);
  }
  return result;
}

/** The last security check's result (level, when), re-rendering when a new check lands. */
export function useSecurityContext(): SecurityContextCache | null {
  return useSyncExternalStore(
    subscribeSecurityContext,
    getSecurityContextSnapshot,
    getServerSecurityContextSnapshot,
  );
}

/**
 * Session security on the client (spec §4, §9), mounted by the shell for signed-in users:
 * - every 5 minutes (and on start when the last check is older) it asks the server's security check;
 *   on 401 it signs this device out (not globally), clears the cache, explains why and goes to sign-in;
 * - mouse, keyboard, scroll, touch and click activity (passive listeners) keeps the server's idle clock
 *   alive with POST /api/account/activity, at most once a minute.
 * The server enforces every rule; this only asks and explains. Renders nothing.
 */
export function AuthSecurityMonitor() {
  const navigate = useNavigate();
  const location = useLocation();
  const { revalidate } = useRevalidator();
  const here = useRef("/");
  here.current = `${location.pathname}${location.search}`;
  const handled = useRef(false);

  const onSignedOut = useCallback(
    (reason: string) => {
      if (handled.current) return;
      handled.current = true;
      markSignOutExplained();
      void signOutLocally().then(() => {
        showToast(signedOutMessage(reason), { description: "Please sign in again to continue." });
        navigate(signInUrl(here.current), { replace: true });
      });
    },
    [navigate],
  );

  useEffect(() => {
    signedOutHandler = onSignedOut;
    return () => {
      if (signedOutHandler === onSignedOut) signedOutHandler = null;
    };
  }, [onSignedOut]);

  // The periodic check (first one at once when the cached result is stale or missing).
  useEffect(() => {
    if (readCache("remember_session") === null) writeRememberSession(false);
    const run = async (periodic: boolean) => {
      const result = await checkSecurity();
      // Re-read the user context too (plan or role changes show up), and when the check
      // concludes nothing (offline, 5xx) that re-read is what notices an ended session.
      if (result.kind === "unknown" || (periodic && document.visibilityState === "visible")) {
        void revalidate();
      }
    };
    const last = readSecurityContext();
    if (!last) {
      setFirstSecurityCheckPending(true);
      void run(false).finally(() => setFirstSecurityCheckPending(false));
    } else if (Date.now() - last.checkedAt >= SECURITY_CHECK_INTERVAL_MS) void run(false);
    const id = window.setInterval(() => void run(true), SECURITY_CHECK_INTERVAL_MS);
    return () => {
      window.clearInterval(id);
      setFirstSecurityCheckPending(false);
    };
  }, [revalidate]);

  // Activity tracking: cheap handler, throttled keep-alive.
  useEffect(() => {
    let lastPing = Date.now(); // the page load itself was a request
    let inFlight = false;
    const onActivity = () => {
      const now = Date.now();
      if (inFlight || isSigningOut() || now - lastPing < ACTIVITY_PING_INTERVAL_MS) return;
      lastPing = now;
      inFlight = true;
      updateMetrics(() => ({ lastActivityAt: now }));
      api
        .post("/api/account/activity", {}, { keepalive: true, signal: sessionRequestSignal() })
        .catch((error: unknown) => {
          // The server no longer accepts the session: the check says why and signs out.
          if (error instanceof ApiError && error.status === 401) void checkSecurity();
          // offline, aborted or anything else: the next check decides
        })
        .finally(() => {
          inFlight = false;
        });
    };
    const options: AddEventListenerOptions = { passive: true, capture: true };
    for (const type of ACTIVITY_EVENTS) document.addEventListener(type, onActivity, options);
    return () => {
      for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, onActivity, options);
    };
  }, []);

  return null;
}
