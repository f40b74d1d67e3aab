import { LoaderCircle, Send } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";

/** Org admins invite a colleague by e-mail (one seat per member; the server refuses when full). */
export function InviteForm({
  slug,
  noSeats,
  noPlan = false,
}: {
  slug: string;
  noSeats: boolean;
  noPlan?: boolean;
}) {
  const { revalidate } = useRevalidator();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"member" | "admin">("member");
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setFormError(null);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError("Enter a valid e-mail address.");
      return;
    }
    setError(null);
    setPending(true);
    const result = await settle(
      api.post(`/api/orgs/${encodeURIComponent(slug)}/invitations`, { email: email.trim(), role }),
    );
    setPending(false);
    if (result.ok) {
      showToast("Invitation sent", { description: `${email.trim()} gets a link valid for 7 days.` });
      setEmail("");
      void revalidate();
      return;
    }
    if (result.error.field.email) setError(result.error.field.email);
    else setFormError(result.error.message);
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-3">
      {noPlan ? (
        <Notice tone="warn" title="Buy seats first">
          Your organisation has no plan yet. Choose a plan and the number of seats under Plan and seats, then
          invite your colleagues.
        </Notice>
      ) : noSeats ? (
        <Notice tone="warn" title="No seats left">
          Every seat is taken or invited. Remove a member or add seats to invite someone new.
        </Notice>
      ) : null}
      {formError ? (
        <Notice tone="danger" role="alert">
          {formError}
        </Notice>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          className="flex-1"
          label="E-mail address"
          type="email"
          name="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
          disabled={pending || noSeats}
        />
        <div>
          <label htmlFor="invite-role" className="mb-1.5 block text-sm font-medium text-ink">
            Role
          </label>
          <select
            id="invite-role"
            value={role}
            onChange={(e) => setRole(e.target.value === "admin" ? "admin" : "member")}
            disabled={pending || noSeats}
            className="h-10 rounded-lg border border-line-strong bg-elevated px-3 text-sm text-ink"
          >
            <option value="member">Member</option>
            <option value="admin">Administrator</option>
          </select>
        </div>
      </div>
      <Button type="submit" size="sm" disabled={pending || noSeats}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="spin size-4" />
        ) : (
          <Send aria-hidden="true" className="size-4" />
        )}
        {pending ? "Sending…" : "Send invitation"}
      </Button>
    </form>
  );
}
