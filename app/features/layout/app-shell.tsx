import { lazy, type ReactNode, Suspense } from "react";
import { useLocation } from "react-router";
import { pathsSwitchedOff } from "../../../core/index.ts";
import type { PublicConfig } from "../../../server/services.ts";
import { AppToaster } from "../../components/app-toaster.tsx";
import { AppErrorBoundary, RouteErrorBoundary } from "../../components/errors/boundaries.tsx";
import { StaffMfaNotice } from "../../components/staff-enrolment.tsx";
import { ThemeProvider, ThemeToggle } from "../../components/theme.tsx";
import { AuthProvider, type ClientUser, useAuth } from "../../lib/session/auth-context.tsx";
import { AuthSecurityMonitor } from "../../lib/session/security-monitor.tsx";
import { BrandMark } from "./brand.tsx";
import { useDebugMode } from "./debug.tsx";
import { Footer } from "./footer.tsx";
import { MobileHeader } from "./mobile-header.tsx";
import { Sidebar } from "./sidebar.tsx";
import { SidebarProvider } from "./sidebar-context.tsx";

/** Loaded only when debug mode is on. */
const DebugPanel = lazy(() => import("./debug-panel.tsx"));

export const FALLBACK_PRODUCT_NAME = "Lumen Hub";
export const FALLBACK_TAGLINE = "Education, Tools, Resources";

function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[70] focus:rounded-lg focus:bg-accent focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-accent-ink"
    >
      Skip to content
    </a>
  );
}

export interface AppShellProps {
  user: ClientUser;
  config: Pick<PublicConfig, "productName" | "tagline" | "featureFlags">;
  debug: boolean;
  children: ReactNode;
}

function ShellBody({ config, debug, children }: Omit<AppShellProps, "user">) {
  const location = useLocation();
  const debugOn = useDebugMode(debug);
  const { isAuthenticated } = useAuth();
  return (
    <>
      {isAuthenticated ? <AuthSecurityMonitor /> : null}
      <SkipLink />
      <Sidebar
        productName={config.productName}
        tagline={config.tagline}
        search={config.featureFlags.search !== false}
        switchedOff={pathsSwitchedOff(config.featureFlags)}
      />
      <div className="flex min-h-dvh flex-col transition-[padding] duration-200 lg:pl-[var(--sidebar-expanded)] lg:collapsed:pl-[var(--sidebar-collapsed)]">
        <MobileHeader productName={config.productName} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          <div className="mx-auto w-full max-w-6xl px-4 pt-8 pb-24 sm:px-6 lg:px-10 lg:pt-10">
            {debugOn ? (
              <Suspense fallback={null}>
                <DebugPanel featureFlags={config.featureFlags} />
              </Suspense>
            ) : null}
            {isAuthenticated ? <StaffMfaNotice /> : null}
            <RouteErrorBoundary resetKey={location.key}>{children}</RouteErrorBoundary>
          </div>
        </main>
        <Footer productName={config.productName} tagline={config.tagline} />
      </div>
      <AppToaster />
    </>
  );
}

/**
 * Sidebar, header, main, footer and toasts around a page; the status overlay and the start-up
 * loader are docked in the sidebar and the top bar.
 */
export function AppShell({ user, config, debug, children }: AppShellProps) {
  return (
    <AppErrorBoundary>
      <ThemeProvider>
        <AuthProvider user={user}>
          <SidebarProvider>
            <ShellBody config={config} debug={debug}>
              {children}
            </ShellBody>
          </SidebarProvider>
        </AuthProvider>
      </ThemeProvider>
    </AppErrorBoundary>
  );
}

/**
 * The frame for errors raised before the user context was loaded (e.g. the route guard's 403): brand,
 * theme toggle, the message and the footer, without user-specific navigation.
 */
export function ErrorShell({
  productName,
  tagline,
  children,
}: {
  productName: string;
  tagline: string;
  children: ReactNode;
}) {
  return (
    <ThemeProvider>
      <SkipLink />
      <div className="flex min-h-dvh flex-col">
        <header className="flex h-14 items-center gap-3 border-b border-line px-4 sm:px-6">
          <a href="/" className="flex items-center gap-2.5 rounded-md">
            <BrandMark className="size-7" />
            <span className="text-sm font-semibold text-ink">{productName}</span>
          </a>
          <ThemeToggle className="ml-auto" />
        </header>
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <Footer productName={productName} tagline={tagline} />
      </div>
      <AppToaster />
    </ThemeProvider>
  );
}
