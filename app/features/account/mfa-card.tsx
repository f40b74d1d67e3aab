import { Copy, Download, LoaderCircle, ShieldCheck, Smartphone } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { Panel } from "../../components/feature-screen.tsx";
import { staffRoleLabel } from "../../components/staff-enrolment.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, PasswordField } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { type ApiError, api, settle } from "../../lib/api.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";

interface MfaStatus {
  enabled: boolean;
  totp: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  /** The number given at sign-up, until it is verified here. */
  unverifiedPhoneNumber?: string | null;
  /** Staff roles that unlock once TOTP is on (decision 012). */
  pendingStaffRoles?: string[];
}

type Step =
  | { kind: "idle" }
  | { kind: "scan"; uri: string; secret: string; svg: string; backupCodes: string[] }
  | { kind: "codes"; backupCodes: string[] };

const NOT_FRESH =
  "For your security, this needs a recent sign-in (within the last 15 minutes). Sign out, sign in again, then come back here.";

function errorText(error: ApiError): string {
  if (error.code === "SESSION_NOT_FRESH") return NOT_FRESH;
  if (error.code === "INVALID_PASSWORD") return "That password is not right.";
  if (error.code === "INVALID_CODE" || error.status === 401)
    return "That code is not right. Try the next one.";
  return error.message;
}

