import { KeyRound, LoaderCircle } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { checkPassword, signInUrl } from "../../../core/index.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Panel } from "../../components/feature-screen.tsx";
import { PasswordChecklist } from "../../components/password-checklist.tsx";
import { Button } from "../../components/ui/button.tsx";
import { PasswordField } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { markSignOutExplained, signOutLocally } from "../../lib/session/auth-context.tsx";

export const NOT_FRESH_MESSAGE =
  "For your security, changing your password needs a recent sign-in (within the last 15 minutes). Sign in again, then come back here.";

/**
 * /settings 'Password': current and new password (policy checklist). The change signs out every
 * other device (revokeOtherSessions). A sign-in older than 15 minutes (SESSION_NOT_FRESH) asks the
 * user to sign in again.
 */
export function PasswordCard({ onChanged }: { onChanged: () => void }) {
  const navigate = useNavigate();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const [notFresh, setNotFresh] = useState(false);
  const [pending, setPending] = useState(false);
  const checklistId = useId();
  const currentRef = useRef<HTMLInputElement>(null);
  const nextRef = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const errs: typeof errors = {};
    if (!current) errs.current = "Enter your current password.";
    if (!checkPassword(next).ok) errs.next = "Choose a new password that meets every requirement below.";
    else if (next === current) errs.next = "Choose a password different from the current one.";
    setErrors(errs);
    setNotFresh(false);
    if (errs.current) return currentRef.current?.focus();
    if (errs.next) return nextRef.current?.focus();
    setPending(true);
    const result = await settle(
      api.post("/api/auth/change-password", {
        currentPassword: current,
        newPassword: next,
        revokeOtherSessions: true,
      }),
    );
    setPending(false);
    if (result.ok) {
      setCurrent("");
      setNext("");
      showToast("Password changed", { description: "Every other device was signed out." });
      onChanged();
      return;
    }
    const { error } = result;
    if (error.status === 403 && error.code === "SESSION_NOT_FRESH") {
      setNotFresh(true);
      return;
    }
    // Wrong current password (400/401) or a policy message from the server.
    const aboutCurrent =
      error.status === 401 || /current|invalid password|incorrect/i.test(`${error.code} ${error.message}`);
    if (aboutCurrent) {
      setErrors({ current: error.message });
      currentRef.current?.focus();
    } else {
      setErrors({ next: error.message });
      nextRef.current?.focus();
    }
  }

  async function signInAgain() {
    markSignOutExplained();
    await signOutLocally();
    navigate(signInUrl("/settings"), { replace: true });
  }

  return (
    <Panel title="Password">
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
        <div aria-live="polite">
          {notFresh ? (
            <Notice tone="warn" role="alert" title="Please sign in again">
              <p>{NOT_FRESH_MESSAGE}</p>
              <button
                type="button"
                onClick={() => void signInAgain()}
                className="mt-1 font-medium text-accent-text hover:underline"
              >
                Sign in again
              </button>
            </Notice>
          ) : null}
        </div>
        <PasswordField
          label="Current password"
          name="current-password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={errors.current}
          inputRef={currentRef}
          disabled={pending}
        />
        <div>
          <PasswordField
            label="New password"
            name="new-password"
            autoComplete="new-password"
            required
            value={next}
            onChange={(e) => setNext(e.target.value)}
            describedBy={checklistId}
            error={errors.next}
            inputRef={nextRef}
            disabled={pending}
          />
          <PasswordChecklist password={next} id={checklistId} />
        </div>
        <p className="text-xs text-ink-subtle">Changing your password signs out every other device.</p>
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? (
            <LoaderCircle aria-hidden="true" className="spin size-4" />
          ) : (
            <KeyRound aria-hidden="true" className="size-4" />
          )}
          {pending ? "Changing…" : "Change password"}
        </Button>
      </form>
    </Panel>
  );
}
