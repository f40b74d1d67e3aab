import { LoaderCircle, Save } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";

export const BIO_LIMIT = 500;

/** Display name and bio (with a live counter); the server checks the same limits. */
export function ProfileEditor({ displayName, bio }: { displayName: string; bio: string }) {
  const { revalidate } = useRevalidator();
  const [values, setValues] = useState({ displayName, bio });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const bioId = useId();
  const left = BIO_LIMIT - values.bio.length;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const errs: Record<string, string> = {};
    if (!values.displayName.trim()) errs.displayName = "Enter a display name.";
    else if (values.displayName.trim().length > 80)
      errs.displayName = "The display name can have at most 80 characters.";
    if (left < 0) errs.bio = `The bio can have at most ${BIO_LIMIT} characters.`;
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    setPending(true);
    const result = await settle(
      api.patch("/api/account/profile", { displayName: values.displayName.trim(), bio: values.bio }),
    );
    setPending(false);
    if (result.ok) {
      showToast("Profile saved");
      void revalidate();
      return;
    }
    setErrors({ ...result.error.field });
    if (!result.error.firstField) setFormError(result.error.message);
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      {formError ? (
        <Notice tone="danger" role="alert">
          {formError}
        </Notice>
      ) : null}
      <Field
        label="Display name"
        name="displayName"
        maxLength={80}
        value={values.displayName}
        onChange={(e) => setValues((v) => ({ ...v, displayName: e.target.value }))}
        error={errors.displayName}
        disabled={pending}
      />
      <div>
        <label
          htmlFor={bioId}
          className="mb-1.5 flex items-baseline justify-between text-sm font-medium text-ink"
        >
          Bio
          <span className="text-xs font-normal text-ink-subtle">Optional</span>
        </label>
        <textarea
          id={bioId}
          name="bio"
          rows={4}
          value={values.bio}
          onChange={(e) => setValues((v) => ({ ...v, bio: e.target.value }))}
          aria-describedby={`${bioId}-count ${bioId}-error`}
          aria-invalid={errors.bio || left < 0 ? true : undefined}
          disabled={pending}
          className="w-full rounded-lg border border-line-strong bg-elevated px-3 py-2 text-sm text-ink focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
        />
        <div className="mt-1 flex justify-between gap-3 text-xs">
          <p id={`${bioId}-error`} aria-live="polite" className="text-danger-text">
            {errors.bio ?? ""}
          </p>
          <p
            id={`${bioId}-count`}
            aria-live="polite"
            className={cx(left < 0 ? "text-danger-text" : "text-ink-subtle")}
          >
            {values.bio.length} / {BIO_LIMIT}
          </p>
        </div>
      </div>
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <Save aria-hidden="true" className="size-4" />
        )}
        {pending ? "Saving…" : "Save profile"}
      </Button>
    </form>
  );
}
