import { KeyRound, LoaderCircle, LogIn } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { LOCKOUT_MESSAGE } from "../../../core/index.ts";
import { afterSignInTarget } from "../../components/staff-enrolment.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, PasswordField } from "../../components/ui/fields.tsx";
import { Notice, type NoticeTone } from "../../components/ui/notice.tsx";
import { beginSessionChange } from "../../lib/session/auth-context.tsx";
import { ForgotPassword } from "./forgot-password.tsx";
import { formatCountdown } from "./form-helpers.ts";
import { type SecondFactorChallenge, SecondFactorForm, signInFirstStep } from "./second-factor-form.tsx";
import { clientBlockedUntil } from "./sign-in-client.ts";
import { useCountdown } from "./use-countdown.ts";

export function confirmPath(email: string | null, redirectTo: string): string {
  const params = new URLSearchParams();
  if (email) params.set("email", email);
  if (redirectTo !== "/") params.set("redirect", redirectTo);
  const q = params.toString();
  return q ? `/auth/confirm?${q}` : "/auth/confirm";
}

interface Message {
  tone: NoticeTone;
  text: string;
  /** EMAIL_NOT_VERIFIED: link to the confirmation page */
  confirmEmail?: string | null;
}

/**
 * Sign in with an e-mail address (contains "@"), a verified phone number, or a username.
 * 401, 403 (e-mail not confirmed) and 429 (locked out, with a countdown) are shown above the form;
 * 'Forgot password?' swaps in the reset-by-code flow on the same page.
 */
export function SignInForm({
  redirectTo,
  initialEmail,
  confirmed,
}: {
  redirectTo: string;
  initialEmail: string;
  confirmed: boolean;
}) {
  const [view, setView] = useState<"signin" | "forgot">("signin");
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const [identifier, setIdentifier] = useState(initialEmail);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<Message | null>(
    confirmed ? { tone: "ok", text: "Your e-mail address is confirmed. Sign in to continue." } : null,
  );
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const left = useCountdown(retryAt);
  const locked = left > 0;
  const messageId = useId();
  const countdownId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  const identifierRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLDivElement>(null);

  // A block recorded earlier in this tab (spec §5 client throttle) still applies after a reload.
  useEffect(() => {
    const until = clientBlockedUntil();
    if (until) {
      setRetryAt(until);
      setMessage({ tone: "danger", text: LOCKOUT_MESSAGE });
    }
  }, []);

  // Pre-filled e-mail (after confirming or resetting): the password is what is missing.
  useEffect(() => {
    if (initialEmail && view === "signin") passwordRef.current?.focus();
  }, [initialEmail, view]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (locked || pending) return;
    const form = new FormData(event.currentTarget);
    const id = String(form.get("identifier") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!id || !password) {
      setMessage({ tone: "danger", text: "Enter your e-mail address or username, and your password." });
      (id ? passwordRef : identifierRef).current?.focus();
      return;
    }
    setPending(true);
    setMessage(null);
    const result = await signInFirstStep(id, password);
    if (result.ok) {
      if ("challenge" in result && result.challenge) {
        setPending(false);
        setChallenge(result.challenge);
        return;
      }
      // A staff account without a second factor is led to enrolment (decision 012).
      const target = await afterSignInTarget(redirectTo);
      beginSessionChange();
      window.location.assign(target);
      return;
    }
    setPending(false);
    setMessage({
      tone: "danger",
      text: result.message,
      confirmEmail: result.unverified ? result.unverified.email : undefined,
    });
    if (result.retryAt) setRetryAt(result.retryAt);
    messageRef.current?.focus();
  }

  if (challenge) {
    return (
      <SecondFactorForm
        challenge={challenge}
        redirectTo={redirectTo}
        onCancel={() => {
          setChallenge(null);
          setMessage(null);
          window.setTimeout(() => passwordRef.current?.focus(), 0);
        }}
      />
    );
  }

  if (view === "forgot") {
    return (
      <ForgotPassword
        initialEmail={identifier.includes("@") ? identifier.trim() : ""}
        onCancel={() => setView("signin")}
        onDone={(email) => {
          setIdentifier(email);
          setMessage({
            tone: "ok",
            text: "Your password was changed and every device was signed out. Sign in with your new password.",
          });
          setRetryAt(null);
          setView("signin");
          window.setTimeout(() => passwordRef.current?.focus(), 0);
        }}
      />
    );
  }

  return (
    <form
      method="post"
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-describedby={message ? messageId : undefined}
    >
      <div id={messageId} ref={messageRef} tabIndex={-1} aria-live="polite" className="focus:outline-none">
        {message ? (
          <Notice
            tone={message.tone}
            role={message.tone === "danger" ? "alert" : "status"}
            title={message.text}
          >
            {message.confirmEmail !== undefined ? (
              <Link
                to={confirmPath(message.confirmEmail, redirectTo)}
                className="font-medium text-accent-text hover:underline"
              >
                Confirm your e-mail address
              </Link>
            ) : null}
          </Notice>
        ) : null}
      </div>
      {locked ? (
        <p id={countdownId} className="text-center text-sm text-ink-muted">
          You can try again in <span className="font-mono font-medium text-ink">{formatCountdown(left)}</span>
        </p>
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
        value={identifier}
        onChange={(e) => setIdentifier(e.target.value)}
        inputRef={identifierRef}
      />
      <div>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          disabled={pending}
          inputRef={passwordRef}
        />
        <div className="mt-1.5 flex justify-end">
          <button
            type="button"
            onClick={() => {
              setMessage(null);
              setView("forgot");
            }}
            className="rounded text-xs font-medium text-accent-text hover:underline"
          >
            Forgot password?
          </button>
        </div>
      </div>
      <Button
        type="submit"
        className="w-full"
        disabled={pending || locked}
        aria-describedby={locked ? countdownId : undefined}
      >
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <LogIn aria-hidden="true" className="size-4" />
        )}
        {pending ? "Signing in…" : "Sign in"}
      </Button>
      <p className="flex items-center justify-center gap-1.5 text-center text-xs text-ink-subtle">
        <KeyRound aria-hidden="true" className="size-3.5" />
        Got a confirmation code?{" "}
        <Link to={confirmPath(null, redirectTo)} className="font-medium text-accent-text hover:underline">
          Confirm your e-mail
        </Link>
      </p>
    </form>
  );
}
