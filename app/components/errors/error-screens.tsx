import {
  Ban,
  Bug,
  FlaskConical,
  House,
  RefreshCw,
  RotateCcw,
  SearchX,
  ShieldCheck,
  TriangleAlert,
} from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import {
  ADMIN_SCOPE_HOLDERS,
  type AdminScope,
  ENROL_MFA_PATH,
  matchRoute,
  type RouteRole,
} from "../../../core/index.ts";
import type { ForbiddenPayload } from "../../lib/guard.server.ts";
import { Button, buttonClass } from "../ui/button.tsx";

function Centered({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
      <div className="mb-6 flex size-14 items-center justify-center rounded-2xl border border-line bg-sunken text-ink-muted">
        {icon}
      </div>
      {children}
    </div>
  );
}

const ROLE_NAMES: Partial<Record<RouteRole, string>> = {
  ContentCreator: "Content Creator",
  ContentManager: "Content Manager",
  AdminUser: "Admin",
  SuperUser: "Super Admin",
};

function listOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** What the forbidden page needs, worded for people. */
export function describeForbidden(payload: ForbiddenPayload | null): {
  requirement: string | null;
  tier: string | null;
  /** Set when an admin screen needs an admin scope the user lacks. */
  scope?: AdminScope;
} {
  if (!payload) return { requirement: null, tier: null };
  if (payload.reason === "tier" && payload.requiredTier) {
    return { requirement: `the ${payload.requiredTier} plan or higher`, tier: payload.requiredTier };
  }
  if (payload.reason === "role") {
    const route = matchRoute(payload.path)?.route;
    const roles = (route?.rolesAllowed ?? []).map((r) => ROLE_NAMES[r] ?? r);
    if (roles.length > 0) return { requirement: `the ${listOr(roles)} role`, tier: null };
    if (route?.accountTypes?.length) {
      return { requirement: `a ${listOr(route.accountTypes)} account`, tier: null };
    }
  }
  if (payload.reason === "auth") return { requirement: "a signed-in account", tier: null };
  if (payload.reason === "scope") {
    const scope = matchRoute(payload.path)?.route.adminScope ?? "platform";
    return { requirement: ADMIN_SCOPE_HOLDERS[scope], tier: null, scope };
  }
  return { requirement: null, tier: payload.requiredTier };
}

/** The route's staff role names, for the enrolment screen ("Admin", "Content Manager or Admin"). */
function staffRoleNames(path: string): string {
  const roles = (matchRoute(path)?.route.rolesAllowed ?? []).map((r) => ROLE_NAMES[r] ?? r);
  return roles.length ? listOr(roles) : "staff";
}

/** A staff page for an account whose staff role waits for a second factor: lead to enrolment. */
export function EnrolMfaScreen({ path }: { path: string }) {
  return (
    <Centered icon={<ShieldCheck aria-hidden="true" className="size-6" />}>
      <p className="text-sm font-semibold text-danger-text">403</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
        Set up two-factor authentication first
      </h1>
      <p className="mt-3 text-ink-muted">
        This page needs the {staffRoleNames(path)} role. Your account has it, but staff rights unlock only
        after you set up an authenticator app for two-factor sign-in. It takes a minute.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a href={ENROL_MFA_PATH} className={buttonClass("primary")}>
          <ShieldCheck aria-hidden="true" className="size-4" />
          Set up two-factor authentication
        </a>
        <Link to="/" className={buttonClass("secondary")}>
          <House aria-hidden="true" className="size-4" />
          Go home
        </Link>
      </div>
    </Centered>
  );
}

export function ForbiddenScreen({ payload }: { payload: ForbiddenPayload | null }) {
  if (payload?.reason === "mfa") return <EnrolMfaScreen path={payload.path} />;
  const { requirement, tier, scope } = describeForbidden(payload);
  return (
    <Centered icon={<Ban aria-hidden="true" className="size-6" />}>
      <p className="text-sm font-semibold text-danger-text">403</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Access denied</h1>
      <p className="mt-3 text-ink-muted">
        {scope === "platform"
          ? `This page needs ${requirement}: it shows the whole installation. Organisation administrators manage their own organisation from the Business Hub.`
          : scope
            ? `This page needs ${requirement}.`
            : requirement
              ? `This page requires ${requirement}. Your account doesn't have it yet.`
              : "You don't have access to this page."}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {scope ? (
          <Link to="/business/dashboard" className={buttonClass("primary")}>
            Business dashboard
          </Link>
        ) : tier || !requirement ? (
          <Link to="/pricing" className={buttonClass("primary")}>
            {tier ? `See the ${tier} plan` : "Compare plans"}
          </Link>
        ) : null}
        <Link to="/" className={buttonClass("secondary")}>
          <House aria-hidden="true" className="size-4" />
          Go home
        </Link>
      </div>
    </Centered>
  );
}