/** The secret (base32) of an otpauth URI, grouped in fours for typing. */
function secretOf(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Lumen Hub backup codes (each works once)\n\n${codes.join("\n")}\n`;
  return (
    <div className="space-y-3">
      <Notice tone="warn" role="status" title="Save your backup codes now">
        <p>They are shown only once. Each code signs you in once if you lose your authenticator.</p>
      </Notice>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c} className="rounded bg-surface-muted px-2 py-1">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={() => void navigator.clipboard?.writeText(text)}
        >
          <Copy aria-hidden="true" className="size-4" /> Copy
        </Button>
        <a
          className="inline-flex items-center gap-1.5 rounded-md border border-line px-3 py-1.5 text-sm font-medium"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="lumen-hub-backup-codes.txt"
        >
          <Download aria-hidden="true" className="size-4" /> Download
        </a>
        <Button type="button" size="sm" onClick={onDone}>
          I saved them
        </Button>
      </div>
    </div>
  );
}

/**
 * /settings 'Two-factor authentication': enable with the password → QR code and secret → verify a
 * code → backup codes shown once → On; disable and new backup codes with the password; a phone
 * number verified by SMS code makes 'send a code by SMS' a second-factor option at sign-in.
 */
export function MfaCard() {
  const { user } = useAuth();
  const [status, setStatus] = useState<MfaStatus | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [phone, setPhone] = useState("");
  const [phoneCode, setPhoneCode] = useState("");
  const [phoneSent, setPhoneSent] = useState(false);
  const [phoneError, setPhoneError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const result = await settle(api.get<MfaStatus>("/api/account/mfa"));
    if (result.ok && result.data) {
      setStatus(result.data);
      const pending = result.data.unverifiedPhoneNumber;
      if (pending) setPhone((current) => current || pending);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // Led here to enrol (after a staff sign-in, or from a staff page): show the card, ready to type.
  useEffect(() => {
    if (!new URLSearchParams(window.location.search).has("enrol-mfa")) return;
    cardRef.current?.scrollIntoView({ block: "start" });
    passwordRef.current?.focus();
  }, []);

  const pendingRoles = status?.pendingStaffRoles ?? user.mfaPendingRoles ?? [];
  /** Staff rights in use now (they would wait again if TOTP were turned off). */
  const activeStaff = user.roles.some((r) => r !== "User");
  /** Reload so the page, sidebar and rights follow the new second-factor state. */
  const reloadWithRights = () => window.location.assign("/settings");

  async function run<T>(path: string, body: unknown): Promise<T | null> {
    setPending(true);
    setError(null);
    const result = await settle(api.post<T>(path, body));
    setPending(false);
    if (!result.ok) {
      setError(errorText(result.error));
      return null;
    }
    return result.data;
  }

  async function enable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return setError("Enter your password.");
    const data = await run<{ totpURI: string; backupCodes: string[] }>("/api/auth/two-factor/enable", {
      password,
    });
    if (!data) return;
    const qrcode = await import("qrcode");
    const svg = await qrcode.toString(data.totpURI, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    setPassword("");
    setStep({
      kind: "scan",
      uri: data.totpURI,
      secret: secretOf(data.totpURI),
      svg,
      backupCodes: data.backupCodes,
    });
  }

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step.kind !== "scan") return;
    if (!/^\d{6}$/.test(code)) return setError("Enter the 6-digit code from your app.");
    const data = await run("/api/auth/two-factor/verify-totp", { code });
    if (data === null) return;
    setCode("");
    setStep({ kind: "codes", backupCodes: step.backupCodes });
  }

  async function disable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return setError("Enter your password.");
    const data = await run("/api/auth/two-factor/disable", { password });
    if (data === null) return;
    setPassword("");
    if (activeStaff) return reloadWithRights();
    await load();
  }

  async function regenerate() {
    if (!password) return setError("Enter your password.");
    const data = await run<{ backupCodes: string[] }>("/api/auth/two-factor/generate-backup-codes", {
      password,
    });
    if (!data) return;
    setPassword("");
    setStep({ kind: "codes", backupCodes: data.backupCodes });
  }

  async function sendPhoneCode() {
    setPhoneError(null);
    const value = phone.replace(/[\s().-]/g, "");
    const result = await settle(api.post("/api/auth/phone-number/send-otp", { phoneNumber: value }));
    if (!result.ok) return setPhoneError(errorText(result.error));
    setPhone(value);
    setPhoneSent(true);
  }

  async function verifyPhone(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPhoneError(null);
    const result = await settle(
      api.post("/api/auth/phone-number/verify", { phoneNumber: phone, code: phoneCode }),
    );
    if (!result.ok) return setPhoneError(errorText(result.error));
    setPhoneSent(false);
    setPhoneCode("");
    await load();
  }

  const on = status?.enabled ?? false;
  return (
    <div id="mfa" ref={cardRef} className="scroll-mt-20 lg:scroll-mt-6">
      <Panel
        title="Two-factor authentication"
        action={
          <span
            data-testid="mfa-status"
            className={on ? "text-xs font-semibold text-ok-text" : "text-xs font-semibold text-ink-muted"}
          >
            {status ? (on ? "On" : "Off") : "…"}
          </span>
        }
      >
        <div className="space-y-4">
          {pendingRoles.length > 0 && !on ? (
            <Notice tone="warn" title="Staff rights unlock after this step">
              <p>
                Your account has the {staffRoleLabel(pendingRoles)} role. Staff rights need two-factor
                authentication: set up an authenticator app here and they apply at once.
              </p>
            </Notice>
          ) : null}
          <div aria-live="polite">{error ? <Notice tone="danger" role="alert" title={error} /> : null}</div>
          {step.kind === "codes" ? (
            <BackupCodes
              codes={step.backupCodes}
              onDone={() => {
                setStep({ kind: "idle" });
                if (pendingRoles.length > 0) return reloadWithRights();
                void load();
              }}
            />
          ) : step.kind === "scan" ? (
            <form onSubmit={verify} noValidate className="space-y-3">
              <p className="text-sm text-ink-muted">
                Scan this QR code with your authenticator app, or type the key, then enter the code it shows.
              </p>
              <div
                role="img"
                aria-label="QR code for your authenticator app"
                className="size-44 rounded bg-white p-1"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG generated here by the qrcode package
                dangerouslySetInnerHTML={{ __html: step.svg }}
              />
              <p className="text-sm">
                Key:{" "}
                <code data-testid="mfa-secret" className="font-mono break-all">
                  {step.secret}
                </code>
              </p>
              <Field
                label="Code from the app"
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
                disabled={pending}
              />
              <div className="flex gap-2">
                <Button type="submit" disabled={pending}>
                  {pending ? <LoaderCircle aria-hidden="true" className="spin size-4" /> : null}
                  Verify and turn on
                </Button>
                <Button type="button" variant="ghost" onClick={() => setStep({ kind: "idle" })}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <form onSubmit={on ? disable : enable} noValidate className="space-y-3">
              <p className="text-sm text-ink-muted">
                {on
                  ? activeStaff
                    ? "Sign-in asks for a code from your authenticator app (or a backup code, or an SMS code). Turning it off pauses your staff rights until you set it up again."
                    : "Sign-in asks for a code from your authenticator app (or a backup code, or an SMS code)."
                  : "Protect your account with a code from an authenticator app at every sign-in."}
              </p>
              <PasswordField
                label="Password"
                name="mfa-password"
                inputRef={passwordRef}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                disabled={pending}
              />
              <div className="flex flex-wrap gap-2">
                <Button type="submit" variant={on ? "danger" : "primary"} disabled={pending}>
                  <ShieldCheck aria-hidden="true" className="size-4" />
                  {on ? "Turn off" : "Set up authenticator app"}
                </Button>
                {on ? (
                  <Button
                    type="button"
                    variant="secondary"
                    disabled={pending}
                    onClick={() => void regenerate()}
                  >
                    New backup codes
                  </Button>
                ) : null}
              </div>
            </form>
          )}
          <div className="border-t border-line pt-4">
            <h3 className="mb-2 flex items-center gap-1.5 text-sm font-semibold text-ink">
              <Smartphone aria-hidden="true" className="size-4" /> Phone number for SMS codes
            </h3>
            {status?.phoneNumberVerified ? (
              <p className="text-sm text-ink-muted">
                Verified: <span className="font-mono text-ink">{status.phoneNumber}</span>. At sign-in you can
                ask for a code by SMS.
              </p>
            ) : (
              <form onSubmit={verifyPhone} noValidate className="space-y-3">
                {status?.unverifiedPhoneNumber ? (
                  <p data-testid="phone-unverified" className="text-sm text-ink-muted">
                    <span className="font-mono text-ink">{status.unverifiedPhoneNumber}</span> (given at
                    sign-up) is not verified: it cannot be used to sign in or to receive codes until you
                    verify it by SMS.
                  </p>
                ) : null}
                <div aria-live="polite">
                  {phoneError ? <Notice tone="danger" role="alert" title={phoneError} /> : null}
                </div>
                <Field
                  label="Phone number"
                  name="phone"
                  type="tel"
                  autoComplete="tel"
                  hint="International format, e.g. +14155550123"
                  value={phone}
                  onChange={(e) => setPhone(e.target.value)}
                  disabled={phoneSent}
                />
                {phoneSent ? (
                  <Field
                    label="Code from the SMS"
                    name="phone-code"
                    autoComplete="one-time-code"
                    inputMode="numeric"
                    maxLength={6}
                    value={phoneCode}
                    onChange={(e) => setPhoneCode(e.target.value.replace(/\D/g, ""))}
                  />
                ) : null}
                <div className="flex gap-2">
                  {phoneSent ? (
                    <Button type="submit" size="sm">
                      Verify phone number
                    </Button>
                  ) : (
                    <Button type="button" size="sm" variant="secondary" onClick={() => void sendPhoneCode()}>
                      Send code by SMS
                    </Button>
                  )}
                </div>
              </form>
            )}
          </div>
        </div>
      </Panel>
    </div>
  );
}
