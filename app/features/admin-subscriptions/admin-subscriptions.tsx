/**
 * /admin/subscriptions: every subscription (filters, paging, a summary), per-row extend and
 * cancel with a confirm step and a note, and "Grant a plan". Plain forms: it all works without
 * JavaScript (React Router enhances them when it loads).
 */
import { type ReactNode, useId } from "react";
import { Form, Link, useNavigation } from "react-router";
import type {
  AdminSubscriptionPage,
  AdminSubscriptionView,
} from "../../../server/modules/billing/billing-admin.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { AdminSubscriptionsFormResult } from "./admin-subscriptions.server.ts";

const TIER_NAME: Record<string, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  enterprise: "Enterprise",
};
const STATUS_NAME: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Past due",
  canceled: "Canceled",
  expired: "Expired",
};
const LIVE = new Set(["active", "trialing", "past_due"]);

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const day = (iso: string | null) =>
  iso && !Number.isNaN(Date.parse(iso)) ? dayFormat.format(new Date(iso)) : "—";

/** When the row stops granting, or renews: the words for the "Ends / renews" column. */
function endWords(s: AdminSubscriptionView): string {
  if (!LIVE.has(s.status)) return `Ended ${day(s.canceledAt ?? s.expiresAt)}`;
  if (s.tier === "free") return "—";
  if (s.expiresAt) return `Ends ${day(s.expiresAt)}`;
  if (s.cancelAtPeriodEnd) return `Ends ${day(s.canceledAt ?? s.periodEnd)}`;
  return s.periodEnd ? `Renews ${day(s.periodEnd)}` : "Renews";
}

function Select({
  label,
  name,
  value,
  options,
}: {
  label: string;
  name: string;
  value?: string;
  options: [string, string][];
}) {
  const id = useId();
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1.5 block font-medium text-ink">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className={inputClass}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function SubscriptionFilters({
  filters,
  error,
}: {
  filters: Record<string, string>;
  error: { message: string; field: Record<string, string> } | null;
}) {
  return (
    <Form method="get" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter subscriptions">
      <Field
        label="Reader"
        name="q"
        type="search"
        placeholder="Part of a name or e-mail"
        defaultValue={filters.q}
        error={error?.field.q}
      />
      <Select
        label="Tier"
        name="tier"
        value={filters.tier}
        options={[["", "Any tier"], ...Object.entries(TIER_NAME)]}
      />
      <Select
        label="Status"
        name="status"
        value={filters.status}
        options={[["", "Any status"], ...Object.entries(STATUS_NAME)]}
      />
      <Select
        label="Source"
        name="source"
        value={filters.source}
        options={[
          ["", "Any source"],
          ["stripe", "Stripe"],
          ["manual", "Manual (any non-Stripe)"],
          ["admin", "Granted by an admin"],
          ["demo", "Demo"],
          ["sign-up", "Sign-up"],
        ]}
      />
      <Select
        label="Owner"
        name="owner"
        value={filters.owner}
        options={[
          ["", "Readers and organisations"],
          ["personal", "Personal"],
          ["organisation", "Organisation"],
        ]}
      />
      <Field
        label="Ending before"
        name="endingBefore"
        type="date"
        defaultValue={filters.endingBefore}
        error={error?.field.endingBefore}
      />
      <div className="flex items-end gap-2 lg:col-span-2">
        <Button type="submit">Filter</Button>
        <Link to="/admin/subscriptions" className="px-2 py-2 text-sm text-accent-text hover:underline">
          Clear
        </Link>
      </div>
    </Form>
  );
}

export function SubscriptionSummary({ summary }: { summary: AdminSubscriptionPage["summary"] }) {
  return (
    <p className="text-sm text-ink-muted" data-testid="subscriptions-summary">
      <strong className="text-ink">{summary.payingReaders}</strong> readers with a live paid subscription ·{" "}
      {summary.byTier.map((t, i) => (
        <span key={t.tier}>
          {i > 0 ? " · " : ""}
          {TIER_NAME[t.tier]}: <strong className="text-ink">{t.subscriptions}</strong>
        </span>
      ))}
    </p>
  );
}

