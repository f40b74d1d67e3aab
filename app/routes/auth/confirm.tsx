import { MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { Field } from "../../features/auth/fields.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/confirm";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/auth/confirm");

export function loader({ url }: Route.LoaderArgs) {
  return { identifier: url.searchParams.get("email") ?? url.searchParams.get("username") ?? "" };
}

/** Without JavaScript the form posts here; nothing is read or stored. */
export function action() {
  return { error: "JavaScript is required to confirm an account. Please enable it and try again." };
}

export default function Confirm({ loaderData, actionData }: Route.ComponentProps) {
  const [message, setMessage] = useState<{ tone: "warn" | "info"; text: string } | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const identifier = String(form.get("identifier") ?? "").trim();
    const code = String(form.get("code") ?? "").trim();
    if (!identifier || !/^\d{6}$/.test(code)) {
      setMessage({ tone: "warn", text: "Enter your e-mail address or username and the 6-digit code." });
      return;
    }
    setMessage({
      tone: "info",
      text: "Online confirmation opens with self sign-up in the next release. Nothing was sent.",
    });
  }

  return (
    <div className="mx-auto max-w-md py-4 sm:py-8">
      <div className="mb-6 flex flex-col items-center text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-accent-soft text-accent-text">
          <MailCheck aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-ink">Confirm your e-mail</h1>
        <p className="mt-1 text-sm text-ink-muted">Enter the 6-digit code from the e-mail we sent you.</p>
      </div>
      <div className="space-y-4 rounded-2xl border border-line bg-elevated p-6 shadow-sm sm:p-8">
        <Notice tone="info" title="Confirmation codes are e-mailed">
          When self sign-up opens (next release), a 6-digit code is e-mailed to the address you register with.
          Accounts created by an administrator are already confirmed.
        </Notice>
        {actionData?.error ? <Notice tone="danger" role="alert" title={actionData.error} /> : null}
        {message ? <Notice tone={message.tone} role="status" title={message.text} /> : null}
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
          <Field
            label="E-mail or username"
            name="identifier"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            defaultValue={loaderData.identifier}
            required
          />
          <Field
            label="Confirmation code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            placeholder="123456"
            required
            className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
          />
          <Button type="submit" className="w-full">
            Confirm account
          </Button>
        </form>
        <p className="text-center text-xs text-ink-subtle">
          Already confirmed?{" "}
          <Link to="/auth/signin" className="font-medium text-accent-text hover:underline">
            Sign in
          </Link>
        </p>
      </div>
    </div>
  );
}
