import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router";
import { SIDEBAR_STORAGE_KEY } from "../../lib/sidebar-state.ts";

export interface SidebarValue {
  /** Desktop state: 64 px rail when true, 320 px when false. Persisted in localStorage. */
  collapsed: boolean;
  setCollapsed: (collapsed: boolean) => void;
  toggleCollapsed: () => void;
  /** Below the 1024 px breakpoint the sidebar is a drawer. */
  mobileOpen: boolean;
  setMobileOpen: (open: boolean) => void;
}

const SidebarContext = createContext<SidebarValue | null>(null);

export function SidebarProvider({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsedState] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();

  // The bootstrap script already applied the stored state to <html data-sidebar>; mirror it.
  useEffect(() => {
    setCollapsedState(document.documentElement.getAttribute("data-sidebar") === "collapsed");
  }, []);

  // Navigating closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change on purpose
  useEffect(() => {
    setMobileOpen(false);
  }, [location.pathname, location.search]);

  const setCollapsed = useCallback((next: boolean) => {
    setCollapsedState(next);
    const root = document.documentElement;
    if (next) root.setAttribute("data-sidebar", "collapsed");
    else root.removeAttribute("data-sidebar");
    try {
      window.localStorage.setItem(SIDEBAR_STORAGE_KEY, next ? "collapsed" : "expanded");
    } catch {
      // storage unavailable: state lasts for this page only
    }
  }, []);

  const toggleCollapsed = useCallback(() => setCollapsed(!collapsed), [collapsed, setCollapsed]);

  const value = useMemo(
    () => ({ collapsed, setCollapsed, toggleCollapsed, mobileOpen, setMobileOpen }),
    [collapsed, setCollapsed, toggleCollapsed, mobileOpen],
  );
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}

export function useSidebar(): SidebarValue {
  const value = useContext(SidebarContext);
  if (!value) throw new Error("useSidebar must be used within a SidebarProvider");
  return value;
}
