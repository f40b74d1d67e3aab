import { LoaderCircle, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, PasswordField } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";

const CONFIRM = "DELETE";

/** /settings 'Delete account': password, typed confirmation, a sign-in within 15 minutes. */
export function DeleteAccountCard() {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const errs: Record<string, string> = {};
    if (!password) errs.password = "Enter your password.";
    if (confirm !== CONFIRM) errs.confirm = `Type ${CONFIRM} to confirm.`;
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    setPending(true);
    const result = await settle(api.post("/api/account/delete", { password, confirm }));
    if (result.ok) {
      window.location.assign("/");
      return;
    }
    setPending(false);
    setErrors({ ...result.error.field });
    if (!result.error.firstField) setFormError(result.error.message);
  }

  return (
    <Panel title="Delete account">
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="text-sm text-ink-muted">
          Deletes your profile, avatar, sessions, group memberships and subscriptions. This cannot be undone.
          Download your data first if you want a copy.
        </p>
        {formError ? (
          <Notice tone="danger" role="alert">
            {formError}
          </Notice>
        ) : null}
        <PasswordField
          label="Password"
          name="delete-password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          disabled={pending}
        />
        <Field
          label={`Type ${CONFIRM} to confirm`}
          name="delete-confirm"
          autoComplete="off"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm}
          disabled={pending}
        />
        <Button type="submit" variant="danger" size="sm" disabled={pending || confirm !== CONFIRM}>
          {pending ? (
            <LoaderCircle aria-hidden="true" className="spin size-4" />
          ) : (
            <Trash2 aria-hidden="true" className="size-4" />
          )}
          {pending ? "Deleting…" : "Delete my account"}
        </Button>
      </form>
    </Panel>
  );
}
