import { LoaderCircle, Save } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";

/** The organisation's name and domain, editable by its administrators. */
export function OrgDetailsForm({
  slug,
  name,
  domain,
}: {
  slug: string;
  name: string;
  domain: string | null;
}) {
  const { revalidate } = useRevalidator();
  const [values, setValues] = useState({ name, domain: domain ?? "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const errs: Record<string, string> = {};
    if (values.name.trim().length < 2) errs.name = "The name needs at least 2 characters.";
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    setPending(true);
    const result = await settle(
      api.patch(`/api/orgs/${encodeURIComponent(slug)}`, {
        name: values.name.trim(),
        domain: values.domain.trim(),
      }),
    );
    setPending(false);
    if (result.ok) {
      showToast("Organisation saved");
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
        label="Organisation name"
        name="name"
        value={values.name}
        maxLength={100}
        onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
        error={errors.name}
        disabled={pending}
      />
      <Field
        label="Domain"
        name="domain"
        optional
        placeholder="example.com"
        hint="Your organisation's e-mail or web domain, without https://."
        value={values.domain}
        onChange={(e) => setValues((v) => ({ ...v, domain: e.target.value }))}
        error={errors.domain}
        disabled={pending}
      />
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <Save aria-hidden="true" className="size-4" />
        )}
        {pending ? "Saving…" : "Save details"}
      </Button>
    </form>
  );
}
