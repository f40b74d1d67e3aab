import { UserMinus } from "lucide-react";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { type Column, DataTable } from "../../components/ui/data-table.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatDate } from "./format.ts";

export interface MemberRowData {
  userId: string;
  name: string;
  email: string;
  role: "admin" | "member";
  joinedAt: string;
}

/** Members with role and joined date; admins may remove (confirmed in a dialog). */
export function MembersTable({
  slug,
  members,
  canManage,
  currentUserId,
}: {
  slug: string;
  members: MemberRowData[];
  canManage: boolean;
  currentUserId: string | null;
}) {
  const { revalidate } = useRevalidator();
  const [target, setTarget] = useState<MemberRowData | null>(null);
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!target) return;
    setBusy(true);
    const result = await settle(
      api.delete(`/api/orgs/${encodeURIComponent(slug)}/members/${encodeURIComponent(target.userId)}`),
    );
    setBusy(false);
    setTarget(null);
    if (result.ok) {
      showToast("Member removed", {
        description: `${target.name} no longer shares the organisation's plan.`,
      });
      void revalidate();
    } else {
      showToast("Could not remove the member", { description: result.error.message });
    }
  }

  const adminCount = members.filter((m) => m.role === "admin").length;
  // The last administrator cannot be removed (the server refuses too): no button for them.
  const removable = (m: MemberRowData) => canManage && !(m.role === "admin" && adminCount <= 1);
  const roleBadge = (m: MemberRowData) => (
    <span
      className={
        m.role === "admin"
          ? "rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent-text"
          : "rounded-full bg-sunken px-2 py-0.5 text-xs font-medium text-ink-muted"
      }
    >
      {m.role === "admin" ? "Admin" : "Member"}
    </span>
  );
  const removeButton = (m: MemberRowData) =>
    removable(m) ? (
      <Button variant="ghost" size="sm" onClick={() => setTarget(m)} aria-label={`Remove ${m.name}`}>
        <UserMinus aria-hidden="true" className="size-4" />
        Remove
      </Button>
    ) : null;

  const name = (m: MemberRowData) => (
    <>
      {m.name}
      {m.userId === currentUserId ? <span className="ml-1 text-ink-subtle">(you)</span> : null}
    </>
  );
  const columns: Column<MemberRowData>[] = [
    { id: "name", header: "Name", cell: name, className: "text-ink" },
    { id: "email", header: "E-mail", cell: (m) => m.email, className: "break-all text-ink-muted" },
    { id: "role", header: "Role", cell: roleBadge },
    {
      id: "joined",
      header: "Joined",
      cell: (m) => formatDate(m.joinedAt),
      className: "whitespace-nowrap text-ink-muted",
    },
  ];
  if (canManage) {
    columns.push({ id: "actions", header: "Actions", srOnly: true, align: "right", cell: removeButton });
  }

  return (
    <>
      <DataTable
        rows={members}
        columns={columns}
        rowKey={(m) => m.userId}
        inset
        caption="Members"
        card={(m) => (
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="text-ink">{name(m)}</p>
              <p className="break-all text-ink-muted">{m.email}</p>
              <p className="mt-1 flex items-center gap-2 text-xs text-ink-muted">
                {roleBadge(m)} joined {formatDate(m.joinedAt)}
              </p>
            </div>
            {removeButton(m)}
          </div>
        )}
      />
      <ConfirmDialog
        open={target !== null}
        title="Remove this member?"
        confirmLabel="Remove member"
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setTarget(null)}
      >
        <p>
          {target?.name} ({target?.email}) loses access to the organisation's plan on their next request. You
          can invite them again later.
        </p>
      </ConfirmDialog>
    </>
  );
}
