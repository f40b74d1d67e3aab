import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useRevalidator } from "react-router";
import {
  type AccessContext,
  SECURITY_CHECK_INTERVAL_MS,
  SESSION_STORAGE_PREFIX,
  toAccessContext,
  type UserContext,
} from "../../../core/index.ts";
import { showToast } from "../layout/app-toaster.tsx";

/** The user context as the browser receives it: never the raw identity claims. */
export type ClientUser = Omit<UserContext, "claims">;

/** Start-up phases shown by the start-up loader. */
export type AuthPhase = "session" | "security" | "ready";

export interface AuthValue {
  user: ClientUser;
  access: AccessContext;
  isAuthenticated: boolean;
  phase: AuthPhase;
  signOut: () => Promise<void>;
}

export const USER_CONTEXT_STORAGE_KEY = `${SESSION_STORAGE_PREFIX}user_context`;

/** Drops the claims from a server-built context (what the root loader sends to the browser). */
export function toClientUser(user: UserContext): ClientUser {
  const { claims: _claims, ...rest } = user;
  return rest;
}

export function accessOf(user: ClientUser): AccessContext {
  return toAccessContext({ ...user, claims: {} });
}

function readCachedUser(): ClientUser | null {
  try {
    const raw = window.sessionStorage.getItem(USER_CONTEXT_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as ClientUser) : null;
  } catch {
    return null;
  }
}

function writeCachedUser(user: ClientUser) {
  try {
    if (user.authStatus === "visitor") window.sessionStorage.removeItem(USER_CONTEXT_STORAGE_KEY);
    else window.sessionStorage.setItem(USER_CONTEXT_STORAGE_KEY, JSON.stringify(user));
  } catch {
    // storage unavailable: nothing cached
  }
}

/** Removes every auth key under the spec's session-storage prefix. */
export function clearStoredAuth() {
  try {
    const keys: string[] = [];
    for (let i = 0; i < window.sessionStorage.length; i++) {
      const key = window.sessionStorage.key(i);
      if (key?.startsWith(SESSION_STORAGE_PREFIX)) keys.push(key);
    }
    for (const key of keys) window.sessionStorage.removeItem(key);
  } catch {
    // nothing to clear
  }
}

/** Ends the session on the server (Better Auth), clears cached auth data and reloads at home. */
export async function signOutAndReload(): Promise<void> {
  try {
    await fetch("/api/auth/sign-out", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
      credentials: "same-origin",
    });
  } finally {
    clearStoredAuth();
    window.location.assign("/");
  }
}

const AuthContext = createContext<AuthValue | null>(null);

/**
 * Exposes the server-built user context (from the root loader). The server is the only source of
 * truth: the session-storage copy is a non-secret cache that is restored first and then replaced by
 * what the server says. Every 5 minutes the loaders are revalidated, so a session the server ended
 * (idle or absolute time-out, device mismatch) turns the UI back into a visitor.
 */
export function AuthProvider({ user, children }: { user: ClientUser; children: ReactNode }) {
  const [phase, setPhase] = useState<AuthPhase>("session");
  const revalidator = useRevalidator();
  const wasAuthenticated = useRef(user.authStatus !== "visitor");

  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) {
      // Later loader revalidations: the server's view simply replaces the cached copy.
      writeCachedUser(user);
      return;
    }
    // First client render: restore the cached context, then reconcile it with the server's view.
    const cached = readCachedUser();
    setPhase("security");
    const handle = window.setTimeout(() => {
      if (cached && cached.authStatus !== "visitor" && user.authStatus === "visitor") clearStoredAuth();
      writeCachedUser(user);
      restored.current = true;
      setPhase("ready");
    }, 0);
    return () => window.clearTimeout(handle);
  }, [user]);

  useEffect(() => {
    const authenticated = user.authStatus !== "visitor";
    if (wasAuthenticated.current && !authenticated) {
      clearStoredAuth();
      showToast("You have been signed out", {
        description: "Your session ended. Sign in again to continue.",
      });
    }
    wasAuthenticated.current = authenticated;
  }, [user.authStatus]);

  const revalidate = revalidator.revalidate;
  useEffect(() => {
    if (user.authStatus === "visitor") return;
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible") void revalidate();
    }, SECURITY_CHECK_INTERVAL_MS);
    return () => window.clearInterval(id);
  }, [user.authStatus, revalidate]);

  const signOut = useCallback(() => signOutAndReload(), []);

  const value = useMemo<AuthValue>(() => {
    const access = accessOf(user);
    return { user, access, isAuthenticated: access.isAuthenticated, phase, signOut };
  }, [user, phase, signOut]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}
