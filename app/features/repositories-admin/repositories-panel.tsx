/**
 * The Repositories tab of /admin/content (platform admins): every repository with its source,
 * category, tags, order, enabled switch and sync status (the last sync's error shown in full),
 * "Sync now", an "Add repository" form and the categories. Changes go through
 * /api/admin/repositories; the list reloads from the loader afterwards.
 */
import { ArrowDown, ArrowUp, FolderGit2, Globe, LoaderCircle, Plus, RefreshCw, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useNavigation, useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Field, inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import {
  type AdminCategoryRow,
  type AdminRepositoryRow,
  parseTags,
  repositoryLabel,
  repositorySource,
  type SyncOutcome,
  syncStatusOf,
} from "./admin-rows.ts";
import { CategoriesCard } from "./categories-card.tsx";

const API = "/api/admin/repositories";
const selectClass = cx(inputClass, "pr-8");

export function RepositoriesPanel({
  repositories,
  categories,
  error,
}: {
  repositories: AdminRepositoryRow[];
  categories: AdminCategoryRow[];
  error: string | null;
}) {
  const { revalidate, state } = useRevalidator();
  const navigation = useNavigation();
  const refreshing = state === "loading" || navigation.state === "loading";
  const [adding, setAdding] = useState(repositories.length === 0);

  return (
    <div className="space-y-6">
      {error ? (
        <Notice tone="danger" role="alert" title="Could not load the repositories">
          {error}
        </Notice>
      ) : null}
      <Card className="overflow-hidden">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3">
          <div>
            <h2 className="font-semibold text-ink">Repositories</h2>
            <p className="text-sm text-ink-muted">
              {repositories.length === 1 ? "1 repository" : `${repositories.length} repositories`}, in the
              order /resources shows them.{" "}
              <span aria-live="polite" className="text-ink-subtle">
                {refreshing ? "Refreshing…" : ""}
              </span>
            </p>
          </div>
          <Button size="sm" variant={adding ? "secondary" : "primary"} onClick={() => setAdding((v) => !v)}>
            <Plus aria-hidden="true" className="size-4" />
            {adding ? "Close the form" : "Add repository"}
          </Button>
        </div>
        {adding ? (
          <div className="border-b border-line bg-sunken/40 px-4 py-4">
            <AddRepositoryForm
              categories={categories}
              onAdded={() => {
                setAdding(false);
                void revalidate();
              }}
            />
          </div>
        ) : null}
        {repositories.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-ink-muted">
            No repositories yet. Add a local git folder or a public GitHub repository.
          </p>
        ) : (
          <ul className="divide-y divide-line" aria-label="Repositories">
            {repositories.map((row, index) => (
              <RepositoryRow
                key={`${row.id}-${row.version}`}
                row={row}
                index={index}
                all={repositories}
                categories={categories}
                onChanged={() => void revalidate()}
              />
            ))}
          </ul>
        )}
      </Card>
      <CategoriesCard categories={categories} onChanged={() => void revalidate()} />
    </div>
  );
}

/** Renumbers the list after moving `from` to `to` and saves the rows whose sortOrder changed. */
async function move(all: AdminRepositoryRow[], from: number, to: number): Promise<string | null> {
  const order = [...all];
  const [moved] = order.splice(from, 1);
  if (!moved) return null;
  order.splice(to, 0, moved);
  for (const [i, row] of order.entries()) {
    const sortOrder = (i + 1) * 10;
    if (row.sortOrder === sortOrder) continue;
    const result = await settle(
      api.patch(`${API}/${encodeURIComponent(row.id)}`, {
        version: row.version,
        sortOrder,
      }),
    );
    if (!result.ok) return result.error.message;
  }
  return null;
}

function StatusBadge({ row }: { row: AdminRepositoryRow }) {
  const status = syncStatusOf(row);
  const styles = {
    synced: "bg-ok-soft text-ok-text",
    failed: "bg-danger-soft text-danger-text",
    "never-synced": "bg-sunken text-ink-muted",
  }[status];
  const text = { synced: "Synced", failed: "Sync failed", "never-synced": "Not synced yet" }[status];
  return <span className={cx("rounded-full px-2 py-0.5 text-xs font-medium", styles)}>{text}</span>;
}

