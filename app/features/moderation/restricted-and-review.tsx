/**
 * The "Restricted users" tab (muted and banned commenters, with Lift) and the "Content review"
 * tab (items waiting in the workflow's review state, with a link to the editor).
 */
import { FilePen } from "lucide-react";
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import type {
  RestrictedUser,
  ReviewQueueItem,
} from "../../../server/modules/moderation/moderation.schemas.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { DataTable } from "../../components/ui/data-table.tsx";
import { formatTime, liftRestriction } from "./moderation-client.ts";

function Empty({ title, text }: { title: string; text: string }) {
  return (
    <div className="rounded-lg border border-dashed border-line px-4 py-10 text-center">
      <p className="font-medium text-ink">{title}</p>
      <p className="mt-1 text-sm text-ink-muted">{text}</p>
    </div>
  );
}

export function RestrictedUsers({ items }: { items: RestrictedUser[] }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  async function lift(user: RestrictedUser) {
    setBusy(user.userId);
    try {
      await liftRestriction(user.userId);
      showToast(`${user.name} may comment again`);
      revalidator.revalidate();
    } catch (error) {
      showToast("The restriction was not lifted", { description: (error as Error).message });
    } finally {
      setBusy(null);
    }
  }
  if (items.length === 0)
    return (
      <Empty
        title="Nobody is restricted"
        text="Muted and banned commenters appear here, with when it ends."
      />
    );
  const lifted = (u: RestrictedUser) => (
    <Button size="sm" variant="secondary" disabled={busy === u.userId} onClick={() => void lift(u)}>
      Lift
    </Button>
  );
  return (
    <DataTable
      rows={items}
      rowKey={(u) => u.userId}
      caption="Muted and banned commenters"
      columns={[
        {
          id: "user",
          header: "Commenter",
          cell: (u) => (
            <div className="min-w-0">
              <div className="font-medium text-ink">{u.name}</div>
              <div className="break-all text-xs text-ink-muted">{u.email}</div>
            </div>
          ),
        },
        { id: "kind", header: "Restriction", cell: (u) => (u.kind === "banned" ? "Banned" : "Muted") },
        {
          id: "until",
          header: "Until",
          cell: (u) => (u.until ? formatTime(u.until) : "Permanent"),
          className: "whitespace-nowrap",
        },
        { id: "reason", header: "Reason", cell: (u) => u.reason ?? "—" },
        {
          id: "by",
          header: "By",
          cell: (u) => `${u.createdByName ?? "—"}, ${formatTime(u.createdAt)}`,
        },
        { id: "lift", header: "Actions", srOnly: true, align: "right", cell: lifted },
      ]}
      card={(u) => (
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0 space-y-0.5">
            <div className="font-medium text-ink">{u.name}</div>
            <div className="break-all text-xs text-ink-muted">{u.email}</div>
            <div className="text-xs text-ink-muted">
              {u.kind === "banned" ? "Banned" : "Muted"} ·{" "}
              {u.until ? `until ${formatTime(u.until)}` : "permanent"}
              {u.reason ? ` · ${u.reason}` : ""}
            </div>
          </div>
          {lifted(u)}
        </div>
      )}
    />
  );
}

export function ReviewQueue({ items, total }: { items: ReviewQueueItem[]; total: number }) {
  if (items.length === 0)
    return (
      <Empty title="Nothing to review" text="Items writers submit for review appear here, oldest first." />
    );
  const review = (i: ReviewQueueItem) => (
    <Link to={i.editUrl} className={buttonClass("secondary", "sm")}>
      <FilePen className="size-4" aria-hidden />
      Review
    </Link>
  );
  return (
    <div className="space-y-2">
      <DataTable
        rows={items}
        rowKey={(i) => i.id}
        caption="Content waiting for review"
        columns={[
          {
            id: "title",
            header: "Item",
            cell: (i) => (
              <div className="min-w-0">
                <div className="font-medium text-ink">{i.title}</div>
                <div className="text-xs capitalize text-ink-muted">{i.type}</div>
              </div>
            ),
          },
          { id: "author", header: "Author", cell: (i) => i.authorName ?? "—" },
          {
            id: "at",
            header: "Submitted",
            cell: (i) => formatTime(i.submittedAt),
            className: "whitespace-nowrap",
          },
          { id: "open", header: "Actions", srOnly: true, align: "right", cell: review },
        ]}
        card={(i) => (
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <div className="font-medium text-ink">{i.title}</div>
              <div className="text-xs text-ink-muted">
                {i.authorName ?? "Unknown author"} · {formatTime(i.submittedAt)}
              </div>
            </div>
            {review(i)}
          </div>
        )}
      />
      {total > items.length ? (
        <p className="text-xs text-ink-muted">
          Showing the {items.length} oldest of {total}.{" "}
          <Link to="/content?state=in_review" className="text-accent-text hover:underline">
            See them all in the content studio
          </Link>
        </p>
      ) : null}
    </div>
  );
}
