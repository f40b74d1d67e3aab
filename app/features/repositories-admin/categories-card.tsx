/**
 * Repository categories (the groups of /resources): add, rename, reorder and hide. Changes go
 * through /api/admin/repository-categories; the list reloads from the loader afterwards.
 */
import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field, inputClass } from "../../components/ui/fields.tsx";
import { api, settle } from "../../lib/api.ts";
import type { AdminCategoryRow } from "./admin-rows.ts";

const API = "/api/admin/repository-categories";

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);

export function CategoriesCard({
  categories,
  onChanged,
}: {
  categories: AdminCategoryRow[];
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState(false);

  async function patch(row: AdminCategoryRow, body: Record<string, unknown>, done: string) {
    setBusy(true);
    const result = await settle(
      api.patch(`${API}/${encodeURIComponent(row.id)}`, {
        version: row.version,
        ...body,
      }),
    );
    setBusy(false);
    if (result.ok) showToast(done);
    else showToast(`Could not save ${row.name ?? row.slug}`, { description: result.error.message });
    onChanged();
  }

  async function move(from: number, to: number) {
    const order = [...categories];
    const [moved] = order.splice(from, 1);
    if (!moved) return;
    order.splice(to, 0, moved);
    setBusy(true);
    for (const [i, row] of order.entries()) {
      const sortOrder = (i + 1) * 10;
      if (row.sortOrder === sortOrder) continue;
      const result = await settle(
        api.patch(`${API}/${encodeURIComponent(row.id)}`, {
          version: row.version,
          sortOrder,
        }),
      );
      if (!result.ok) {
        showToast("Could not change the order", { description: result.error.message });
        break;
      }
    }
    setBusy(false);
    onChanged();
  }

  return (
    <Card className="overflow-hidden">
      <div className="border-b border-line px-4 py-3">
        <h2 className="font-semibold text-ink">Categories</h2>
        <p className="text-sm text-ink-muted">
          The groups /resources shows, in this order. Hidden ones are left out.
        </p>
      </div>
      {categories.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-ink-muted">No categories yet.</p>
      ) : (
        <ul className="divide-y divide-line" aria-label="Categories">
          {categories.map((row, index) => (
            <CategoryRow
              key={`${row.id}-${row.version}`}
              row={row}
              first={index === 0}
              last={index === categories.length - 1}
              busy={busy}
              onMove={(delta) => void move(index, index + delta)}
              onPatch={(body, done) => void patch(row, body, done)}
            />
          ))}
        </ul>
      )}
      <div className="border-t border-line bg-sunken/40 px-4 py-4">
        <AddCategoryForm onAdded={onChanged} nextOrder={(categories.length + 1) * 10} />
      </div>
    </Card>
  );
}

function CategoryRow({
  row,
  first,
  last,
  busy,
  onMove,
  onPatch,
}: {
  row: AdminCategoryRow;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (delta: number) => void;
  onPatch: (body: Record<string, unknown>, done: string) => void;
}) {
  const id = useId();
  const [name, setName] = useState(row.name ?? "");
  const label = row.name ?? row.slug;
  return (
    <li className="flex flex-wrap items-end gap-3 px-4 py-3">
      <form
        className="flex min-w-0 flex-1 basis-56 items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          onPatch({ name: name.trim() || null }, "Category renamed");
        }}
      >
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-name`} className="mb-1.5 block text-sm font-medium text-ink">
            Name <span className="font-mono text-xs font-normal text-ink-subtle">{row.slug}</span>
          </label>
          <input
            id={`${id}-name`}
            className={inputClass}
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
            disabled={busy}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={busy || name.trim() === (row.name ?? "")}>
          Rename<span className="sr-only"> {label}</span>
        </Button>
      </form>
      <div className="flex items-center gap-1.5">
        <label className="flex h-10 items-center gap-2 pr-2 text-sm text-ink">
          <input
            type="checkbox"
            className="size-4 accent-[var(--color-accent)]"
            checked={row.isVisible}
            disabled={busy}
            onChange={(e) =>
              onPatch(
                { isVisible: e.target.checked },
                e.target.checked ? `${label} is shown` : `${label} is hidden`,
              )
            }
          />
          Visible<span className="sr-only"> ({label})</span>
        </label>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Move ${label} up`}
          disabled={first || busy}
          onClick={() => onMove(-1)}
        >
          <ArrowUp aria-hidden="true" className="size-4" />
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Move ${label} down`}
          disabled={last || busy}
          onClick={() => onMove(1)}
        >
          <ArrowDown aria-hidden="true" className="size-4" />
        </Button>
      </div>
    </li>
  );
}

function AddCategoryForm({ onAdded, nextOrder }: { onAdded: () => void; nextOrder: number }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const slug = slugOf(name);
    if (!slug) {
      setError("Enter a name with at least one letter or digit.");
      return;
    }
    setPending(true);
    const result = await settle(api.post(API, { name: name.trim(), slug, sortOrder: nextOrder }));
    setPending(false);
    if (!result.ok) {
      setError(
        result.error.status === 409 ? "A category with this name already exists." : result.error.message,
      );
      return;
    }
    setError(null);
    setName("");
    showToast(`Category ${name.trim()} added`);
    onAdded();
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-wrap items-start gap-2"
      aria-label="Add category"
    >
      <Field
        label="New category"
        name="categoryName"
        className="min-w-0 flex-1 basis-56"
        placeholder="Data and analytics"
        value={name}
        maxLength={200}
        onChange={(e) => setName(e.target.value)}
        error={error}
        disabled={pending}
      />
      <Button type="submit" variant="secondary" className="mt-7" disabled={pending}>
        <Plus aria-hidden="true" className="size-4" />
        {pending ? "Adding…" : "Add category"}
      </Button>
    </form>
  );
}
