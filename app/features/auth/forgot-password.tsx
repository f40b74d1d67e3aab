import { ArrowLeft, LoaderCircle, Mail } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { checkPassword } from "../../../core/index.ts";
import { PasswordChecklist } from "../../components/password-checklist.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, PasswordField } from "../../components/ui/fields.tsx";
import { Notice, type NoticeTone } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { ResendCodeButton, rememberCodeSent } from "./resend-button.tsx";
import { cleanCode, isCode, isEmail } from "./validation.ts";

const requestCode = (email: string) =>
  settle(api.post("/api/auth/email-otp/request-password-reset", { email }));

/**
 * Password reset by e-mailed code, on the sign-in page: (1) ask for a code, (2) enter the code and a
 * new password (policy checklist). Success revokes every session; the user then signs in.
 */
export function ForgotPassword({
  initialEmail,
  onCancel,
  onDone,
}: {
  initialEmail: string;
  onCancel: () => void;
  onDone: (email: string) => void;
}) {
  const [step, setStep] = useState<"request" | "reset">("request");
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [errors, setErrors] = useState<{ email?: string; code?: string; password?: string }>({});
  const checklistId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (step === "reset") codeRef.current?.focus();
    else emailRef.current?.focus();
  }, [step]);

  async function onRequest(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!isEmail(address)) {
      setErrors({ email: "Enter the e-mail address of your account." });
      emailRef.current?.focus();
      return;
    }
    setErrors({});
    setPending(true);
    const result = await requestCode(address);
    setPending(false);
    if (!result.ok) {
      setMessage({ tone: "danger", text: result.error.message });
      return;
    }
    rememberCodeSent(address);
    setMessage({
      tone: "info",
      text: `If an account uses ${address}, we sent it a 6-digit code. Enter it below with your new password.`,
    });
    setStep("reset");
  }

  async function onReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: typeof errors = {};
    if (!isCode(code)) next.code = "Enter the 6-digit code from the e-mail.";
    if (!checkPassword(password).ok) next.password = "Choose a password that meets every requirement below.";
    setErrors(next);
    if (next.code) return codeRef.current?.focus();
    if (next.password) return passwordRef.current?.focus();
    setPending(true);
    const result = await settle(
      api.post("/api/auth/email-otp/reset-password", { email: email.trim(), otp: code, password }),
    );
    setPending(false);
    if (result.ok) {
      onDone(email.trim());
      return;
    }
    const text = result.error.message;
    if (/password/i.test(`${result.error.code ?? ""} ${text}`)) {
      setErrors({ password: text });
      passwordRef.current?.focus();
    } else {
      setErrors({ code: text });
      codeRef.current?.focus();
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={onCancel}
          aria-label="Back to sign in"
          className="inline-flex size-8 items-center justify-center rounded-md text-ink-muted hover:bg-sunken hover:text-ink"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
        </button>
        <h2 ref={headingRef} className="text-base font-semibold text-ink">
          Reset your password
        </h2>
      </div>
      <div aria-live="polite">
        {message ? (
          <Notice
            tone={message.tone}
            role={message.tone === "danger" ? "alert" : "status"}
            title={message.text}
          />
        ) : null}
      </div>
      {step === "request" ? (
        <form method="post" onSubmit={onRequest} noValidate className="space-y-4">
          <p className="text-sm text-ink-muted">
            Enter the e-mail address of your account and we will send you a 6-digit code.
          </p>
          <Field
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.email}
            inputRef={emailRef}
            disabled={pending}
          />
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? (
              <LoaderCircle aria-hidden="true" className="spin size-4" />
            ) : (
              <Mail aria-hidden="true" className="size-4" />
            )}
            {pending ? "Sending…" : "Send code"}
          </Button>
        </form>
      ) : (
        <form method="post" onSubmit={onReset} noValidate className="space-y-4">
          <Field
            label="Reset code"
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
            className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
          />
          <div>
            <PasswordField
              label="New password"
              name="new-password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              describedBy={checklistId}
              error={errors.password}
              inputRef={passwordRef}
              disabled={pending}
            />
            <PasswordChecklist password={password} id={checklistId} />
          </div>
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? <LoaderCircle aria-hidden="true" className="spin size-4" /> : null}
            {pending ? "Saving…" : "Set new password"}
          </Button>
          <ResendCodeButton
            email={email.trim()}
            send={() => requestCode(email.trim())}
            onResult={(r) => setMessage({ tone: r.ok ? "info" : "warn", text: r.message })}
            disabled={pending}
          />
        </form>
      )}
    </div>
  );
}