export function NotFoundScreen() {
  return (
    <Centered icon={<SearchX aria-hidden="true" className="size-6" />}>
      <p className="text-sm font-semibold text-accent-text">404</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Page not found</h1>
      <p className="mt-3 text-ink-muted">
        We couldn't find that page. It may have moved, or the link may be wrong.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClass("primary")}>
          <House aria-hidden="true" className="size-4" />
          Go home
        </Link>
        <Link to="/documentation" className={buttonClass("secondary")}>
          Documentation
        </Link>
      </div>
    </Centered>
  );
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string" && error) return error;
  return "An unexpected error occurred";
}

/** The generic error screen (spec §2 Other UI). */
export function GenericErrorScreen({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Centered icon={<TriangleAlert aria-hidden="true" className="size-6" />}>
      <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Something went wrong</h1>
      <p role="alert" className="mt-3 break-words text-ink-muted">
        {message || "An unexpected error occurred"}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry}>
          <RotateCcw aria-hidden="true" className="size-4" />
          Try again
        </Button>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Reload page
        </Button>
      </div>
    </Centered>
  );
}

/** A tiny component that proves React still renders after a crash of the application shell. */
function TestComponent() {
  const [clicks, setClicks] = useState(0);
  return (
    <div className="mt-6 w-full rounded-xl border border-ok-line bg-ok-soft p-4 text-left text-sm">
      <p className="font-medium text-ok-text">Test component rendered successfully.</p>
      <p className="mt-1 text-ink-muted">
        React is running and can update state: clicked {clicks} {clicks === 1 ? "time" : "times"}.
      </p>
      <Button size="sm" variant="secondary" className="mt-3" onClick={() => setClicks((c) => c + 1)}>
        Click me
      </Button>
    </div>
  );
}

/** The global 'Application Error' screen, for failures outside a single page (the shell itself). */
export function ApplicationErrorScreen({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const [showTest, setShowTest] = useState(false);
  const [showDebug, setShowDebug] = useState(false);
  const message = errorMessage(error);
  const stack = error instanceof Error ? error.stack : undefined;
  return (
    <main
      id="main"
      className="mx-auto flex min-h-dvh max-w-2xl flex-col items-center justify-center px-4 py-16 text-center"
    >
      <div className="mb-6 flex size-14 items-center justify-center rounded-2xl border border-danger-line bg-danger-soft text-danger-text">
        <TriangleAlert aria-hidden="true" className="size-6" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Application Error</h1>
      <p role="alert" className="mt-3 break-words text-ink-muted">
        Something went wrong: {message}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry}>
          <RotateCcw aria-hidden="true" className="size-4" />
          Try again
        </Button>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Reload page
        </Button>
        <Button variant="secondary" aria-expanded={showTest} onClick={() => setShowTest((v) => !v)}>
          <FlaskConical aria-hidden="true" className="size-4" />
          {showTest ? "Hide Test Component" : "Show Test Component"}
        </Button>
        <Button variant="ghost" aria-expanded={showDebug} onClick={() => setShowDebug((v) => !v)}>
          <Bug aria-hidden="true" className="size-4" />
          {showDebug ? "Hide debug view" : "Debug view"}
        </Button>
      </div>
      {showTest ? <TestComponent /> : null}
      {showDebug ? (
        <div className="mt-6 w-full text-left">
          <h2 className="mb-2 text-xs font-semibold uppercase tracking-wider text-ink-subtle">Debug view</h2>
          <pre className="max-h-80 overflow-auto rounded-lg border border-line bg-sunken p-3 font-mono text-xs leading-relaxed text-ink">
            {JSON.stringify(
              {
                name: error instanceof Error ? error.name : typeof error,
                message,
                url: typeof window === "undefined" ? null : window.location.href,
                userAgent: typeof navigator === "undefined" ? null : navigator.userAgent,
                time: new Date().toISOString(),
              },
              null,
              2,
            )}
            {stack ? `\n\n${stack}` : ""}
          </pre>
        </div>
      ) : null}
    </main>
  );
}
