import { KeyRound, LoaderCircle, MessageSquareText, ShieldCheck } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { LOCKOUT_MESSAGE, LOGIN_LOCKOUT_MS, safeRedirectTarget } from "../../../core/index.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice, type NoticeTone } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { beginSessionChange } from "../../lib/session/auth-context.tsx";
import { updateMetrics } from "../../lib/session/session-cache.ts";
import { formatCountdown } from "./form-helpers.ts";
import { clientBlockedUntil, nextThrottle, postSignIn, type SignInResult } from "./sign-in-client.ts";
import { useCountdown } from "./use-countdown.ts";

/** What the password step answers when the account has two-factor authentication on. */
export interface SecondFactorChallenge {
  /** "totp" (authenticator app) and, with a verified phone, "otp" (a code by SMS). */
  methods: string[];
}

/** The challenge in a sign-in answer (`{twoFactorRedirect: true, twoFactorMethods}`), or null. */
export function readSecondFactorChallenge(data: unknown): SecondFactorChallenge | null {
  if (!data || typeof data !== "object") return null;
  const d = data as { twoFactorRedirect?: unknown; twoFactorMethods?: unknown };
  if (d.twoFactorRedirect !== true) return null;
  const methods = Array.isArray(d.twoFactorMethods)
    ? d.twoFactorMethods.filter((m): m is string => typeof m === "string")
    : [];
  return { methods };
}

/**
 * The password step (client throttle, e-mail, username or phone, lockout, unconfirmed e-mail) that
 * also reports a second-factor challenge.
 */
export async function signInFirstStep(
  identifier: string,
  password: string,
): Promise<SignInResult | { ok: true; challenge: SecondFactorChallenge | null }> {
  const blocked = clientBlockedUntil();
  if (blocked) return { ok: false, message: LOCKOUT_MESSAGE, retryAt: blocked };
  const id = identifier.trim();
  const byEmail = id.includes("@");
  const result = await postSignIn(id, password);
  if (result.ok) {
    const challenge = readSecondFactorChallenge(result.data);
    // A pending second factor is not a success yet: the client count stays until it is answered.
    if (!challenge) updateMetrics(() => ({ signInFailures: 0, blockedUntil: null }));
    return { ok: true, challenge };
  }
  const { error } = result;
  if (error.status === 429) {
    const retryAt = Date.now() + (error.retryAfterS ?? LOGIN_LOCKOUT_MS / 1000) * 1000;
    updateMetrics(() => ({ blockedUntil: retryAt }));
    return { ok: false, message: LOCKOUT_MESSAGE, retryAt };
  }
  if (error.status === 403 && error.code === "EMAIL_NOT_VERIFIED") {
    return {
      ok: false,
      message: error.message || "Confirm your e-mail address before you sign in.",
      unverified: { email: byEmail ? id : null },
    };
  }
  if (error.status === 401) {
    updateMetrics((m) => nextThrottle(m.signInFailures, m.blockedUntil, Date.now()));
  }
  return { ok: false, message: error.message };
}

type Mode = "totp" | "backup" | "otp";

const PATHS: Record<Mode, string> = {
  totp: "/api/auth/two-factor/verify-totp",
  backup: "/api/auth/two-factor/verify-backup-code",
  otp: "/api/auth/two-factor/verify-otp",
};

const LABELS: Record<Mode, string> = {
  totp: "Code from your authenticator app",
  backup: "Backup code",
  otp: "Code from the SMS",
};

