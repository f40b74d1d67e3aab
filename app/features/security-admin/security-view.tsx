/**
 * /super-admin/security: sessions across the platform (filter, revoke one, revoke all of a user's),
 * current sign-in locks (clear), MFA adoption with the staff still without a second factor, the
 * password policy the server enforces, recent security events, and the service credentials
 * (create with scopes, rotate, revoke; a secret is shown once). Plain forms with a confirm step
 * (`<details>`): everything works without JavaScript; the copy button needs it.
 */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { auditCategory, SECURITY_CONSOLE_ACTIONS } from "../../../core/audit-actions.ts";
import type {
  CredentialView,
  Lockout,
  MfaAdoption,
  PasswordPolicyView,
  PlatformSession,
  SecurityEvent,
  SecurityOverview,
  SessionsPage,
} from "../../../server/modules/security-admin/security-admin.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { CopyButton } from "../../components/ui/copy-button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { SecurityFormResult } from "./security-admin.server.ts";

/** /admin/logs filtered on the actions of "recent security events". */
export const SECURITY_EVENTS_LOG_LINK = `/admin/logs?action=${SECURITY_CONSOLE_ACTIONS.join(",")}`;

const when = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const at = (iso: string | null | undefined) =>
  iso && !Number.isNaN(Date.parse(iso)) ? `${when.format(new Date(iso))} UTC` : "—";

const cell = "px-3 py-2.5 align-top";
const th = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-ink-muted";

function Stat({
  label,
  value,
  detail,
  href,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  href: string;
}) {
  return (
    <a
      href={href}
      className="block rounded-xl border border-line bg-elevated p-4 transition-colors hover:border-line-strong hover:bg-surface"
    >
      <span className="block text-xs font-medium uppercase tracking-wide text-ink-muted">{label}</span>
      <span className="mt-1 block text-2xl font-semibold text-ink">{value}</span>
      {detail ? <span className="mt-0.5 block text-xs text-ink-muted">{detail}</span> : null}
    </a>
  );
}

export function SecuritySummary({ overview }: { overview: SecurityOverview }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="security-summary">
      <Stat
        label="Active sessions"
        value={overview.sessions.active}
        detail={`${overview.sessions.users} ${overview.sessions.users === 1 ? "person" : "people"} signed in`}
        href="#sessions"
      />
      <Stat
        label="Current locks"
        value={overview.lockouts}
        detail="accounts, login names, addresses"
        href="#lockouts"
      />
      <Stat
        label="MFA adoption"
        value={`${overview.mfa.percent}%`}
        detail={`${overview.mfa.withMfa} of ${overview.mfa.accounts} accounts`}
        href="#mfa"
      />
      <Stat
        label={`Events, ${overview.recent.days} days`}
        value={overview.recent.events}
        detail={`${overview.recent.signInFailures} failed sign-ins`}
        href="#events"
      />
      <Stat
        label="Service credentials"
        value={overview.credentials.active}
        detail="active"
        href="#credentials"
      />
    </div>
  );
}

/** The outcome of the last form, and a new secret (once) after create or rotate. */
export function SecurityOutcome({ result }: { result: SecurityFormResult | null }) {
  if (!result) return null;
  if (!result.ok) {
    if (Object.keys(result.field).length > 0 && result.intent === "create-credential") return null;
    return (
      <Notice tone="danger" role="alert">
        {result.message}
      </Notice>
    );
  }
  if (!result.secret) {
    return (
      <Notice tone="ok" role="status">
        {result.message}
      </Notice>
    );
  }
  return (
    <Notice tone="warn" title={result.message} role="status">
      <div data-testid="new-secret" className="space-y-2">
        <p>
          Copy the secret now: it is shown <strong>only once</strong> and cannot be read again (the server
          keeps a hash). Store it in the calling server's secret store; anyone holding it can obtain tokens.
        </p>
        <dl className="grid gap-1 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="font-medium">Client id</dt>
          <dd>
            <code className="break-all rounded bg-sunken px-1.5 py-0.5 font-mono text-xs">
              {result.secret.clientId}
            </code>
          </dd>
          <dt className="font-medium">Client secret</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code
              data-testid="client-secret"
              className="break-all rounded bg-sunken px-1.5 py-0.5 font-mono text-xs"
            >
              {result.secret.clientSecret}
            </code>
            <CopyButton value={result.secret.clientSecret} label="Copy secret" />
          </dd>
        </dl>
      </div>
    </Notice>
  );
}

