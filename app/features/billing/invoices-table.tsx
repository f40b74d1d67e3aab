import { ExternalLink } from "lucide-react";
import type { InvoiceView } from "../../../server/modules/billing/billing.types.ts";
import { cx } from "../../components/ui/cx.ts";
import { formatDay, formatMoney } from "./format.ts";

const STATUS: Record<InvoiceView["status"], { label: string; tone: string }> = {
  paid: { label: "Paid", tone: "text-emerald-700 dark:text-emerald-400" },
  open: { label: "Open", tone: "text-ink-muted" },
  failed: { label: "Failed", tone: "text-danger-text" },
  void: { label: "Void", tone: "text-ink-subtle" },
};

/** Invoices and receipts, newest first: a table on wide screens, a list of cards on phones. */
export function InvoicesTable({ invoices }: { invoices: InvoiceView[] }) {
  if (invoices.length === 0) {
    return <p className="text-sm text-ink-muted">No invoices or receipts yet.</p>;
  }
  return (
    <>
      <ul className="divide-y divide-line text-sm sm:hidden">
        {invoices.map((invoice) => (
          <li key={invoice.id} className="py-3">
            <div className="flex items-baseline justify-between gap-3">
              <span className="tabular-nums font-medium text-ink">
                {formatMoney(invoice.amountCents, invoice.currency)}
              </span>
              <span className={cx("font-medium", STATUS[invoice.status].tone)}>
                {STATUS[invoice.status].label}
              </span>
            </div>
            <p className="mt-1 break-words text-ink">{invoice.description}</p>
            <p className="mt-1 flex flex-wrap items-center gap-x-3 text-xs text-ink-muted">
              <span>{formatDay(invoice.createdAt)}</span>
              <span className="break-all font-mono">{invoice.number}</span>
              <InvoiceLink invoice={invoice} />
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden min-w-0 sm:block">
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-ink-subtle">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Number
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Date
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Description
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Amount
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Status
              </th>
              <th scope="col" className="py-2 font-semibold">
                <span className="sr-only">Link</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {invoices.map((invoice) => (
              <tr key={invoice.id} className="align-top">
                <td className="py-2 pr-3 font-mono text-xs text-ink">{invoice.number}</td>
                <td className="whitespace-nowrap py-2 pr-3 text-ink-muted">{formatDay(invoice.createdAt)}</td>
                <td className="py-2 pr-3 text-ink">{invoice.description}</td>
                <td className="whitespace-nowrap py-2 pr-3 text-right tabular-nums text-ink">
                  {formatMoney(invoice.amountCents, invoice.currency)}
                </td>
                <td className={cx("py-2 pr-3 font-medium", STATUS[invoice.status].tone)}>
                  {STATUS[invoice.status].label}
                </td>
                <td className="py-2">
                  <InvoiceLink invoice={invoice} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Stripe's hosted invoice page, or the word "Receipt" for the manual provider's records. */
function InvoiceLink({ invoice }: { invoice: InvoiceView }) {
  return invoice.hostedUrl ? (
    <a
      href={invoice.hostedUrl}
      target="_blank"
      rel="noreferrer noopener"
      className="inline-flex items-center gap-1 text-accent-text underline"
    >
      View <ExternalLink aria-hidden="true" className="size-3" />
    </a>
  ) : (
    <span className="text-xs text-ink-subtle">Receipt</span>
  );
}