/** The message shown for a failed second-factor answer. */
export function secondFactorError(status: number, code: string | null, message: string): string {
  if (status === 429) return LOCKOUT_MESSAGE;
  if (code === "INVALID_TWO_FACTOR_COOKIE")
    return "This sign-in has expired. Start again with your password.";
  if (code === "OTP_HAS_EXPIRED") return "This code has expired. Send a new one.";
  if (code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") return "Too many wrong codes. Send a new code.";
  if (status === 401 || code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE") {
    return "That code is not right. Check it and try again.";
  }
  return message;
}

/**
 * The second step of sign-in when two-factor authentication is on: a code from the authenticator
 * app (or a backup code, or a code by SMS when a verified phone exists). Wrong codes count toward
 * the same lockout as wrong passwords; the lockout is shown with a countdown as in the first step.
 */
export function SecondFactorForm({
  challenge,
  redirectTo,
  onCancel,
}: {
  challenge: SecondFactorChallenge;
  redirectTo: string;
  onCancel: () => void;
}) {
  const [mode, setMode] = useState<Mode>(challenge.methods.includes("totp") ? "totp" : "otp");
  const [code, setCode] = useState("");
  const [pending, setPending] = useState(false);
  const [smsSent, setSmsSent] = useState(false);
  const [message, setMessage] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const left = useCountdown(retryAt);
  const locked = left > 0;
  const messageId = useId();
  const codeRef = useRef<HTMLInputElement>(null);
  const canSms = challenge.methods.includes("otp");

  useEffect(() => {
    codeRef.current?.focus();
  }, []);

  function switchTo(next: Mode) {
    setMode(next);
    setCode("");
    setMessage(null);
    window.setTimeout(() => codeRef.current?.focus(), 0);
  }

  async function sendSms() {
    if (pending || locked) return;
    setPending(true);
    const result = await settle(api.post("/api/auth/two-factor/send-otp", {}));
    setPending(false);
    if (result.ok) {
      setSmsSent(true);
      setMode("otp");
      setCode("");
      setMessage({ tone: "ok", text: "We sent a code to your verified phone number." });
      window.setTimeout(() => codeRef.current?.focus(), 0);
      return;
    }
    setMessage({
      tone: "danger",
      text: secondFactorError(result.error.status, result.error.code, result.error.message),
    });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || locked) return;
    const value = code.trim();
    if (!value) {
      setMessage({ tone: "danger", text: "Enter the code." });
      codeRef.current?.focus();
      return;
    }
    setPending(true);
    setMessage(null);
    const result = await settle(api.post(PATHS[mode], { code: value }));
    if (result.ok) {
      updateMetrics(() => ({ signInFailures: 0, blockedUntil: null }));
      beginSessionChange();
      window.location.assign(safeRedirectTarget(redirectTo));
      return;
    }
    setPending(false);
    setCode("");
    if (result.error.status === 429) {
      const until = Date.now() + (result.error.retryAfterS ?? LOGIN_LOCKOUT_MS / 1000) * 1000;
      updateMetrics(() => ({ blockedUntil: until }));
      setRetryAt(until);
    }
    setMessage({
      tone: "danger",
      text: secondFactorError(result.error.status, result.error.code, result.error.message),
    });
    codeRef.current?.focus();
  }

  const numeric = mode !== "backup";
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-describedby={messageId}>
      <div className="flex items-start gap-3">
        <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 text-accent-text" />
        <div>
          <h2 className="text-sm font-semibold text-ink">Two-factor authentication</h2>
          <p className="text-sm text-ink-muted">
            {mode === "totp"
              ? "Enter the 6-digit code from your authenticator app."
              : mode === "backup"
                ? "Enter one of your backup codes. Each code works once."
                : smsSent
                  ? "Enter the 6-digit code we sent by SMS."
                  : "Send a code by SMS to your verified phone number."}
          </p>
        </div>
      </div>
      <div id={messageId} aria-live="polite">
        {message ? (
          <Notice
            tone={message.tone}
            role={message.tone === "danger" ? "alert" : "status"}
            title={message.text}
          />
        ) : null}
      </div>
      {locked ? (
        <p className="text-center text-sm text-ink-muted">
          You can try again in <span className="font-mono font-medium text-ink">{formatCountdown(left)}</span>
        </p>
      ) : null}
      {mode !== "otp" || smsSent ? (
        <Field
          label={LABELS[mode]}
          name="code"
          type="text"
          autoComplete="one-time-code"
          inputMode={numeric ? "numeric" : "text"}
          pattern={numeric ? "[0-9]*" : undefined}
          maxLength={numeric ? 6 : 32}
          autoCapitalize="none"
          spellCheck={false}
          required
          disabled={pending}
          value={code}
          onChange={(e) => setCode(numeric ? e.target.value.replace(/\D/g, "") : e.target.value)}
          inputRef={codeRef}
        />
      ) : null}
      {mode !== "otp" || smsSent ? (
        <Button type="submit" className="w-full" disabled={pending || locked}>
          {pending ? (
            <LoaderCircle aria-hidden="true" className="spin size-4" />
          ) : (
            <KeyRound aria-hidden="true" className="size-4" />
          )}
          {pending ? "Checking…" : "Verify and sign in"}
        </Button>
      ) : null}
      <div className="flex flex-col items-center gap-2 text-sm">
        {mode !== "totp" && challenge.methods.includes("totp") ? (
          <button
            type="button"
            className="font-medium text-accent-text hover:underline"
            onClick={() => switchTo("totp")}
          >
            Use your authenticator app
          </button>
        ) : null}
        {mode !== "backup" ? (
          <button
            type="button"
            className="font-medium text-accent-text hover:underline"
            onClick={() => switchTo("backup")}
          >
            Use a backup code
          </button>
        ) : null}
        {canSms ? (
          <button
            type="button"
            className="inline-flex items-center gap-1.5 font-medium text-accent-text hover:underline"
            onClick={() => void sendSms()}
            disabled={pending || locked}
          >
            <MessageSquareText aria-hidden="true" className="size-4" />
            {smsSent ? "Send a new code by SMS" : "Send a code by SMS"}
          </button>
        ) : null}
        <button type="button" className="text-ink-muted hover:underline" onClick={onCancel}>
          Back to sign-in
        </button>
      </div>
    </form>
  );
}