function NoteField({ id }: { id: string }) {
  return <Field label="Note for the audit log" name="note" id={id} optional maxLength={500} />;
}

function Confirm({
  summary,
  tone = "danger",
  label,
  children,
  confirm,
}: {
  summary: string;
  tone?: "danger" | "accent";
  label: string;
  children: ReactNode;
  confirm: string;
}) {
  return (
    <details className="rounded-lg border border-line p-2">
      <summary
        className={`cursor-pointer text-sm font-medium ${tone === "danger" ? "text-danger-text" : "text-accent-text"}`}
      >
        {summary}
      </summary>
      <Form method="post" className="mt-2 space-y-2" aria-label={label}>
        {children}
        <Button type="submit" size="sm" variant={tone === "danger" ? "danger" : "primary"}>
          {confirm}
        </Button>
      </Form>
    </details>
  );
}

function SessionActions({ s }: { s: PlatformSession }) {
  return (
    <div className="flex flex-col gap-2">
      <Confirm summary="Revoke…" label={`Revoke this session of ${s.user.email}`} confirm="Revoke session">
        <input type="hidden" name="intent" value="revoke-session" />
        <input type="hidden" name="id" value={s.id} />
        <input type="hidden" name="email" value={s.user.email} />
        <NoteField id={`note-s-${s.id}`} />
      </Confirm>
      <Confirm
        summary="Revoke all…"
        label={`Revoke every session of ${s.user.email}`}
        confirm={`Sign ${s.user.name || "them"} out everywhere`}
      >
        <input type="hidden" name="intent" value="revoke-user" />
        <input type="hidden" name="id" value={s.user.id} />
        <input type="hidden" name="email" value={s.user.email} />
        <NoteField id={`note-u-${s.id}`} />
      </Confirm>
    </div>
  );
}

function Person({ name, email, current }: { name: string; email: string; current?: boolean }) {
  return (
    <div className="min-w-0">
      <p className="font-medium text-ink [overflow-wrap:anywhere]">{name || email}</p>
      <p className="text-xs text-ink-muted [overflow-wrap:anywhere]">{email}</p>
      {current ? (
        <p className="mt-1 inline-block rounded bg-accent-soft px-1.5 py-0.5 text-xs text-accent-text">
          This session (yours)
        </p>
      ) : null}
    </div>
  );
}

