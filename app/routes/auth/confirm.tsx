import { LoaderCircle, MailCheck } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { safeRedirectTarget } from "../../../core/index.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice, type NoticeTone } from "../../components/ui/notice.tsx";
import { ResendCodeButton } from "../../features/auth/resend-button.tsx";
import { cleanCode, isCode, isEmail } from "../../features/auth/validation.ts";
import { api, settle } from "../../lib/api.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/confirm";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/auth/confirm");

export function loader({ url }: Route.LoaderArgs) {
  return {
    identifier: (url.searchParams.get("email") ?? url.searchParams.get("username") ?? "").slice(0, 320),
    redirectTo: safeRedirectTarget(url.searchParams.get("redirect")),
  };
}

/** Without JavaScript the form posts here; nothing is read or stored. */
export function action() {
  return { error: "JavaScript is required to confirm an account. Please enable it and try again." };
}

const CODE_HINTS: Record<string, string> = {
  INVALID_OTP: "That code is not right. Check the e-mail and try again.",
  OTP_EXPIRED: "That code has expired. Ask for a new one below.",
  TOO_MANY_ATTEMPTS: "Too many wrong codes. Ask for a new one below.",
};

export function signInAfterConfirm(email: string, redirectTo: string): string {
  const params = new URLSearchParams({ confirmed: "1", email });
  if (redirectTo !== "/") params.set("redirect", redirectTo);
  return `/auth/signin?${params.toString()}`;
}

export default function Confirm({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState(loaderData.identifier);
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ identifier?: string; code?: string }>({});
  const [message, setMessage] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const identifierRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (loaderData.identifier) codeRef.current?.focus();
  }, [loaderData.identifier]);

  const email = identifier.trim();
  /** The account: by e-mail address, or by username (the server looks up its e-mail). */
  const account = email.includes("@") ? { email } : { username: email };

  function checkIdentifier(): string | undefined {
    if (!email) return "Enter the e-mail address or username you signed up with.";
    if (email.includes("@") && !isEmail(email)) return "Enter a valid e-mail address, like name@example.com.";
    return undefined;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const next = {
      identifier: checkIdentifier(),
      code: isCode(code) ? undefined : "Enter the 6-digit code from the e-mail.",
    };
    setErrors(next);
    setMessage(null);
    if (next.identifier) return identifierRef.current?.focus();
    if (next.code) return codeRef.current?.focus();
    setPending(true);
    const result = await settle(api.post("/api/auth/email-otp/verify-email", { ...account, otp: code }));
    if (result.ok) {
      showToast("E-mail confirmed", { description: "Sign in to continue." });
      navigate(signInAfterConfirm(email, loaderData.redirectTo));
      return;
    }
    setPending(false);
    // The contract's codes get plain words; anything else shows the server's own message.
    const hint = result.error.code ? CODE_HINTS[result.error.code] : undefined;
    setErrors({ code: hint ?? result.error.message });
    codeRef.current?.focus();
  }

  function canResend(): boolean {
    const problem = checkIdentifier();
    setErrors(problem ? { identifier: problem } : {});
    if (problem) identifierRef.current?.focus();
    return !problem;
  }

  return (
    <div className="mx-auto max-w-md py-4 sm:py-8">
      <div className="mb-6 flex flex-col items-center text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-accent-soft text-accent-text">
          <MailCheck aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-ink">Confirm your e-mail</h1>
        <p className="mt-1 text-sm text-ink-muted">
          {loaderData.identifier
            ? `Enter the 6-digit code we sent to ${loaderData.identifier}.`
            : "Enter the 6-digit code from the e-mail we sent you."}
        </p>
      </div>
      <div className="space-y-4 rounded-2xl border border-line bg-elevated p-6 shadow-sm sm:p-8">
        {actionData?.error ? <Notice tone="danger" role="alert" title={actionData.error} /> : null}
        <div aria-live="polite">
          {message ? <Notice tone={message.tone} role="status" title={message.text} /> : null}
        </div>
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
          <Field
            label="E-mail or username"
            name="identifier"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={identifier}
            onChange={(e) => setIdentifier(e.target.value)}
            error={errors.identifier}
            inputRef={identifierRef}
            disabled={pending}
          />
          <Field
            label="Confirmation code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            required
            value={code}
            onChange={(e) => setCode(cleanCode(e.target.value))}
            error={errors.code}
            inputRef={codeRef}
            disabled={pending}
            hint="The code is valid for a limited time. Pasting it with spaces is fine."
            className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
          />
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? <LoaderCircle aria-hidden="true" className="spin size-4" /> : null}
            {pending ? "Confirming…" : "Confirm account"}
          </Button>
        </form>
        <ResendCodeButton
          email={email}
          send={() =>
            settle(
              api.post("/api/auth/email-otp/send-verification-otp", {
                ...account,
                type: "email-verification",
              }),
            )
          }
          canSend={canResend}
          onResult={(r) => setMessage({ tone: r.ok ? "info" : "warn", text: r.message })}
          disabled={pending}
        />
        <p className="text-center text-xs text-ink-subtle">
          Already confirmed?{" "}
          <Link
            to={
              loaderData.redirectTo === "/"
                ? "/auth/signin"
                : `/auth/signin?redirect=${encodeURIComponent(loaderData.redirectTo)}`
            }
            className="font-medium text-accent-text hover:underline"
          >
            Sign in
          </Link>
        </p>
      </div>
    </div>
  );
}
