import { LoaderCircle, LogIn, UserPlus } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { checkPassword, safeRedirectTarget } from "../../../core/index.ts";
import { Button } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { useAuth } from "../../features/auth/auth-context.tsx";
import { Field, PasswordField } from "../../features/auth/fields.tsx";
import { PasswordChecklist } from "../../features/auth/password-checklist.tsx";
import { signIn } from "../../features/auth/sign-in-client.ts";
import { BrandMark } from "../../features/layout/brand.tsx";
import { screenMeta } from "../../lib/meta.ts";
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
  };
}

/** Without JavaScript the form posts here; nothing is read or stored. */
export function action() {
  return { error: "JavaScript is required to sign in. Please enable it and try again." };
}

function withRedirect(path: string, redirectTo: string): string {
  return redirectTo === "/" ? path : `${path}?redirect=${encodeURIComponent(redirectTo)}`;
}

function SignInForm({ redirectTo }: { redirectTo: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const identifier = String(form.get("identifier") ?? "");
    const password = String(form.get("password") ?? "");
    if (!identifier.trim() || !password) {
      setError("Enter your e-mail address or username, and your password.");
      return;
    }
    setPending(true);
    setError(null);
    const result = await signIn(identifier, password);
    if (result.ok) {
      window.location.assign(safeRedirectTarget(redirectTo));
      return;
    }
    setPending(false);
    setError(result.message);
  }

  return (
    <form
      method="post"
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-describedby={error ? errorId : undefined}
    >
      {error ? (
        <div id={errorId}>
          <Notice tone="danger" role="alert" title={error} />
        </div>
      ) : null}
      <Field
        label="E-mail, username or phone"
        name="identifier"
        type="text"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        disabled={pending}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        required
        disabled={pending}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <LogIn aria-hidden="true" className="size-4" />
        )}
        {pending ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-center text-xs text-ink-subtle">
        Got a confirmation code?{" "}
        <Link to="/auth/confirm" className="font-medium text-accent-text hover:underline">
          Confirm your e-mail
        </Link>
      </p>
    </form>
  );
}

function SignUpForm() {
  const [password, setPassword] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const checklistId = useId();
  const policy = checkPassword(password);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!policy.ok) {
      setNotice("Choose a password that meets every requirement below.");
      return;
    }
    setNotice(
      "Self sign-up opens in the next release. Nothing was sent: your details stayed in this browser.",
    );
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <Notice tone="info" title="Self sign-up opens in the next release">
        Until then an administrator creates accounts. The form below shows what you will be asked for.
      </Notice>
      {notice ? <Notice tone={policy.ok ? "info" : "warn"} role="status" title={notice} /> : null}
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <Field label="E-mail" name="email" type="email" autoComplete="email" required />
      <Field label="Given name" name="given_name" autoComplete="given-name" required />
      <Field
        label="Phone number"
        name="phone_number"
        type="tel"
        autoComplete="tel"
        optional
        hint="International format, for example +44 20 7946 0958."
      />
      <div>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          describedBy={checklistId}
        />
        <PasswordChecklist password={password} id={checklistId} />
      </div>
      <Button type="submit" className="w-full">
        <UserPlus aria-hidden="true" className="size-4" />
        Create account
      </Button>
    </form>
  );
}

export default function SignInPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, redirectTo } = loaderData;
  const { isAuthenticated, user } = useAuth();

  const tabs: Array<{ mode: Mode; label: string; path: string }> = [
    { mode: "signin", label: "Sign in", path: withRedirect("/auth/signin", redirectTo) },
    { mode: "signup", label: "Sign up", path: withRedirect("/auth/signup", redirectTo) },
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
        {mode === "signin" ? <SignInForm redirectTo={redirectTo} /> : <SignUpForm />}
      </div>
    </div>
  );
}