function RepositoryRow({
  row,
  index,
  all,
  categories,
  onChanged,
}: {
  row: AdminRepositoryRow;
  index: number;
  all: AdminRepositoryRow[];
  categories: AdminCategoryRow[];
  onChanged: () => void;
}) {
  const id = useId();
  const [busy, setBusy] = useState<null | "sync" | "save" | "move" | "delete">(null);
  const [tags, setTags] = useState(row.tags.join(", "));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const name = repositoryLabel(row);
  const synced = formatDateTime(row.lastSyncAt);
  const failedAt = formatDateTime(row.lastSyncErrorAt);

  async function patch(body: Record<string, unknown>, done: string) {
    setBusy("save");
    const result = await settle(
      api.patch(`${API}/${encodeURIComponent(row.id)}`, {
        version: row.version,
        ...body,
      }),
    );
    setBusy(null);
    if (result.ok) showToast(done);
    else if (result.error.status === 409)
      showToast("Someone else changed this repository", { description: "The list was reloaded; try again." });
    else showToast(`Could not save ${name}`, { description: result.error.message });
    onChanged();
  }

  async function sync() {
    setBusy("sync");
    const result = await settle(
      api.post<{ outcome: SyncOutcome }>(`${API}/${encodeURIComponent(row.id)}/sync`),
    );
    setBusy(null);
    if (!result.ok) showToast(`Could not sync ${name}`, { description: result.error.message });
    else if (result.data.outcome.ok) {
      const o = result.data.outcome;
      showToast(`${name} synced`, {
        description: `${o.branches} branch${o.branches === 1 ? "" : "es"}, ${o.files} file${o.files === 1 ? "" : "s"}.`,
      });
    } else showToast(`Sync of ${name} failed`, { description: result.data.outcome.error });
    onChanged();
  }

  async function reorder(to: number) {
    setBusy("move");
    const problem = await move(all, index, to);
    setBusy(null);
    if (problem) showToast("Could not change the order", { description: problem });
    onChanged();
  }

  async function remove() {
    setBusy("delete");
    const result = await settle(api.delete(`${API}/${encodeURIComponent(row.id)}`));
    setBusy(null);
    setConfirmDelete(false);
    if (result.ok)
      showToast(`${name} removed`, { description: "Its cached files, branches and issues are gone too." });
    else showToast(`Could not remove ${name}`, { description: result.error.message });
    onChanged();
  }

  const savedTags = row.tags.join(", ");
  const SourceIcon = row.sourceType === "local" ? FolderGit2 : Globe;
  return (
    <li className="px-4 py-4" aria-labelledby={`${id}-name`}>
      <div className="space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0 sm:flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={`${id}-name`} className="font-medium text-ink">
                {name}
              </h3>
              <StatusBadge row={row} />
              {row.isEnabled ? null : (
                <span className="rounded-full bg-warn-soft px-2 py-0.5 text-xs font-medium text-warn-text">
                  Hidden
                </span>
              )}
            </div>
            <p className="mt-0.5 flex min-w-0 items-center gap-1.5 text-sm text-ink-muted">
              <SourceIcon aria-hidden="true" className="size-3.5 shrink-0" />
              <span className="sr-only">{row.sourceType === "local" ? "Local folder" : "GitHub"}:</span>
              <span className="truncate font-mono text-xs">{repositorySource(row)}</span>
              <span aria-hidden="true">·</span>
              <span className="truncate">/{row.slug}</span>
            </p>
            <p className="mt-0.5 text-xs text-ink-subtle">
              {synced ? `Last synced ${synced}` : "Never synced"}
            </p>
          </div>
          <div className="-ml-2 flex items-center gap-1.5 sm:ml-0">
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Move ${name} up`}
              disabled={index === 0 || busy !== null}
              onClick={() => void reorder(index - 1)}
            >
              <ArrowUp aria-hidden="true" className="size-4" />
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Move ${name} down`}
              disabled={index === all.length - 1 || busy !== null}
              onClick={() => void reorder(index + 1)}
            >
              <ArrowDown aria-hidden="true" className="size-4" />
            </Button>
            <Button size="sm" variant="secondary" disabled={busy !== null} onClick={() => void sync()}>
              {busy === "sync" ? (
                <LoaderCircle aria-hidden="true" className="spin size-4" />
              ) : (
                <RefreshCw aria-hidden="true" className="size-4" />
              )}
              {busy === "sync" ? "Syncing…" : "Sync now"}
              <span className="sr-only"> {name}</span>
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove ${name}`}
              disabled={busy !== null}
              onClick={() => setConfirmDelete(true)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </div>
        {row.lastSyncError ? (
          <Notice
            tone="danger"
            title={failedAt ? `The last sync failed (${failedAt})` : "The last sync failed"}
          >
            <span className="break-words">{row.lastSyncError}</span>
            {row.lastSyncAt ? " Visitors see the data of the last successful sync." : null}
          </Notice>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-[auto_minmax(0,15rem)_minmax(0,1fr)] sm:items-end">
          <label className="flex h-10 items-center gap-2 text-sm text-ink">
            <input
              type="checkbox"
              className="size-4 accent-[var(--color-accent)]"
              checked={row.isEnabled}
              disabled={busy !== null}
              onChange={(e) =>
                void patch(
                  { isEnabled: e.target.checked },
                  e.target.checked ? `${name} is shown on /resources` : `${name} is hidden from visitors`,
                )
              }
            />
            Enabled
          </label>
          <div>
            <label htmlFor={`${id}-category`} className="mb-1.5 block text-sm font-medium text-ink">
              Category
            </label>
            <select
              id={`${id}-category`}
              className={selectClass}
              value={row.category ?? ""}
              disabled={busy !== null}
              onChange={(e) => void patch({ category: e.target.value || null }, `Category of ${name} saved`)}
            >
              <option value="">No category</option>
              {categories.map((c) => (
                <option key={c.id} value={c.slug}>
                  {c.name ?? c.slug}
                  {c.isVisible ? "" : " (hidden)"}
                </option>
              ))}
              {row.category && !categories.some((c) => c.slug === row.category) ? (
                <option value={row.category}>{row.category} (missing)</option>
              ) : null}
            </select>
          </div>
          <form
            className="flex items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void patch({ tags: parseTags(tags) }, `Tags of ${name} saved`);
            }}
          >
            <div className="min-w-0 flex-1">
              <label htmlFor={`${id}-tags`} className="mb-1.5 block text-sm font-medium text-ink">
                Tags <span className="font-normal text-ink-subtle">(comma separated)</span>
              </label>
              <input
                id={`${id}-tags`}
                className={inputClass}
                value={tags}
                maxLength={1000}
                onChange={(e) => setTags(e.target.value)}
                disabled={busy !== null}
              />
            </div>
            <Button
              type="submit"
              size="md"
              variant="secondary"
              disabled={busy !== null || parseTags(tags).join(", ") === savedTags}
            >
              Save<span className="sr-only"> tags of {name}</span>
            </Button>
          </form>
        </div>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        title={`Remove ${name}?`}
        confirmLabel="Remove"
        busy={busy === "delete"}
        onConfirm={() => void remove()}
        onClose={() => setConfirmDelete(false)}
      >
        It disappears from /resources with everything cached for it. The source itself (the folder or the
        GitHub repository) is not touched; you can add it again later.
      </ConfirmDialog>
    </li>
  );
}

function AddRepositoryForm({ categories, onAdded }: { categories: AdminCategoryRow[]; onAdded: () => void }) {
  const id = useId();
  const [source, setSource] = useState<"local" | "github">("local");
  const [values, setValues] = useState({
    localPath: "",
    owner: "",
    name: "",
    displayName: "",
    slug: "",
    category: "",
    tags: "",
  });
  const [syncAfter, setSyncAfter] = useState(true);
  const [pending, setPending] = useState<null | "add" | "sync">(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    const local = source === "local";
    const missing: Record<string, string> = {};
    if (local && !values.localPath.trim()) missing.localPath = "Enter the folder's path.";
    if (!local && !values.owner.trim()) missing.owner = "Enter the owner.";
    if (!local && !values.name.trim()) missing.name = "Enter the repository name.";
    if (Object.keys(missing).length) {
      setErrors(missing);
      return;
    }
    const tags = parseTags(values.tags);
    const body = {
      source,
      ...(local
        ? { localPath: values.localPath.trim() }
        : { owner: values.owner.trim(), name: values.name.trim() }),
      ...(values.displayName.trim() ? { displayName: values.displayName.trim() } : {}),
      ...(values.slug.trim() ? { slug: values.slug.trim() } : {}),
      ...(values.category ? { category: values.category } : {}),
      ...(tags.length ? { tags } : {}),
    };
    setPending("add");
    const added = await settle(api.post<{ repository: AdminRepositoryRow }>(API, body));
    if (!added.ok) {
      setPending(null);
      const field = added.error.firstField;
      if (field && field in values) setErrors({ [field]: added.error.message });
      else setFormError(added.error.message);
      return;
    }
    const repository = added.data.repository;
    const name = repositoryLabel(repository);
    if (syncAfter) {
      setPending("sync");
      const synced = await settle(
        api.post<{ outcome: SyncOutcome }>(`${API}/${encodeURIComponent(repository.id)}/sync`),
      );
      if (synced.ok && synced.data.outcome.ok) showToast(`${name} added and synced`);
      else
        showToast(`${name} added; the sync failed`, {
          description:
            synced.ok && !synced.data.outcome.ok
              ? synced.data.outcome.error
              : synced.ok
                ? ""
                : synced.error.message,
        });
    } else showToast(`${name} added`, { description: "Sync it to read its files." });
    setPending(null);
    onAdded();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Add repository">
      {formError ? (
        <Notice tone="danger" role="alert">
          {formError}
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-source`} className="mb-1.5 block text-sm font-medium text-ink">
            Source
          </label>
          <select
            id={`${id}-source`}
            className={selectClass}
            value={source}
            onChange={(e) => setSource(e.target.value === "github" ? "github" : "local")}
            disabled={pending !== null}
          >
            <option value="local">Local git folder</option>
            <option value="github">GitHub (owner/name)</option>
          </select>
        </div>
        {source === "local" ? (
          <Field
            label="Folder"
            name="localPath"
            placeholder="team/handbook-scripts"
            hint="A git repository (bare or working copy) inside DATA_DIR/repositories."
            value={values.localPath}
            onChange={set("localPath")}
            error={errors.localPath}
            disabled={pending !== null}
            autoComplete="off"
          />
        ) : (
          <div className="grid grid-cols-2 gap-3">
            <Field
              label="Owner"
              name="owner"
              placeholder="octo-org"
              value={values.owner}
              onChange={set("owner")}
              error={errors.owner}
              disabled={pending !== null}
              autoComplete="off"
            />
            <Field
              label="Repository"
              name="name"
              placeholder="hello-world"
              value={values.name}
              onChange={set("name")}
              error={errors.name}
              disabled={pending !== null}
              autoComplete="off"
            />
          </div>
        )}
        <Field
          label="Display name"
          name="displayName"
          optional
          value={values.displayName}
          onChange={set("displayName")}
          error={errors.displayName}
          disabled={pending !== null}
        />
        <Field
          label="Slug"
          name="slug"
          optional
          hint="Its address: /resources/slug. Made from the folder or owner/name when left empty."
          value={values.slug}
          onChange={set("slug")}
          error={errors.slug}
          disabled={pending !== null}
          autoComplete="off"
        />
        <div>
          <label htmlFor={`${id}-category`} className="mb-1.5 block text-sm font-medium text-ink">
            Category
          </label>
          <select
            id={`${id}-category`}
            className={selectClass}
            value={values.category}
            onChange={set("category")}
            disabled={pending !== null}
            aria-invalid={errors.category ? true : undefined}
          >
            <option value="">No category</option>
            {categories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.name ?? c.slug}
              </option>
            ))}
          </select>
          {errors.category ? <p className="mt-1.5 text-xs text-danger-text">{errors.category}</p> : null}
        </div>
        <Field
          label="Tags"
          name="tags"
          optional
          placeholder="typescript, evaluation"
          hint="Comma separated."
          value={values.tags}
          onChange={set("tags")}
          error={errors.tags}
          disabled={pending !== null}
        />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" size="sm" disabled={pending !== null}>
          {pending ? (
            <LoaderCircle aria-hidden="true" className="spin size-4" />
          ) : (
            <Plus aria-hidden="true" className="size-4" />
          )}
          {pending === "add" ? "Adding…" : pending === "sync" ? "Syncing…" : "Add repository"}
        </Button>
        <label className="flex items-center gap-2 text-sm text-ink">
          <input
            type="checkbox"
            className="size-4 accent-[var(--color-accent)]"
            checked={syncAfter}
            onChange={(e) => setSyncAfter(e.target.checked)}
            disabled={pending !== null}
          />
          Sync right after adding
        </label>
      </div>
    </form>
  );
}