function NoteField({ id, error }: { id: string; error?: string }) {
  return (
    <Field label="Note (kept in the audit log)" name="note" id={id} required maxLength={500} error={error} />
  );
}

function RowActions({
  s,
  result,
}: {
  s: AdminSubscriptionView;
  result: AdminSubscriptionsFormResult | null;
}) {
  const mine = result && result.id === s.id && !result.ok ? result : null;
  if (!LIVE.has(s.status)) return <span className="text-xs text-ink-subtle">No actions: ended</span>;
  if (s.tier === "free") return <span className="text-xs text-ink-subtle">Free: grant a plan instead</span>;
  const stripe = s.provider === "stripe";
  return (
    <div className="flex flex-col gap-2">
      {stripe ? null : (
        <details className="rounded-lg border border-line p-2" open={mine?.intent === "extend"}>
          <summary className="cursor-pointer text-sm font-medium text-accent-text">Extend…</summary>
          <Form method="post" className="mt-2 space-y-2" aria-label="Extend this subscription">
            <input type="hidden" name="intent" value="extend" />
            <input type="hidden" name="id" value={s.id} />
            <input type="hidden" name="version" value={s.version} />
            <Field
              label="Days more"
              name="days"
              type="number"
              min={1}
              max={3650}
              defaultValue="30"
              id={`days-${s.id}`}
              error={mine?.field.days}
            />
            <Field
              label="Or until"
              name="until"
              type="date"
              optional
              id={`until-${s.id}`}
              error={mine?.field.until}
            />
            <NoteField
              id={`extend-note-${s.id}`}
              error={mine?.intent === "extend" ? mine.field.note : undefined}
            />
            <Button type="submit" size="sm">
              Confirm extension
            </Button>
          </Form>
        </details>
      )}
      <details className="rounded-lg border border-line p-2" open={mine?.intent === "cancel"}>
        <summary className="cursor-pointer text-sm font-medium text-danger-text">Cancel…</summary>
        <Form method="post" className="mt-2 space-y-2" aria-label="Cancel this subscription">
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="id" value={s.id} />
          <input type="hidden" name="version" value={s.version} />
          <fieldset className="space-y-1 text-sm text-ink">
            <legend className="mb-1 font-medium">When</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="when" value="period_end" defaultChecked /> At the period end
              {stripe ? " (through Stripe)" : ""}
            </label>
            {stripe ? (
              <p className="text-xs text-ink-muted">
                Stripe bills this one: end it now in Stripe's dashboard.
              </p>
            ) : (
              <label className="flex items-center gap-2">
                <input type="radio" name="when" value="now" /> Now
              </label>
            )}
          </fieldset>
          <NoteField
            id={`cancel-note-${s.id}`}
            error={mine?.intent === "cancel" ? mine.field.note : undefined}
          />
          <Button type="submit" size="sm" variant="danger">
            Confirm cancellation
          </Button>
        </Form>
      </details>
      {mine ? (
        <p role="alert" className="text-xs text-danger-text">
          {mine.message}
        </p>
      ) : null}
    </div>
  );
}

function Owner({ s }: { s: AdminSubscriptionView }) {
  return (
    <div className="min-w-0">
      <p className="break-all font-medium text-ink">{s.user.name || s.user.email}</p>
      <p className="break-all text-xs text-ink-muted">{s.user.email}</p>
      {s.organization ? <p className="text-xs text-ink-muted">for {s.organization.name}</p> : null}
    </div>
  );
}

const planWords = (s: AdminSubscriptionView) =>
  `${TIER_NAME[s.tier] ?? s.tier}${s.planId && s.planId !== s.tier ? ` (${s.planId})` : ""}${s.seats ? `, ${s.seats} seats` : ""}`;

