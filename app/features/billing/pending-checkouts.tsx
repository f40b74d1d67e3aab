import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useRevalidator } from "react-router";
import type { AdminCheckoutView } from "../../../server/modules/billing/billing.service.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatDay, formatMoney, intervalAdverb } from "./format.ts";

/**
 * Manual checkouts waiting for a platform admin (self-serve off): approve one once it was paid
 * outside this site (`POST /api/admin/billing/checkouts/:id/approve`).
 */
export function PendingCheckouts({ checkouts }: { checkouts: AdminCheckoutView[] }) {
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function approve(checkout: AdminCheckoutView) {
    setBusy(checkout.id);
    setError(null);
    const result = await settle(api.post(`/api/admin/billing/checkouts/${checkout.id}/approve`, {}));
    setBusy(null);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    showToast("Approved", { description: `${checkout.customer.email} is on ${checkout.plan.name}.` });
    await revalidate();
  }

  return (
    <Panel title={`Checkouts waiting for approval (${checkouts.length})`}>
      {error ? (
        <Notice tone="danger" role="alert" className="mb-3">
          {error}
        </Notice>
      ) : null}
      {checkouts.length === 0 ? (
        <p className="text-sm text-ink-muted">
          No checkout is waiting. Readers' requests appear here once sent.
        </p>
      ) : (
        <ul className="divide-y divide-line">
          {checkouts.map((c) => (
            <li
              key={c.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="break-all font-medium text-ink">
                  {c.customer.name || c.customer.email}{" "}
                  <span className="font-normal text-ink-muted">{c.customer.email}</span>
                </p>
                <p className="text-sm text-ink-muted">
                  {c.plan.name}, {intervalAdverb(c.interval)}
                  {c.plan.perSeat ? `, ${c.seats} seats` : ""}
                  {c.organizationName ? ` for ${c.organizationName}` : ""} ·{" "}
                  {formatMoney(c.amountCents, c.currency)} · asked {formatDay(c.createdAt)}
                </p>
              </div>
              <Button size="sm" onClick={() => void approve(c)} disabled={busy !== null}>
                {busy === c.id ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
                Approve
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
