/**
 * /admin/users: the filter form (a GET form: search, tier, group, status, organisation, MFA), the
 * table with sortable headers (cards below 640 px), the total and the pager. Rows link to the
 * user page. Works without JavaScript.
 */
import { type ReactNode, useId } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { AdminUserPage, AdminUserRow } from "../../../server/modules/users-admin/users-admin.types.ts";
import { Button } from "../../components/ui/button.tsx";
import { inputClass } from "../../components/ui/fields.tsx";

export const TIER_NAME: Record<string, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  enterprise: "Enterprise",
};
export const STATUS_NAME: Record<string, string> = {
  active: "Active",
  suspended: "Suspended",
  locked: "Locked out",
  unverified: "E-mail not confirmed",
};
const STATUS_TONE: Record<string, string> = {
  active: "bg-emerald-500/10 text-emerald-700 dark:text-emerald-300",
  suspended: "bg-red-500/10 text-red-700 dark:text-red-300",
  locked: "bg-amber-500/10 text-amber-800 dark:text-amber-300",
  unverified: "bg-sunken text-ink-muted",
};

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
export const day = (iso: string | null | undefined) =>
  iso && !Number.isNaN(Date.parse(iso)) ? dayFormat.format(new Date(iso)) : "—";

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[status] ?? "bg-sunken text-ink-muted"}`}
    >
      {STATUS_NAME[status] ?? status}
    </span>
  );
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

export function UserFilters({
  filters,
  groups,
  organisations,
  scoped,
  error,
}: {
  filters: Record<string, string>;
  groups: string[];
  organisations: { slug: string; name: string }[];
  scoped: boolean;
  error: { field: Record<string, string> } | null;
}) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/admin/users";
  const searchId = useId();
  return (
    <Form method="get" className="space-y-3" aria-label="Find users">
      <div>
        <label htmlFor={searchId} className="mb-1.5 block text-sm font-medium text-ink">
          Search
        </label>
        <input
          id={searchId}
          type="search"
          name="q"
          defaultValue={filters.q ?? ""}
          placeholder="Start of an e-mail, username or name"
          className={inputClass}
          aria-invalid={error?.field.q ? true : undefined}
        />
        <p className="mt-1 text-xs text-ink-subtle">
          Matches the beginning of the e-mail, the username or the name (not the middle), in any case.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
        <Select
          label="Tier"
          name="tier"
          value={filters.tier}
          options={[["", "Any tier"], ...Object.entries(TIER_NAME)]}
        />
        <Select
          label="Group"
          name="group"
          value={filters.group}
          options={[
            ["", "Any group"],
            ["org-admin", "Any organisation admin"],
            ...groups.map((g): [string, string] => [g, g]),
          ]}
        />
        <Select
          label="Status"
          name="status"
          value={filters.status}
          options={[["", "Any status"], ...Object.entries(STATUS_NAME)]}
        />
        <Select
          label="Organisation"
          name="organisation"
          value={filters.organisation}
          options={[
            ["", scoped ? "My organisations" : "Any organisation"],
            ...organisations.map((o): [string, string] => [o.slug, o.name]),
          ]}
        />
        <Select
          label="Two-factor"
          name="mfa"
          value={filters.mfa}
          options={[
            ["", "Either"],
            ["on", "On"],
            ["off", "Off"],
          ]}
        />
        <Select
          label="Sort by"
          name="sort"
          value={filters.sort}
          options={[
            ["", "Name"],
            ["email", "E-mail"],
            ["created", "Newest accounts"],
            ["lastLogin", "Last sign-in"],
          ]}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={searching}>
          {searching ? "Searching…" : "Find users"}
        </Button>
        <Link to="/admin/users" className="text-sm font-medium text-accent-text hover:underline">
          Clear filters
        </Link>
      </div>
    </Form>
  );
}

const SORTS: Record<string, string> = {
  name: "Name",
  email: "E-mail",
  created: "Created",
  lastLogin: "Last sign-in",
};

function SortHeader({
  sort,
  filters,
  children,
}: {
  sort: string;
  filters: Record<string, string>;
  children: ReactNode;
}) {
  const current = filters.sort ?? "name";
  const defaultDir = sort === "created" || sort === "lastLogin" ? "desc" : "asc";
  const dir = filters.dir ?? (current === "created" || current === "lastLogin" ? "desc" : "asc");
  const active = current === sort;
  const next = new URLSearchParams(filters);
  next.set("sort", sort);
  next.set("dir", active ? (dir === "asc" ? "desc" : "asc") : defaultDir);
  next.delete("page");
  return (
    <th
      className="px-3 py-3"
      aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}
      scope="col"
    >
      <Link to={`?${next.toString()}`} className="inline-flex items-center gap-1 hover:text-ink">
        {children}
        <span aria-hidden="true">{active ? (dir === "asc" ? "↑" : "↓") : ""}</span>
        <span className="sr-only">{`Sort by ${SORTS[sort]}`}</span>
      </Link>
    </th>
  );
}

function Groups({ groups }: { groups: string[] }) {
  if (groups.length === 0) return <span className="text-ink-subtle">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {groups.map((g) => (
        <span key={g} className="rounded bg-sunken px-1.5 py-0.5 text-xs text-ink-muted">
          {g}
        </span>
      ))}
    </span>
  );
}

function Who({ u }: { u: AdminUserRow }) {
  return (
    <div className="min-w-0">
      <Link
        to={`/admin/users/${encodeURIComponent(u.id)}`}
        className="font-medium text-accent-text hover:underline"
        data-testid="user-link"
      >
        {u.name || u.email}
      </Link>
      <p className="break-all text-xs text-ink-muted">{u.email}</p>
      {u.username ? <p className="text-xs text-ink-subtle">@{u.username}</p> : null}
    </div>
  );
}

export function UsersTable({ page, filters }: { page: AdminUserPage; filters: Record<string, string> }) {
  const cell = "px-3 py-3 align-top";
  const pageLink = (n: number) => {
    const p = new URLSearchParams(filters);
    p.set("page", String(n));
    return `?${p.toString()}`;
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-ink-muted" role="status">
        <span className="font-semibold tabular-nums text-ink" data-testid="users-total">
          {page.total.toLocaleString("en-GB")}
        </span>{" "}
        {page.total === 1 ? "user matches" : "users match"}
        {page.total > 0 ? ` · page ${page.page} of ${page.pages}` : ""}
      </p>
      {page.items.length === 0 ? (
        <p className="text-sm text-ink-muted">No user matches these filters.</p>
      ) : (
        <>
          <div className="hidden overflow-x-auto sm:block">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-line text-xs uppercase tracking-wide text-ink-muted">
                <tr>
                  <SortHeader sort="name" filters={filters}>
                    Name
                  </SortHeader>
                  <SortHeader sort="email" filters={filters}>
                    E-mail
                  </SortHeader>
                  <th className={cell} scope="col">
                    Tier
                  </th>
                  <th className={cell} scope="col">
                    Groups
                  </th>
                  <th className={cell} scope="col">
                    Status
                  </th>
                  <SortHeader sort="created" filters={filters}>
                    Created
                  </SortHeader>
                  <SortHeader sort="lastLogin" filters={filters}>
                    Last sign-in
                  </SortHeader>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {page.items.map((u) => (
                  <tr key={u.id} data-testid="user-row">
                    <td className={cell}>
                      <Link
                        to={`/admin/users/${encodeURIComponent(u.id)}`}
                        className="font-medium text-accent-text hover:underline"
                        data-testid="user-link"
                      >
                        {u.name || "—"}
                      </Link>
                      {u.username ? <p className="text-xs text-ink-subtle">@{u.username}</p> : null}
                    </td>
                    <td className={`${cell} break-words`}>{u.email}</td>
                    <td className={cell}>{u.tier ? TIER_NAME[u.tier] : "—"}</td>
                    <td className={cell}>
                      <Groups groups={u.groups} />
                    </td>
                    <td className={cell}>
                      <StatusBadge status={u.status} />
                      {u.mfa ? <p className="mt-1 text-xs text-ink-muted">Two-factor on</p> : null}
                    </td>
                    <td className={`${cell} whitespace-nowrap`}>{day(u.createdAt)}</td>
                    <td className={`${cell} whitespace-nowrap`}>
                      {u.lastLoginAt ? day(u.lastLoginAt) : "Never"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-3 sm:hidden" aria-label="Users">
            {page.items.map((u) => (
              <li key={u.id} className="space-y-2 rounded-lg border border-line p-3" data-testid="user-card">
                <Who u={u} />
                <div className="flex flex-wrap items-center gap-2 text-sm text-ink">
                  <StatusBadge status={u.status} />
                  <span>{u.tier ? TIER_NAME[u.tier] : "No tier"}</span>
                  {u.mfa ? <span className="text-xs text-ink-muted">· two-factor on</span> : null}
                </div>
                <Groups groups={u.groups} />
                <p className="text-xs text-ink-muted">
                  Created {day(u.createdAt)} · last sign-in {u.lastLoginAt ? day(u.lastLoginAt) : "never"}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      {page.pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
          {page.page > 1 ? (
            <Link to={pageLink(page.page - 1)} className="font-medium text-accent-text hover:underline">
              ← Previous
            </Link>
          ) : (
            <span />
          )}
          <span className="text-ink-muted">
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? (
            <Link to={pageLink(page.page + 1)} className="font-medium text-accent-text hover:underline">
              Next →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
