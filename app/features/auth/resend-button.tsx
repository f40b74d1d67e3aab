import { LoaderCircle, RotateCw } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import type { Settled } from "../../lib/api.ts";
import { formatCountdown } from "./form-helpers.ts";
import { useCountdown } from "./use-countdown.ts";

/** The server accepts a new code 60 s after the last one. */
export const RESEND_COOLDOWN_MS = 60_000;

// When a code was last sent to an address in this tab (sign-up → confirm is a client navigation).
const sentAt = new Map<string, number>();

export function rememberCodeSent(email: string, at = Date.now()) {
  sentAt.set(email.trim().toLowerCase(), at);
}

/** The end of the resend cooldown for an address, or null. */
export function cooldownDeadline(email: string, now = Date.now()): number | null {
  const at = sentAt.get(email.trim().toLowerCase());
  return at !== undefined && at + RESEND_COOLDOWN_MS > now ? at + RESEND_COOLDOWN_MS : null;
}

/**
 * 'Resend code' with a visible cooldown: 60 s after each send, or as long as a 429's Retry-After
 * says. The outcome is reported through `onResult` (the form shows it in its live region).
 */
export function ResendCodeButton({
  email,
  send,
  onResult,
  canSend,
  disabled,
}: {
  /** the address the code goes to (for the cooldown); empty → the button explains what is missing */
  email: string;
  send: () => Promise<Settled<unknown>>;
  onResult: (result: { ok: boolean; message: string }) => void;
  /** checks (and explains) what is missing before sending; false → nothing is sent */
  canSend?: () => boolean;
  disabled?: boolean;
}) {
  const [deadline, setDeadline] = useState<number | null>(() => (email ? cooldownDeadline(email) : null));
  const [busy, setBusy] = useState(false);
  const left = useCountdown(deadline);

  async function onClick() {
    if (canSend && !canSend()) return;
    setBusy(true);
    const result = await send();
    setBusy(false);
    const now = Date.now();
    if (result.ok) {
      rememberCodeSent(email, now);
      setDeadline(now + RESEND_COOLDOWN_MS);
      onResult({ ok: true, message: `We sent a new code to ${email}. It may take a minute to arrive.` });
      return;
    }
    if (result.error.status === 429) {
      setDeadline(now + (result.error.retryAfterS ?? RESEND_COOLDOWN_MS / 1000) * 1000);
      onResult({ ok: false, message: "Please wait before asking for another code." });
      return;
    }
    onResult({ ok: false, message: result.error.message });
  }

  const cooling = left > 0;
  return (
    <Button
      variant="secondary"
      className="w-full"
      disabled={disabled || busy || cooling}
      onClick={() => void onClick()}
    >
      {busy ? (
        <LoaderCircle aria-hidden="true" className="spin size-4" />
      ) : (
        <RotateCw aria-hidden="true" className="size-4" />
      )}
      {busy ? "Sending…" : "Resend code"}
      {cooling ? (
        <span className="font-mono text-xs text-ink-subtle">
          <span className="sr-only">available in </span>
          {formatCountdown(left)}
        </span>
      ) : null}
    </Button>
  );
}