export function SubscriptionsTable({
  page,
  filters,
  result,
}: {
  page: AdminSubscriptionPage;
  filters: Record<string, string>;
  result: AdminSubscriptionsFormResult | null;
}) {
  const next = new URLSearchParams({ ...filters });
  if (page.nextCursor) next.set("cursor", page.nextCursor);
  const cell = "px-3 py-3 align-top";
  let body: ReactNode;
  if (page.items.length === 0) {
    body = <p className="text-sm text-ink-muted">No subscription matches these filters.</p>;
  } else {
    body = (
      <>
        <table className="hidden w-full text-left text-sm sm:table">
          <thead className="border-b border-line text-xs uppercase tracking-wide text-ink-muted">
            <tr>
              <th className={cell}>Reader</th>
              <th className={cell}>Plan</th>
              <th className={cell}>Status</th>
              <th className={cell}>Source</th>
              <th className={cell}>Ends / renews</th>
              <th className={cell}>Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {page.items.map((s) => (
              <tr key={s.id} data-testid={`subscription-${s.id}`}>
                <td className={cell}>
                  <Owner s={s} />
                </td>
                <td className={cell}>{planWords(s)}</td>
                <td className={cell}>{STATUS_NAME[s.status] ?? s.status}</td>
                <td className={cell}>{s.source ?? "—"}</td>
                <td className={cell}>{endWords(s)}</td>
                <td className={`${cell} w-64`}>
                  <RowActions s={s} result={result} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ul className="space-y-3 sm:hidden">
          {page.items.map((s) => (
            <li key={s.id} className="space-y-2 rounded-lg border border-line p-3">
              <Owner s={s} />
              <p className="text-sm text-ink">
                {planWords(s)} · {STATUS_NAME[s.status] ?? s.status} · {s.source ?? "—"}
              </p>
              <p className="text-sm text-ink-muted">{endWords(s)}</p>
              <RowActions s={s} result={result} />
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <div className="overflow-x-auto">
      {body}
      {page.nextCursor ? (
        <p className="mt-3">
          <Link to={`?${next.toString()}`} className="text-sm font-medium text-accent-text hover:underline">
            Next page →
          </Link>
        </p>
      ) : null}
    </div>
  );
}

export function GrantForm({
  plans,
  result,
}: {
  plans: { id: string; name: string }[];
  result: AdminSubscriptionsFormResult | null;
}) {
  const navigation = useNavigation();
  const mine = result?.intent === "grant" && !result.ok ? result : null;
  return (
    <Panel title="Grant a plan">
      <Form method="post" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Grant a plan">
        <input type="hidden" name="intent" value="grant" />
        <Field label="Reader's e-mail" name="email" type="email" required error={mine?.field.email} />
        <Select label="Plan" name="planId" options={plans.map((p) => [p.id, p.name])} />
        <Field
          label="For (days)"
          name="days"
          type="number"
          min={1}
          max={3650}
          defaultValue="30"
          error={mine?.field.days}
        />
        <Field label="Or until" name="until" type="date" optional error={mine?.field.until} />
        <div className="sm:col-span-2">
          <Field
            label="Note (kept in the audit log)"
            name="note"
            required
            maxLength={500}
            error={mine?.field.note}
          />
        </div>
        <div className="flex items-end">
          <Button type="submit" disabled={navigation.state === "submitting"}>
            Grant plan
          </Button>
        </div>
      </Form>
      {mine && Object.keys(mine.field).length === 0 ? (
        <Notice tone="danger" role="alert" className="mt-3">
          {mine.message}
        </Notice>
      ) : null}
    </Panel>
  );
}

export function ActionOutcome({ result }: { result: AdminSubscriptionsFormResult | null }) {
  if (!result?.ok) return null;
  return (
    <Notice tone="ok" role="status">
      {result.message}
    </Notice>
  );
}
