import { Building2, LoaderCircle, UserPlus, UserRound } from "lucide-react";
import { type FormEvent, type RefObject, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { PasswordChecklist } from "../../components/password-checklist.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Field, PasswordField } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { fieldForError, type SignUpField } from "./form-helpers.ts";
import { rememberCodeSent } from "./resend-button.tsx";
import { confirmPath } from "./sign-in-form.tsx";
import {
  type FieldErrors,
  normalizePhone,
  SIGN_UP_FIELDS,
  type SignUpInput,
  validateSignUp,
} from "./validation.ts";

const EMPTY: SignUpInput = {
  username: "",
  password: "",
  email: "",
  name: "",
  phoneNumber: "",
  account: "personal",
  organizationName: "",
};

/** Where a business sign-up continues when no other target was asked for: its organisation. */
export const BUSINESS_START_PATH = "/business/start";

/** The server's problems by field (Better Auth's `fields`, or the REST envelope's `field`). */
function serverFields(body: unknown, field: Readonly<Record<string, string>>): FieldErrors {
  const out: FieldErrors = {};
  const raw = (body as { fields?: unknown } | null)?.fields;
  const all: Record<string, unknown> = { ...(raw && typeof raw === "object" ? raw : {}), ...field };
  for (const name of SIGN_UP_FIELDS) {
    const problem = all[name];
    if (typeof problem === "string" && problem) out[name] = problem;
  }
  return out;
}

const ACCOUNT_CHOICES = [
  {
    value: "personal",
    label: "Personal account",
    hint: "For you: start free, upgrade any time.",
    Icon: UserRound,
  },
  {
    value: "business",
    label: "For my organisation",
    hint: "You become its administrator and buy seats for your team.",
    Icon: Building2,
  },
] as const;

/**
 * Self sign-up (POST /api/auth/sign-up/email): a personal account or one for an organisation
 * (its name; `?account=business` preselects it), username, password (live policy checklist),
 * e-mail, given name and an optional phone number. The client checks only explain; a server error
 * naming a field is shown next to it. Success → /auth/confirm?email=… (the redirect is kept; a
 * business sign-up without one continues to its organisation).
 */
export function SignUpForm({
  redirectTo,
  initialAccount = "personal",
}: {
  redirectTo: string;
  initialAccount?: SignUpInput["account"];
}) {
  const navigate = useNavigate();
  const [values, setValues] = useState<SignUpInput>({ ...EMPTY, account: initialAccount });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const checklistId = useId();
  const formErrorRef = useRef<HTMLDivElement>(null);
  const refs: Record<SignUpField, RefObject<HTMLInputElement | null>> = {
    username: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    name: useRef<HTMLInputElement>(null),
    phoneNumber: useRef<HTMLInputElement>(null),
    organizationName: useRef<HTMLInputElement>(null),
  };
  const business = values.account === "business";

  const set = (field: SignUpField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function focusFirst(errs: FieldErrors) {
    const first = SIGN_UP_FIELDS.find((f) => errs[f]);
    if (first) refs[first].current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const errs = validateSignUp(values);
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length > 0) {
      focusFirst(errs);
      return;
    }
    const email = values.email.trim();
    const phone = normalizePhone(values.phoneNumber);
    setPending(true);
    const result = await settle(
      api.post("/api/auth/sign-up/email", {
        email,
        password: values.password,
        name: values.name.trim(),
        username: values.username.trim(),
        ...(phone ? { phoneNumber: phone } : {}),
        ...(business ? { account: "business", organizationName: values.organizationName.trim() } : {}),
      }),
    );
    if (result.ok) {
      rememberCodeSent(email);
      navigate(confirmPath(email, business && redirectTo === "/" ? BUSINESS_START_PATH : redirectTo));
      return;
    }
    setPending(false);
    const { error } = result;
    const named = error.status === 400 || error.status === 422 ? serverFields(error.body, error.field) : {};
    const field =
      error.status === 400 || error.status === 422 ? fieldForError(error.code, error.message) : null;
    if (Object.keys(named).length > 0) {
      setErrors(named);
      focusFirst(named);
    } else if (field) {
      const next = { [field]: error.message };
      setErrors(next);
      focusFirst(next);
    } else {
      setFormError(error.message);
      formErrorRef.current?.focus();
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <div ref={formErrorRef} tabIndex={-1} aria-live="polite" className="focus:outline-none">
        {formError ? <Notice tone="danger" role="alert" title={formError} /> : null}
      </div>
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-ink">Account</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {ACCOUNT_CHOICES.map(({ value, label, hint, Icon }) => (
            <label
              key={value}
              className={cx(
                "flex cursor-pointer gap-2.5 rounded-lg border p-3 text-sm transition-colors",
                values.account === value
                  ? "border-accent bg-accent/5 ring-2 ring-accent/30"
                  : "border-line-strong hover:border-accent",
              )}
            >
              <input
                type="radio"
                name="account"
                value={value}
                checked={values.account === value}
                onChange={() => {
                  setValues((v) => ({ ...v, account: value }));
                  setErrors((e) => ({ ...e, organizationName: undefined }));
                }}
                disabled={pending}
                className="mt-0.5 accent-accent"
              />
              <span>
                <span className="flex items-center gap-1.5 font-medium text-ink">
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                </span>
                <span className="mt-0.5 block text-xs text-ink-muted">{hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {business ? (
        <Field
          label="Organisation name"
          name="organization"
          autoComplete="organization"
          required
          hint="2 to 100 characters. You can change it later in the Business profile."
          value={values.organizationName}
          onChange={(e) => set("organizationName")(e.target.value)}
          error={errors.organizationName}
          inputRef={refs.organizationName}
          disabled={pending}
        />
      ) : null}
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        hint="3 to 30 letters, numbers, dots or underscores. You can sign in with it."
        value={values.username}
        onChange={(e) => set("username")(e.target.value)}
        error={errors.username}
        inputRef={refs.username}
        disabled={pending}
      />
      <div>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          value={values.password}
          onChange={(e) => set("password")(e.target.value)}
          describedBy={checklistId}
          error={errors.password}
          inputRef={refs.password}
          disabled={pending}
        />
        <PasswordChecklist password={values.password} id={checklistId} />
      </div>
      <Field
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        required
        hint="We send a 6-digit confirmation code here."
        value={values.email}
        onChange={(e) => set("email")(e.target.value)}
        error={errors.email}
        inputRef={refs.email}
        disabled={pending}
      />
      <Field
        label="Given name"
        name="given_name"
        autoComplete="given-name"
        required
        value={values.name}
        onChange={(e) => set("name")(e.target.value)}
        error={errors.name}
        inputRef={refs.name}
        disabled={pending}
      />
      <Field
        label="Phone number"
        name="phone_number"
        type="tel"
        autoComplete="tel"
        optional
        hint="International format, for example +44 20 7946 0958. Verify it by SMS in settings to sign in with it."
        value={values.phoneNumber}
        onChange={(e) => set("phoneNumber")(e.target.value)}
        error={errors.phoneNumber}
        inputRef={refs.phoneNumber}
        disabled={pending}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <UserPlus aria-hidden="true" className="size-4" />
        )}
        {pending ? "Creating account…" : business ? "Create account and organisation" : "Create account"}
      </Button>
    </form>
  );
}
