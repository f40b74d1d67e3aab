/**
 * /admin/users/:userId: one account — profile, status (suspend / reinstate), lockout and why
 * (unlock), groups and roles (add / remove as core/group-grants.ts allows), plan (grant with a
 * note, through the billing admin write path), subscription history, sessions (revoke), two-factor
 * (reset), API keys (revoke), security events, delete (typed confirmation). Every action is a
 * plain POST form with an optional note for the audit log; the server decides, the screen only
 * offers what `user.can` says and shows the answer.
 */
import { type ReactNode, useId, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { AdminUserDetail } from "../../../server/modules/users-admin/users-admin.types.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button, type ButtonVariant } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Field, inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { UserActionResult } from "./admin-users.server.ts";
import { day, StatusBadge, TIER_NAME } from "./user-list.tsx";

const timeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const when = (iso: string | null | undefined) =>
  iso && !Number.isNaN(Date.parse(iso)) ? `${timeFormat.format(new Date(iso))} UTC` : "—";

const EVENT_NAME: Record<string, string> = {
  sign_in_failure: "Wrong password",
  lockout: "Locked out",
  mfa_failure: "Wrong two-factor code",
  password_check_failure: "Wrong current password",
  admin_unlock: "Unlocked by an admin",
};

function usePending(intent: string, extra?: [string, string]) {
  const navigation = useNavigation();
  const data = navigation.formData;
  if (navigation.state !== "submitting" || !data) return false;
  if (data.get("intent") !== intent) return false;
  return extra ? data.get(extra[0]) === extra[1] : true;
}

/** A one-button action form with an optional note. */
function ActionForm({
  intent,
  label,
  pendingLabel,
  variant = "secondary",
  hidden = {},
  note = false,
  children,
}: {
  intent: string;
  label: string;
  pendingLabel: string;
  variant?: ButtonVariant;
  hidden?: Record<string, string>;
  note?: boolean;
  children?: ReactNode;
}) {
  const first = Object.entries(hidden)[0];
  const pending = usePending(intent, first);
  const noteId = useId();
  return (
    <Form method="post" className="space-y-2">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {children}
      {note ? (
        <div>
          <label htmlFor={noteId} className="mb-1 block text-xs font-medium text-ink-muted">
            Note for the audit log (optional)
          </label>
          <input id={noteId} name="note" maxLength={500} className={inputClass} />
        </div>
      ) : null}
      <Button type="submit" size="sm" variant={variant} disabled={pending} aria-busy={pending || undefined}>
        {pending ? pendingLabel : label}
      </Button>
    </Form>
  );
}

export function ActionOutcome({ result }: { result: UserActionResult | null }) {
  if (!result) return null;
  return (
    <Notice tone={result.ok ? "ok" : "danger"} role={result.ok ? "status" : "alert"}>
      <span data-testid="action-outcome">{result.message}</span>
    </Notice>
  );
}

function ProfilePanel({ user }: { user: AdminUserDetail }) {
  const p = user.profile;
  return (
    <Panel title="Profile">
      <KeyValueList
        rows={[
          ["Name", p.displayName && p.displayName !== p.name ? `${p.name} (${p.displayName})` : p.name],
          [
            "E-mail",
            <span
              key="e"
              className="break-all"
            >{`${p.email}${p.emailVerified ? "" : " (not confirmed)"}`}</span>,
          ],
          ["Username", p.username ? `@${p.username}` : "—"],
          ["Phone", p.phoneNumber ?? "—"],
          ["Account type", p.accountType ?? "individual"],
          ["Status", <StatusBadge key="s" status={user.status} />],
          ["Tier", user.tier ? TIER_NAME[user.tier] : "None"],
          [
            "Organisations",
            user.organisations.length
              ? user.organisations.map((o) => `${o.name}${o.admin ? " (admin)" : ""}`).join(", ")
              : "—",
          ],
          ["Created", when(p.createdAt)],
          ["Last sign-in", p.lastLoginAt ? when(p.lastLoginAt) : "Never"],
          [
            "User id",
            <code key="id" className="break-all text-xs">
              {p.id}
            </code>,
          ],
        ]}
      />
    </Panel>
  );
}

function StatusPanel({ user }: { user: AdminUserDetail }) {
  const active = user.profile.isActive;
  return (
    <Panel title="Suspension">
      <p className="mb-3 text-sm text-ink-muted">
        {active
          ? "Suspending refuses sign-in with a clear message, signs every session out and stops the user's API keys at once. Nothing is deleted."
          : "This account is suspended: sign-in is refused and its API keys do not work."}
      </p>
      {user.can.manage ? (
        active ? (
          <ActionForm
            intent="suspend"
            label="Suspend account"
            pendingLabel="Suspending…"
            variant="danger"
            note
          />
        ) : (
          <ActionForm
            intent="reinstate"
            label="Reinstate account"
            pendingLabel="Reinstating…"
            variant="primary"
            note
          />
        )
      ) : (
        <p className="text-sm text-ink-subtle">You cannot suspend this account.</p>
      )}
    </Panel>
  );
}

function LockoutPanel({ user }: { user: AdminUserDetail }) {
  const { lockout } = user;
  return (
    <Panel title="Lockout">
      {lockout.locked ? (
        <Notice tone="warn" title={`Locked out until ${when(lockout.lockedUntil)}`}>
          Too many failed sign-in attempts: the recorded attempts are below. Sign-in works again by itself
          when the lock ends, or now if you unlock it.
        </Notice>
      ) : (
        <p className="text-sm text-ink-muted" data-testid="lockout-state">
          Not locked out{lockout.failures ? ` (${lockout.failures} recent failed attempts counted)` : ""}.
        </p>
      )}
      {lockout.events.length ? (
        <div className="mt-3">
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-ink-muted">
            Why: recent attempts
          </h3>
          <ul className="divide-y divide-line text-sm" data-testid="lockout-events">
            {lockout.events.map((e) => (
              <li key={`${e.at}-${e.action}`} className="flex flex-wrap justify-between gap-x-3 py-1.5">
                <span className={e.action === "lockout" ? "font-medium text-ink" : "text-ink"}>
                  {EVENT_NAME[e.action] ?? e.action}
                  {e.details && typeof e.details.method === "string" ? ` (${e.details.method})` : ""}
                </span>
                <span className="text-xs text-ink-muted">
                  {when(e.at)}
                  {e.ip ? ` · from ${e.ip}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {user.can.manage && lockout.locked ? (
        <div className="mt-3">
          <ActionForm
            intent="unlock"
            label="Unlock account"
            pendingLabel="Unlocking…"
            variant="primary"
            note
          />
        </div>
      ) : null}
    </Panel>
  );
}

function GroupsPanel({ user }: { user: AdminUserDetail }) {
  const selectId = useId();
  return (
    <Panel title="Groups and roles">
      <p className="mb-2 text-sm text-ink-muted">
        Roles: {user.roles.length ? user.roles.join(", ") : "none"}
      </p>
      <ul className="mb-3 flex flex-wrap gap-2" aria-label="Groups">
        {user.groups.length === 0 ? <li className="text-sm text-ink-subtle">No groups.</li> : null}
        {user.groups.map((g) => (
          <li
            key={g}
            className="flex items-center gap-1 rounded-full border border-line py-0.5 pr-1 pl-3 text-sm"
          >
            <span>{g}</span>
            {user.can.removeGroups.includes(g) ? (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-group" />
                <input type="hidden" name="group" value={g} />
                <button
                  type="submit"
                  className="rounded-full px-2 text-ink-muted hover:bg-sunken hover:text-ink"
                  aria-label={`Remove ${g}`}
                >
                  ×
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      {user.can.addGroups.length ? (
        <ActionForm intent="add-group" label="Add group" pendingLabel="Adding…" note>
          <label htmlFor={selectId} className="mb-1 block text-xs font-medium text-ink-muted">
            Group to add
          </label>
          <select id={selectId} name="group" className={inputClass} required>
            {user.can.addGroups.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </ActionForm>
      ) : null}
      <p className="mt-2 text-xs text-ink-subtle">
        Only the owner grants app-owner and app-admin; organisation admins change only their own
        organisation's groups; nobody removes their own last admin group.
      </p>
    </Panel>
  );
}

function PlanPanel({
  user,
  plans,
  result,
}: {
  user: AdminUserDetail;
  plans: { id: string; name: string; tier: string }[];
  result: UserActionResult | null;
}) {
  const planId = useId();
  const field = result?.intent === "grant-plan" && !result.ok ? result.field : {};
  return (
    <Panel title="Plan">
      <p className="mb-3 text-sm text-ink-muted">
        Current tier:{" "}
        <span className="font-medium text-ink">{user.tier ? TIER_NAME[user.tier] : "none"}</span>
        {user.tierSource.kind === "subscription"
          ? " (from a subscription)"
          : user.tierSource.kind === "groups"
            ? " (from the groups: no subscription rows)"
            : ""}
      </p>
      {user.can.plan && plans.length ? (
        <ActionForm intent="grant-plan" label="Grant plan" pendingLabel="Granting…" variant="primary">
          <input type="hidden" name="email" value={user.profile.email} />
          <div className="grid gap-3 sm:grid-cols-3">
            <div>
              <label htmlFor={planId} className="mb-1.5 block text-sm font-medium text-ink">
                Plan
              </label>
              <select id={planId} name="planId" className={inputClass} defaultValue={plans[0]?.id}>
                {plans.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
            <Field
              label="Days"
              name="days"
              type="number"
              min={1}
              max={3650}
              defaultValue={30}
              error={field.days}
            />
            <Field label="Note (required)" name="note" required maxLength={500} error={field.note} />
          </div>
        </ActionForm>
      ) : (
        <p className="text-sm text-ink-subtle">Plans are granted by platform administrators.</p>
      )}
    </Panel>
  );
}

function Rows({ empty, children }: { empty: string; children: ReactNode[] }) {
  if (children.length === 0) return <p className="text-sm text-ink-muted">{empty}</p>;
  return <ul className="divide-y divide-line text-sm">{children}</ul>;
}

function SubscriptionsPanel({ user }: { user: AdminUserDetail }) {
  return (
    <Panel title="Subscription history">
      <Rows empty="No subscriptions.">
        {user.subscriptions.map((s) => (
          <li key={s.id} className="flex flex-wrap justify-between gap-x-3 gap-y-1 py-2">
            <span className="text-ink">
              {TIER_NAME[s.tier.toLowerCase()] ?? s.tier}
              {s.planId ? ` · ${s.planId}` : ""} · {s.status}
              {s.organisation ? ` · ${s.organisation}` : ""}
            </span>
            <span className="text-xs text-ink-muted">
              {day(s.startedAt ?? s.createdAt)} → {day(s.expiresAt ?? s.canceledAt ?? s.periodEnd)} ·{" "}
              {s.source ?? "—"}
            </span>
          </li>
        ))}
      </Rows>
      {user.invoices.length ? (
        <>
          <h3 className="mt-4 mb-1 text-xs font-semibold uppercase tracking-wide text-ink-muted">Invoices</h3>
          <Rows empty="">
            {user.invoices.map((i) => (
              <li key={i.id} className="flex flex-wrap justify-between gap-x-3 py-1.5">
                <span>
                  {i.number} · {i.description}
                </span>
                <span className="text-xs text-ink-muted">
                  {(i.amountCents / 100).toFixed(2)} {i.currency.toUpperCase()} · {i.status} ·{" "}
                  {day(i.createdAt)}
                </span>
              </li>
            ))}
          </Rows>
        </>
      ) : null}
    </Panel>
  );
}

function SessionsPanel({ user }: { user: AdminUserDetail }) {
  return (
    <Panel
      title={`Sessions (${user.sessions.length})`}
      action={
        user.can.manage && user.sessions.length > 0 ? (
          <ActionForm intent="revoke-all" label="Sign out everywhere" pendingLabel="Signing out…" />
        ) : undefined
      }
    >
      <Rows empty="No active sessions.">
        {user.sessions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-2">
            <div className="min-w-0">
              <p className="break-words text-ink">{s.userAgent ?? "Unknown device"}</p>
              <p className="text-xs text-ink-muted">
                {s.ipAddress ?? "unknown address"} · signed in {when(s.createdAt)} · last seen{" "}
                {when(s.lastActiveAt)}
              </p>
            </div>
            {user.can.manage ? (
              <ActionForm
                intent="revoke-session"
                label="Revoke"
                pendingLabel="Revoking…"
                hidden={{ sessionId: s.id }}
              />
            ) : null}
          </li>
        ))}
      </Rows>
    </Panel>
  );
}

function MfaPanel({ user }: { user: AdminUserDetail }) {
  const { mfa } = user;
  return (
    <Panel title="Two-factor sign-in">
      <p className="mb-3 text-sm text-ink-muted">
        {mfa.enabled ? `On${mfa.verifiedApp ? " (authenticator app)" : ""}.` : "Off."}
        {mfa.pendingStaffRoles.length
          ? ` Staff rights (${mfa.pendingStaffRoles.join(", ")}) wait until they enrol an authenticator app.`
          : ""}
      </p>
      {user.can.manage && (mfa.enabled || mfa.verifiedApp) ? (
        <ActionForm
          intent="reset-mfa"
          label="Reset two-factor"
          pendingLabel="Resetting…"
          variant="danger"
          note
        />
      ) : null}
      <p className="mt-2 text-xs text-ink-subtle">
        A reset removes their second factors and signs them out; they enrol again (staff on their next
        sign-in).
      </p>
    </Panel>
  );
}

function ApiKeysPanel({ user }: { user: AdminUserDetail }) {
  return (
    <Panel title="API keys">
      <Rows empty="No API keys.">
        {user.apiKeys.map((k) => (
          <li key={k.id} className="flex flex-wrap items-start justify-between gap-3 py-2">
            <div className="min-w-0">
              <p className="text-ink">
                {k.name} <code className="text-xs text-ink-muted">{k.prefix}…</code>
              </p>
              <p className="text-xs text-ink-muted">
                {k.scopes.join(", ") || "no scopes"} · created {day(k.createdAt)} · last used{" "}
                {k.lastUsedAt ? day(k.lastUsedAt) : "never"}
                {k.revokedAt ? ` · revoked ${day(k.revokedAt)}` : ""}
                {k.expiresAt ? ` · expires ${day(k.expiresAt)}` : ""}
              </p>
            </div>
            {user.can.manage && !k.revokedAt ? (
              <ActionForm
                intent="revoke-key"
                label="Revoke"
                pendingLabel="Revoking…"
                hidden={{ keyId: k.id }}
              />
            ) : null}
          </li>
        ))}
      </Rows>
    </Panel>
  );
}

function EventsPanel({ user }: { user: AdminUserDetail }) {
  return (
    <Panel title="Security and admin events">
      <Rows empty="No events recorded.">
        {user.securityEvents.map((e) => (
          <li key={e.id} className="flex flex-wrap justify-between gap-x-3 py-1.5">
            <span className="text-ink">
              {e.action.replaceAll("_", " ")}
              {e.actorId && e.actorId !== user.profile.id ? " (by an admin)" : ""}
              {e.details && typeof e.details.note === "string" ? ` — “${e.details.note}”` : ""}
            </span>
            <span className="text-xs text-ink-muted">
              {when(e.at)}
              {e.ip ? ` · ${e.ip}` : ""}
            </span>
          </li>
        ))}
      </Rows>
    </Panel>
  );
}

function DeletePanel({ user, result }: { user: AdminUserDetail; result: UserActionResult | null }) {
  const [typed, setTyped] = useState("");
  const pending = usePending("delete");
  const matches = typed.trim().toLowerCase() === user.profile.email.toLowerCase();
  const error = result?.intent === "delete" && !result.ok ? (result.field.confirm ?? null) : null;
  return (
    <Panel title="Delete account">
      <p className="mb-3 text-sm text-ink-muted">
        Deletes the account with its own data (sessions, groups, subscriptions, API keys, second factors,
        likes and progress). Content they wrote stays published without an author. This cannot be undone.
      </p>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="delete" />
        <Field
          label={`Type ${user.profile.email} to confirm`}
          name="confirm"
          autoComplete="off"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          error={error}
        />
        <Field label="Note for the audit log" name="note" optional maxLength={500} />
        <Button type="submit" variant="danger" size="sm" disabled={pending || (typed !== "" && !matches)}>
          {pending ? "Deleting…" : "Delete account"}
        </Button>
      </Form>
    </Panel>
  );
}

export function UserPage({
  user,
  plans,
  result,
}: {
  user: AdminUserDetail;
  plans: { id: string; name: string; tier: string }[];
  result: UserActionResult | null;
}) {
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/users" className="text-sm font-medium text-accent-text hover:underline">
          ← All users
        </Link>
      </p>
      <h2 className="break-all text-xl font-semibold text-ink" data-testid="user-heading">
        {user.profile.name || user.profile.email}{" "}
        <span className="text-base font-normal text-ink-muted">{user.profile.email}</span>
      </h2>
      <ActionOutcome result={result} />
      <div className="grid gap-6 lg:grid-cols-2">
        <ProfilePanel user={user} />
        <div className="space-y-6">
          <LockoutPanel user={user} />
          <StatusPanel user={user} />
        </div>
        <GroupsPanel user={user} />
        <PlanPanel user={user} plans={plans} result={result} />
        <SubscriptionsPanel user={user} />
        <SessionsPanel user={user} />
        <MfaPanel user={user} />
        <ApiKeysPanel user={user} />
      </div>
      <EventsPanel user={user} />
      {user.can.delete ? <DeletePanel user={user} result={result} /> : null}
    </div>
  );
}
