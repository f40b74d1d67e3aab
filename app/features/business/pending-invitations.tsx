import { X } from "lucide-react";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatDate } from "./format.ts";

export interface PendingInvitationRow {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
}

/** Pending invitations; an admin cancels one to free its seat (`DELETE /api/orgs/{slug}/invitations/{id}`). */
export function PendingInvitations({
  slug,
  invitations,
}: {
  slug: string;
  invitations: PendingInvitationRow[];
}) {
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);

  async function cancel(invitation: PendingInvitationRow) {
    setBusy(invitation.id);
    const result = await settle(
      api.delete(`/api/orgs/${encodeURIComponent(slug)}/invitations/${encodeURIComponent(invitation.id)}`),
    );
    setBusy(null);
    if (result.ok) {
      showToast("Invitation cancelled", { description: `${invitation.email}'s seat is free again.` });
    } else {
      showToast("Could not cancel the invitation", { description: result.error.message });
    }
    void revalidate();
  }

  return (
    <ul className="divide-y divide-line text-sm">
      {invitations.map((i) => (
        <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <span className="break-all text-ink">{i.email}</span>
          <span className="flex items-center gap-2 text-ink-muted">
            {i.role === "admin" ? "Admin" : "Member"} · expires {formatDate(i.expiresAt)}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => void cancel(i)}
              disabled={busy === i.id}
              aria-label={`Cancel the invitation to ${i.email}`}
            >
              <X aria-hidden="true" className="size-4" />
              Cancel
            </Button>
          </span>
        </li>
      ))}
    </ul>
  );
}