export function SessionsPanel({
  sessions,
  filters,
  error,
}: {
  sessions: SessionsPage | null;
  filters: { email: string };
  error: { message: string; field: Record<string, string> } | null;
}) {
  const pageLink = (page: number) => {
    const q = new URLSearchParams();
    if (filters.email) q.set("email", filters.email);
    if (page > 1) q.set("page", String(page));
    const s = q.toString();
    return `?${s}#sessions`;
  };
  const pages = sessions ? Math.max(1, Math.ceil(sessions.total / sessions.pageSize)) : 1;
  return (
    <section id="sessions" className="scroll-mt-20">
      <Panel title={`Active sessions${sessions ? ` (${sessions.total})` : ""}`}>
        <p className="mb-3 text-sm text-ink-muted">
          Every sign-in still inside its idle time-out and lifetime. Revoking deletes the session: the next
          request made with it, on any app process, is signed out.
        </p>
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" aria-label="Filter sessions">
          <div className="min-w-0 flex-1 sm:max-w-sm">
            <Field
              label="User e-mail"
              name="email"
              type="search"
              placeholder="Part of an e-mail"
              defaultValue={filters.email}
              error={error?.field.email}
            />
          </div>
          <Button type="submit">Filter</Button>
          {filters.email ? (
            <Link to="?#sessions" className="px-2 py-2 text-sm text-accent-text hover:underline">
              Clear
            </Link>
          ) : null}
        </Form>
        {error ? (
          <Notice tone="danger" role="alert">
            {error.message}
          </Notice>
        ) : null}
        {sessions && sessions.items.length === 0 ? (
          <p className="text-sm text-ink-muted">No active session matches.</p>
        ) : null}
        {sessions && sessions.items.length > 0 ? (
          <>
            <div className="hidden overflow-x-auto md:block">
              <table className="w-full text-sm">
                <thead className="border-b border-line">
                  <tr>
                    <th className={th}>User</th>
                    <th className={th}>Signed in</th>
                    <th className={th}>Last active</th>
                    <th className={th}>Address and device</th>
                    <th className={th}>Expires</th>
                    <th className={th}>Actions</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line">
                  {sessions.items.map((s) => (
                    <tr key={s.id} data-testid={`session-${s.user.email}`}>
                      <td className={`${cell} min-w-44`}>
                        <Person name={s.user.name} email={s.user.email} current={s.current} />
                      </td>
                      <td className={cell}>{at(s.createdAt)}</td>
                      <td className={cell}>{at(s.lastActiveAt)}</td>
                      <td className={cell}>
                        <span className="block font-mono text-xs">{s.ipAddress ?? "—"}</span>
                        <span className="block text-xs text-ink-muted" title={s.userAgent ?? undefined}>
                          {s.device}
                        </span>
                      </td>
                      <td className={cell}>{at(s.expiresAt)}</td>
                      <td className={`${cell} w-56`}>
                        <SessionActions s={s} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul className="space-y-3 md:hidden">
              {sessions.items.map((s) => (
                <li key={s.id} className="space-y-2 rounded-lg border border-line p-3 text-sm">
                  <Person name={s.user.name} email={s.user.email} current={s.current} />
                  <p className="text-xs text-ink-muted">
                    Signed in {at(s.createdAt)} · last active {at(s.lastActiveAt)} · expires {at(s.expiresAt)}
                  </p>
                  <p className="text-xs text-ink-muted">
                    <span className="font-mono">{s.ipAddress ?? "—"}</span> · {s.device}
                  </p>
                  <SessionActions s={s} />
                </li>
              ))}
            </ul>
            {pages > 1 ? (
              <nav aria-label="Session pages" className="mt-3 flex items-center gap-3 text-sm">
                {sessions.page > 1 ? (
                  <Link to={pageLink(sessions.page - 1)} className="text-accent-text hover:underline">
                    ← Previous
                  </Link>
                ) : null}
                <span className="text-ink-muted">
                  Page {sessions.page} of {pages}
                </span>
                {sessions.page < pages ? (
                  <Link to={pageLink(sessions.page + 1)} className="text-accent-text hover:underline">
                    Next →
                  </Link>
                ) : null}
              </nav>
            ) : null}
          </>
        ) : null}
      </Panel>
    </section>
  );
}

export function LockoutsPanel({ lockouts }: { lockouts: Lockout[] }) {
  return (
    <section id="lockouts" className="scroll-mt-20">
      <Panel title={`Sign-in locks (${lockouts.length})`}>
        <p className="mb-3 text-sm text-ink-muted">
          Locks set by repeated failed sign-ins, per account, per login name that matches no account, and per
          client address. They lift by themselves at the time shown; clearing one lets the next sign-in
          through now.
        </p>
        {lockouts.length === 0 ? (
          <p className="text-sm text-ink-muted">Nothing is locked right now.</p>
        ) : (
          <ul className="divide-y divide-line">
            {lockouts.map((l) => (
              <li
                key={l.key}
                className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start"
                data-testid={`lock-${l.kind}`}
              >
                <div className="min-w-0 flex-1 text-sm">
                  <p className="break-all font-medium text-ink">
                    {l.user ? `${l.user.name || l.user.email} · ${l.user.email}` : l.subject}
                  </p>
                  <p className="text-xs text-ink-muted">
                    {l.kind === "account"
                      ? "Account"
                      : l.kind === "address"
                        ? "Client address"
                        : "Login name with no account"}{" "}
                    · locked after {l.limit} failures · until {at(l.lockedUntil)}
                    {l.failures > 0 ? ` · ${l.failures} more tried since` : ""}
                  </p>
                </div>
                <div className="sm:w-64">
                  <Confirm
                    summary="Clear lock…"
                    tone="accent"
                    label={`Clear the lock on ${l.subject}`}
                    confirm="Clear lock"
                  >
                    <input type="hidden" name="intent" value="clear-lock" />
                    <input type="hidden" name="id" value={l.key} />
                    <input type="hidden" name="subject" value={l.subject} />
                    <NoteField id={`note-l-${l.key}`} />
                  </Confirm>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </section>
  );
}

export function MfaPanel({ mfa }: { mfa: MfaAdoption }) {
  return (
    <section id="mfa" className="scroll-mt-20">
      <Panel title="MFA adoption">
        <p className="text-sm text-ink">
          <strong>{mfa.percent}%</strong> of active accounts ({mfa.withMfa} of {mfa.accounts}) have a second
          factor.
        </p>
        <div
          className="mt-2 h-2 overflow-hidden rounded-full bg-sunken"
          role="img"
          aria-label={`${mfa.percent}% of accounts have a second factor`}
        >
          <div className="h-full rounded-full bg-accent" style={{ width: `${mfa.percent}%` }} />
        </div>
        <p className="mt-3 text-sm text-ink-muted">
          Staff: {mfa.staff.withMfa} of {mfa.staff.total} enrolled. Staff rights apply only once a second
          factor is enrolled.
        </p>
        {mfa.staff.withoutMfa.length > 0 ? (
          <div className="mt-3">
            <h3 className="text-sm font-medium text-ink">Staff without a second factor</h3>
            <ul className="mt-1 divide-y divide-line text-sm" data-testid="staff-without-mfa">
              {mfa.staff.withoutMfa.map((p) => (
                <li key={p.id} className="py-2">
                  <Person name={p.name} email={p.email} />
                  <p className="text-xs text-ink-muted">{p.groups.join(", ")}</p>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="mt-2 text-sm text-ink-muted">Every staff account has a second factor.</p>
        )}
      </Panel>
    </section>
  );
}

export function PolicyPanel({ policy }: { policy: PasswordPolicyView }) {
  return (
    <Panel title="Password and sign-in policy">
      <KeyValueList
        rows={[
          ["Length", `${policy.minLength} to ${policy.maxLength} characters`],
          ["Must contain", policy.rules.slice(1).join(", ").toLowerCase()],
          ["Refused", `${policy.commonPasswords.toLocaleString("en-GB")} common and breached passwords`],
          ["Stored as", policy.hashing],
          [
            "Lockout",
            `${policy.lockout.accountAttempts} failures on an account, ${policy.lockout.addressAttempts} from an address → ${policy.lockout.lockoutMinutes} minutes`,
          ],
          [
            "Sessions",
            `idle ${policy.sessions.idleMinutes} min, at most ${policy.sessions.absoluteHours} h, new token every ${policy.sessions.rotationHours} h`,
          ],
          ["Staff", policy.staffMfa],
        ]}
      />
      <p className="mt-3 text-xs text-ink-subtle">Read-only: these are the rules the server enforces.</p>
    </Panel>
  );
}

export function EventsPanel({ events }: { events: SecurityEvent[] }) {
  return (
    <section id="events" className="scroll-mt-20">
      <Panel
        title="Recent security events"
        action={
          <Link
            to={SECURITY_EVENTS_LOG_LINK}
            className="text-sm font-medium text-accent-text hover:underline"
          >
            All in the audit log →
          </Link>
        }
      >
        {events.length === 0 ? (
          <p className="text-sm text-ink-muted">No security events recorded yet.</p>
        ) : (
          <ul className="divide-y divide-line text-sm" data-testid="security-events">
            {events.map((e) => (
              <li key={e.id} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-3">
                <span className="shrink-0 text-xs text-ink-muted sm:w-36">{at(e.at)}</span>
                <span className="min-w-0 flex-1">
                  <span className="font-medium text-ink">{e.label}</span>
                  <span className="break-all text-ink-muted">
                    {e.target.email ? ` · ${e.target.email}` : ""}
                    {e.actor?.email && e.actor.id !== e.target.id
                      ? auditCategory(e.action) === "admin"
                        ? ` · by ${e.actor.email}`
                        : ` · ${e.actor.email}`
                      : ""}
                    {e.summary ? ` · ${e.summary}` : ""}
                    {e.ip ? ` · ${e.ip}` : ""}
                    {e.note ? ` · “${e.note}”` : ""}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </section>
  );
}

export function CredentialsPanel({
  credentials,
  scopes,
  result,
}: {
  credentials: CredentialView[];
  scopes: readonly string[];
  result: SecurityFormResult | null;
}) {
  const createError = result?.intent === "create-credential" && !result.ok ? result : null;
  const scopeHelp: Record<string, string> = {
    "content:read": "public reads, as a visitor",
    "content:read:all": "reads every item, like a content manager",
    "repositories:read": "repository reads",
  };
  return (
    <section id="credentials" className="scroll-mt-20">
      <Panel title="Service credentials">
        <p className="mb-3 text-sm text-ink-muted">
          A client id and secret a trusted server exchanges for 15-minute read tokens. Rotating issues a new
          secret: the old one, and every token obtained with it, stops working at once. Revoking ends the
          credential.
        </p>
        {credentials.length === 0 ? (
          <p className="text-sm text-ink-muted">No service credentials yet.</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="credentials">
            {credentials.map((c) => (
              <li
                key={c.id}
                className="flex flex-col gap-3 py-3 lg:flex-row lg:items-start"
                data-testid={`credential-${c.name}`}
              >
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium text-ink">
                    {c.name}{" "}
                    {c.revokedAt ? (
                      <span className="ml-1 rounded bg-danger-soft px-1.5 py-0.5 text-xs text-danger-text">
                        Revoked {at(c.revokedAt)}
                      </span>
                    ) : null}
                  </p>
                  <p className="break-all text-xs text-ink-muted">
                    <code className="font-mono">{c.clientId}</code> · {c.scopes.join(", ")}
                  </p>
                  <p className="text-xs text-ink-subtle">
                    Created {at(c.createdAt)} by {c.createdByEmail ?? "a removed account"} ·{" "}
                    {c.lastUsedAt ? `last used ${at(c.lastUsedAt)}` : "never used"}
                    {c.rotatedAt ? ` · rotated ${at(c.rotatedAt)}` : ""}
                  </p>
                </div>
                {c.revokedAt ? null : (
                  <div className="flex flex-col gap-2 lg:w-64">
                    <Confirm
                      summary="Rotate secret…"
                      tone="accent"
                      label={`Rotate the secret of ${c.name}`}
                      confirm="Rotate secret"
                    >
                      <input type="hidden" name="intent" value="rotate-credential" />
                      <input type="hidden" name="id" value={c.id} />
                      <p className="text-xs text-ink-muted">
                        The current secret and its tokens stop working now; update the calling server with the
                        new one.
                      </p>
                    </Confirm>
                    <Confirm summary="Revoke…" label={`Revoke ${c.name}`} confirm="Revoke credential">
                      <input type="hidden" name="intent" value="revoke-credential" />
                      <input type="hidden" name="id" value={c.id} />
                      <input type="hidden" name="name" value={c.name} />
                      <p className="text-xs text-ink-muted">
                        The credential and every token issued from it stop working now. This cannot be undone.
                      </p>
                    </Confirm>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        <Form
          method="post"
          className="mt-4 space-y-3 border-t border-line pt-4"
          aria-label="Create a service credential"
        >
          <h3 className="text-sm font-semibold text-ink">Create a credential</h3>
          <input type="hidden" name="intent" value="create-credential" />
          <div className="sm:max-w-sm">
            <Field label="Name" name="name" required maxLength={100} error={createError?.field.name} />
          </div>
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-ink">Scopes</legend>
            <div className="space-y-1">
              {scopes.map((s) => (
                <label key={s} className="flex items-start gap-2 text-sm text-ink">
                  <input
                    type="checkbox"
                    name="scopes"
                    value={s}
                    defaultChecked={s === "content:read"}
                    className="mt-1"
                  />
                  <span>
                    <code className="font-mono">{s}</code>
                    {scopeHelp[s] ? <span className="text-ink-muted"> — {scopeHelp[s]}</span> : null}
                  </span>
                </label>
              ))}
            </div>
            {createError?.field.scopes ? (
              <p role="alert" className="mt-1 text-sm text-danger-text">
                {createError.field.scopes}
              </p>
            ) : null}
          </fieldset>
          <Button type="submit">Create credential</Button>
        </Form>
      </Panel>
    </section>
  );
}
