import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { type AccessContext, toAccessContext, type UserContext } from "../../../core/index.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { ApiError, api } from "../api.ts";
import {
  clearAuthCache,
  getFirstSecurityCheckPending,
  getServerFirstSecurityCheckPending,
  readCache,
  removeCache,
  subscribeSecurityContext,
  writeCache,
} from "./session-cache.ts";

/** The user context as the browser receives it: never the raw identity claims. */
export type ClientUser = Omit<UserContext, "claims">;

/**
 * What the start-up loader shows. A server-rendered page knows its session, so it starts "ready";
 * "security" while a signed-in browser's first security check is in flight (nothing cached yet),
 * "session" while a sign-in or sign-out is loading the next page's session.
 */
export type AuthPhase = "session" | "security" | "ready";

export interface AuthValue {
  user: ClientUser;
  access: AccessContext;
  isAuthenticated: boolean;
  phase: AuthPhase;
  signOut: () => Promise<void>;
}

/** Drops the claims from a server-built context (what the root loader sends to the browser). */
export function toClientUser(user: UserContext): ClientUser {
  const { claims: _claims, ...rest } = user;
  return rest;
}

export function accessOf(user: ClientUser): AccessContext {
  return toAccessContext({ ...user, claims: {} });
}

function readCachedUser(): ClientUser | null {
  return readCache<ClientUser>("user_context");
}

/** Caches the (claim-free) user context; `writeCache` also drops any token/password/secret key. */
function writeCachedUser(user: ClientUser) {
  if (user.audience) return; // an audience page's neutral user is nobody's context
  if (user.authStatus === "visitor") removeCache("user_context");
  else writeCache("user_context", user);
}

/** Removes every auth key under the spec's session-storage prefix. */
export const clearStoredAuth = clearAuthCache;

let signedOutExplained = false;
/**
 * Called by code that signs the user out and explains why itself (the security monitor, global
 * sign-out), so the provider does not add its generic 'You have been signed out' toast.
 */
export function markSignOutExplained() {
  signedOutExplained = true;
}

let signOutController = new AbortController();
/**
 * Background session requests (security check, activity ping) use this signal. Signing out aborts
 * them first, so a check racing the sign-out cannot come back as "your session ended" with a
 * misleading message.
 */
export function sessionRequestSignal(): AbortSignal {
  return signOutController.signal;
}
export function isSigningOut(): boolean {
  return signOutController.signal.aborted;
}

let sessionChanging = false;
const sessionListeners = new Set<() => void>();
function subscribeSessionChange(listener: () => void) {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}
/** Called when a sign-in or sign-out has succeeded and the browser loads the next page. */
export function beginSessionChange(): void {
  sessionChanging = true;
  for (const listener of sessionListeners) listener();
}

/** Ends this device's session on the server (Better Auth, not global) and clears cached auth data. */
export async function signOutLocally(): Promise<void> {
  if (!signOutController.signal.aborted) signOutController.abort();
  try {
    await api.post("/api/auth/sign-out", {});
  } catch {
    // offline or refused: the cookie stays until it expires, the cache is still cleared
  } finally {
    clearAuthCache();
    // A later sign-in in this page (without a reload) starts with fresh background requests.
    signOutController = new AbortController();
  }
}

/** Signs this device out and reloads at home. */
export async function signOutAndReload(): Promise<void> {
  beginSessionChange();
  await signOutLocally();
  window.location.assign("/");
}

const AuthContext = createContext<AuthValue | null>(null);

/** Same plan, roles, groups and account type: a cached context that may stand in until the server answers. */
function sameAudience(a: ClientUser, b: ClientUser): boolean {
  return (
    a.pricingTier === b.pricingTier &&
    a.accountType === b.accountType &&
    a.roles.join("\n") === b.roles.join("\n") &&
    a.groups.join("\n") === b.groups.join("\n")
  );
}

const RELOADED_KEY = "lumen:audience-reload";

/**
 * The reader's own context on an audience page (decision 039): the page came with its audience's
 * neutral user, so once it runs the browser shows this tab's cached context of the same audience at
 * once and asks the server for the reader's own (`GET /api/account/me`). A 401 means the session
 * ended meanwhile: the page is loaded again (once) and the server answers it as a visitor's.
 */
function usePersonalUser(served: ClientUser): ClientUser | null {
  const [own, setOwn] = useState<ClientUser | null>(null);
  useEffect(() => {
    if (!served.audience) {
      setOwn(null);
      return;
    }
    let current = true;
    const cached = readCachedUser();
    if (cached && !cached.audience && cached.userId && sameAudience(cached, served)) setOwn(cached);
    api
      .get<UserContext>("/api/account/me", { signal: sessionRequestSignal() })
      .then((user) => {
        if (current) setOwn(toClientUser(user));
      })
      .catch((error: unknown) => {
        if (!current || !(error instanceof ApiError) || error.status !== 401) return;
        const last = Number(sessionStorage.getItem(RELOADED_KEY) ?? 0);
        if (Date.now() - last < 10_000) return;
        sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
        window.location.reload();
      });
    return () => {
      current = false;
    };
  }, [served]);
  return served.audience ? own : null;
}

/**
 * Exposes the server-built user context (from the root loader). The server is the only source of
 * truth: the session-storage copy is a non-secret cache that is restored first and then replaced by
 * what the server says. The 5-minute security check lives in `AuthSecurityMonitor` (mounted by the
 * shell for signed-in users).
 */
export function AuthProvider({ user: served, children }: { user: ClientUser; children: ReactNode }) {
  const user = usePersonalUser(served) ?? served;
  const wasAuthenticated = useRef(user.authStatus !== "visitor");
  const changing = useSyncExternalStore(
    subscribeSessionChange,
    () => sessionChanging,
    () => false,
  );
  const checking = useSyncExternalStore(
    subscribeSecurityContext,
    getFirstSecurityCheckPending,
    getServerFirstSecurityCheckPending,
  );

  const restored = useRef(false);
  useEffect(() => {
    // First client render: a cached signed-in context the server no longer confirms is dropped.
    // Then (and on every loader revalidation) the server's view replaces the cached copy.
    if (!restored.current) {
      const cached = readCachedUser();
      if (cached && cached.authStatus !== "visitor" && user.authStatus === "visitor") clearAuthCache();
      restored.current = true;
    }
    writeCachedUser(user);
  }, [user]);

  useEffect(() => {
    const authenticated = user.authStatus !== "visitor";
    if (wasAuthenticated.current && !authenticated) {
      clearAuthCache();
      if (!signedOutExplained) {
        showToast("You have been signed out", {
          description: "Your session ended. Sign in again to continue.",
        });
      }
    }
    signedOutExplained = false;
    wasAuthenticated.current = authenticated;
  }, [user.authStatus]);

  const signOut = useCallback(() => signOutAndReload(), []);

  const value = useMemo<AuthValue>(() => {
    const access = accessOf(user);
    const phase: AuthPhase = changing ? "session" : access.isAuthenticated && checking ? "security" : "ready";
    return { user, access, isAuthenticated: access.isAuthenticated, phase, signOut };
  }, [user, changing, checking, signOut]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}
