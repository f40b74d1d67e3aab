import { Link } from "react-router";
import { safeRedirectTarget } from "../../../core/index.ts";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { SignInForm } from "../../features/auth/sign-in-form.tsx";
import { SignUpForm } from "../../features/auth/sign-up-form.tsx";
import { BrandMark } from "../../features/layout/brand.tsx";
import { screenMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/sign-in";

type Mode = "signin" | "signup";

function modeOf(pathname: string): Mode {
  return pathname.replace(/\/+$/, "").endsWith("/signup") ? "signup" : "signin";
}

export const meta: Route.MetaFunction = (args) =>
  modeOf(args.location.pathname) === "signup"
    ? screenMeta(args, "Sign Up", "Create a free account to save your progress and unlock more content.")
    : screenMeta(args, "Sign In", "Sign in with your e-mail address or username.");

export function loader({ url }: Route.LoaderArgs) {
  return {
    mode: modeOf(url.pathname),
    redirectTo: safeRedirectTarget(url.searchParams.get("redirect")),
    confirmed: url.searchParams.get("confirmed") === "1",
    email: (url.searchParams.get("email") ?? "").slice(0, 320),
    account: url.searchParams.get("account") === "business" ? ("business" as const) : ("personal" as const),
  };
}

/** Without JavaScript the form posts here; nothing is read or stored. */
export function action() {
  return { error: "JavaScript is required to sign in. Please enable it and try again." };
}

function withRedirect(path: string, redirectTo: string): string {
  if (redirectTo === "/") return path;
  return `${path}${path.includes("?") ? "&" : "?"}redirect=${encodeURIComponent(redirectTo)}`;
}

export default function SignInPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, redirectTo, confirmed, email, account } = loaderData;
  const { isAuthenticated, user } = useAuth();

  const tabs: Array<{ mode: Mode; label: string; path: string }> = [
    { mode: "signin", label: "Sign in", path: withRedirect("/auth/signin", redirectTo) },
    {
      mode: "signup",
      label: "Sign up",
      path: withRedirect(
        account === "business" ? "/auth/signup?account=business" : "/auth/signup",
        redirectTo,
      ),
    },
  ];

  return (
    <div className="mx-auto max-w-md py-4 sm:py-8">
      <div className="mb-6 flex flex-col items-center text-center">
        <BrandMark className="size-10" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-ink">
          {mode === "signup" ? "Create your account" : "Welcome back"}
        </h1>
        <p className="mt-1 text-sm text-ink-muted">
          {mode === "signup" ? "Free to start. Upgrade any time." : "Sign in to continue learning."}
        </p>
      </div>
      <div className="rounded-2xl border border-line bg-elevated p-6 shadow-sm sm:p-8">
        <nav aria-label="Sign in or sign up" className="mb-6 grid grid-cols-2 gap-1 rounded-lg bg-sunken p-1">
          {tabs.map((t) => (
            <Link
              key={t.mode}
              to={t.path}
              replace
              preventScrollReset
              aria-current={mode === t.mode ? "page" : undefined}
              className={cx(
                "rounded-md py-1.5 text-center text-sm font-medium transition-colors",
                mode === t.mode ? "bg-elevated text-ink shadow-sm" : "text-ink-muted hover:text-ink",
              )}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        {actionData?.error ? (
          <Notice tone="danger" role="alert" title={actionData.error} className="mb-4" />
        ) : null}
        {isAuthenticated ? (
          <Notice tone="ok" title="You're already signed in" className="mb-4">
            Signed in as {user.email ?? user.username}.{" "}
            <Link to={redirectTo} className="font-medium text-accent-text hover:underline">
              Continue
            </Link>
          </Notice>
        ) : null}
        {mode === "signin" ? (
          <SignInForm
            key={`${confirmed}:${email}`}
            redirectTo={redirectTo}
            initialEmail={email}
            confirmed={confirmed}
          />
        ) : (
          <SignUpForm redirectTo={redirectTo} initialAccount={account} />
        )}
      </div>
    </div>
  );
}
