import { Check, LoaderCircle, MailOpen } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatDate } from "./format.ts";

export interface InvitePreview {
  organizationName: string;
  role: string;
  expiresAt: string;
  state: string;
}

const STATE_TEXT: Record<string, string> = {
  used: "This invitation has already been used.",
  expired: "This invitation has expired. Ask your organisation's administrator for a new one.",
  "other-email":
    "This invitation was sent to another e-mail address. Sign in with that address to accept it.",
  invalid: "This invitation link is not valid.",
};

/**
 * The invitation from `?invite=<token>` (the link in the e-mail): accept joins the organisation,
 * then the page reloads with the business account. Pending invitations without the link are listed.
 */
export function InvitationPanel({
  token,
  invite,
  pending,
}: {
  token: string | null;
  invite: InvitePreview | null;
  pending: Array<{ organizationName: string; role: string; expiresAt: string }>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function accept() {
    if (!token) return;
    setBusy(true);
    setError(null);
    const result = await settle(api.post("/api/account/invitations/accept", { token }));
    if (result.ok) {
      window.location.assign("/business/dashboard");
      return;
    }
    setBusy(false);
    setError(result.error.message);
  }

  if (token && invite) {
    if (invite.state !== "open") {
      return (
        <Notice tone="warn" title="Invitation">
          {STATE_TEXT[invite.state] ?? STATE_TEXT.invalid}
        </Notice>
      );
    }
    return (
      <Notice tone="info" title={`Join ${invite.organizationName}`}>
        <p>
          You are invited as {invite.role === "admin" ? "an administrator" : "a member"}. Your account becomes
          a business account and shares the organisation's plan. The invitation expires on{" "}
          {formatDate(invite.expiresAt)}.
        </p>
        {error ? (
          <p role="alert" className="mt-2 text-danger-text">
            {error}
          </p>
        ) : null}
        <Button className="mt-3" size="sm" onClick={() => void accept()} disabled={busy}>
          {busy ? (
            <LoaderCircle aria-hidden="true" className="spin size-4" />
          ) : (
            <Check aria-hidden="true" className="size-4" />
          )}
          {busy ? "Joining…" : "Accept invitation"}
        </Button>
      </Notice>
    );
  }
  if (pending.length === 0) return null;
  return (
    <Notice tone="info" title="Pending invitation">
      {pending.map((p) => (
        <p key={`${p.organizationName}-${p.expiresAt}`} className="flex items-center gap-2">
          <MailOpen aria-hidden="true" className="size-4 shrink-0" />
          {p.organizationName} invited you (until {formatDate(p.expiresAt)}). Open the link in the invitation
          e-mail to accept.
        </p>
      ))}
    </Notice>
  );
}
