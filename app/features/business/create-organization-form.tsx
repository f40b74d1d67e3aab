import { Building2, LoaderCircle } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { ENROL_MFA_PATH } from "../../../core/index.ts";
import type { OrganizationView } from "../../../server/modules/organizations/organizations.service.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";

/**
 * A signed-in individual creates an organisation (`POST /api/org`) and becomes its administrator,
 * then buys seats on the Business dashboard. Administrator rights need two-factor authentication
 * (decision 012): without it the form continues to the enrolment.
 */
export function CreateOrganizationForm() {
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: "", domain: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const name = values.name.trim();
    const errs: Record<string, string> = {};
    if (name.length < 2 || name.length > 100) errs.name = "Use 2 to 100 characters for the name.";
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    setPending(true);
    const result = await settle(
      api.post<{ organization: OrganizationView }>("/api/org", {
        name,
        ...(values.domain.trim() ? { domain: values.domain.trim() } : {}),
      }),
    );
    if (result.ok) {
      const admin = result.data.organization.viewer.role === "admin";
      showToast(`${result.data.organization.name} created`, {
        description: admin
          ? "Choose a plan and the number of seats for your team."
          : "Set up two-factor authentication to manage it.",
      });
      navigate(admin ? "/business/dashboard" : ENROL_MFA_PATH);
      return;
    }
    setPending(false);
    setErrors({ ...result.error.field });
    if (!result.error.firstField) setFormError(result.error.message);
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="max-w-lg space-y-4">
      {formError ? (
        <Notice tone="danger" role="alert">
          {formError}
        </Notice>
      ) : null}
      <Field
        label="Organisation name"
        name="name"
        autoComplete="organization"
        required
        maxLength={100}
        hint="2 to 100 characters. Your colleagues see it in their invitation."
        value={values.name}
        onChange={(e) => {
          setValues((v) => ({ ...v, name: e.target.value }));
          setErrors((x) => ({ ...x, name: "" }));
        }}
        error={errors.name || null}
        disabled={pending}
      />
      <Field
        label="Domain"
        name="domain"
        optional
        placeholder="example.com"
        hint="Your organisation's e-mail or web domain, without https://."
        value={values.domain}
        onChange={(e) => {
          setValues((v) => ({ ...v, domain: e.target.value }));
          setErrors((x) => ({ ...x, domain: "" }));
        }}
        error={errors.domain || null}
        disabled={pending}
      />
      <Button type="submit" disabled={pending}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <Building2 aria-hidden="true" className="size-4" />
        )}
        {pending ? "Creating…" : "Create organisation"}
      </Button>
    </form>
  );
}
