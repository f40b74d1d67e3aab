import { ExternalLink } from "lucide-react";
import type { InvoiceView } from "../../../server/modules/billing/billing.types.ts";
import { cx } from "../../components/ui/cx.ts";
import { type Column, DataTable } from "../../components/ui/data-table.tsx";
import { formatDay, formatMoney } from "./format.ts";

const STATUS: Record<InvoiceView["status"], { label: string; tone: string }> = {
  paid: { label: "Paid", tone: "text-emerald-700 dark:text-emerald-400" },
  open: { label: "Open", tone: "text-ink-muted" },
  failed: { label: "Failed", tone: "text-danger-text" },
  void: { label: "Void", tone: "text-ink-subtle" },
};

const COLUMNS: readonly Column<InvoiceView>[] = [
  {
    id: "number",
    header: "Number",
    cell: (i) => i.number,
    className: "font-mono text-xs text-ink",
  },
  {
    id: "date",
    header: "Date",
    cell: (i) => formatDay(i.createdAt),
    className: "whitespace-nowrap text-ink-muted",
  },
  { id: "description", header: "Description", cell: (i) => i.description, className: "text-ink" },
  {
    id: "amount",
    header: "Amount",
    cell: (i) => formatMoney(i.amountCents, i.currency),
    align: "right",
    className: "whitespace-nowrap tabular-nums text-ink",
  },
  {
    id: "status",
    header: "Status",
    cell: (i) => <span className={cx("font-medium", STATUS[i.status].tone)}>{STATUS[i.status].label}</span>,
  },
  { id: "link", header: "Link", srOnly: true, cell: (i) => <InvoiceLink invoice={i} /> },
];

/** A phone card: amount and status, then what it was for, the date, number and link. */
function InvoiceCard({ invoice }: { invoice: InvoiceView }) {
  return (
    <>
      <div className="flex items-baseline justify-between gap-3">
        <span className="tabular-nums font-medium text-ink">
          {formatMoney(invoice.amountCents, invoice.currency)}
        </span>
        <span className={cx("font-medium", STATUS[invoice.status].tone)}>{STATUS[invoice.status].label}</span>
      </div>
      <p className="mt-1 break-words text-ink">{invoice.description}</p>
      <p className="mt-1 flex flex-wrap items-center gap-x-3 text-xs text-ink-muted">
        <span>{formatDay(invoice.createdAt)}</span>
        <span className="break-all font-mono">{invoice.number}</span>
        <InvoiceLink invoice={invoice} />
      </p>
    </>
  );
}

/** Invoices and receipts, newest first: a table on wide screens, a list of cards on phones. */
export function InvoicesTable({ invoices }: { invoices: InvoiceView[] }) {
  if (invoices.length === 0) {
    return <p className="text-sm text-ink-muted">No invoices or receipts yet.</p>;
  }
  return (
    <DataTable
      rows={invoices}
      columns={COLUMNS}
      rowKey={(i) => i.id}
      card={(i) => <InvoiceCard invoice={i} />}
      caption="Invoices and receipts"
    />
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
