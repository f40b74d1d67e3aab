/**
 * The Categories tab of /admin/content: every category (hidden ones too) in readers' order,
 * reordered by drag and drop or Move up / Move down, each editable (label, slug, description,
 * section, default plan, icon) and hidden or shown; and a form to create one. Field errors from
 * the server are shown next to their fields.
 */
import { Eye, EyeOff } from "lucide-react";
import { useId } from "react";
import { Form, Link, useSubmit } from "react-router";
import { TIERS } from "../../../core/index.ts";
import type { AdminCategory, CategoryList } from "../../../server/modules/content/content-admin.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, inputClass } from "../../components/ui/fields.tsx";
import type { AdminContentFormResult } from "./admin-content.server.ts";
import { MoveButtons, SortableList } from "./sortable-list.tsx";

export const SECTION_CHOICES: [string, string][] = [
  ["", "From its items"],
  ["ai-education", "AI Education"],
  ["workforce-tools", "Workforce Tools"],
  ["resources", "Resources"],
  ["ai-news", "AI News"],
  ["documentation", "Documentation"],
];

const SECTION_LABEL = new Map(SECTION_CHOICES);

function sectionLabel(c: AdminCategory): string {
  if (c.section) return SECTION_LABEL.get(c.section) ?? c.section;
  if (c.itemsSection) return `${SECTION_LABEL.get(c.itemsSection) ?? c.itemsSection} (from its items)`;
  return "no section yet";
}

export function SelectField({
  label,
  name,
  value,
  options,
  error,
}: {
  label: string;
  name: string;
  value?: string | null;
  options: [string, string][];
  error?: string;
}) {
  const id = useId();
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1.5 block font-medium text-ink">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value ?? ""}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-xs text-danger-text">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CategoryFields({
  category,
  errors,
}: {
  category: AdminCategory | null;
  errors: Record<string, string>;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Label" name="label" defaultValue={category?.label} required error={errors.label} />
      <Field
        label="Slug"
        name="slug"
        defaultValue={category?.slug}
        required
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        hint="Lowercase letters, digits and hyphens: /category/<slug>"
        error={errors.slug}
      />
      <Field
        label="Description"
        name="description"
        defaultValue={category?.description ?? ""}
        optional
        error={errors.description}
        className="sm:col-span-2"
      />
      <SelectField
        label="Section"
        name="section"
        value={category?.section}
        options={SECTION_CHOICES}
        error={errors.section}
      />
      <SelectField
        label="Default plan"
        name="defaultTier"
        value={category?.defaultTier}
        options={[["", "None"], ...TIERS.map((t): [string, string] => [t, t])]}
        error={errors.defaultTier}
      />
      <Field
        label="Icon"
        name="icon"
        defaultValue={category?.icon ?? ""}
        optional
        hint="A lucide icon name, e.g. book-open"
        error={errors.icon}
      />
    </div>
  );
}

const fieldsFor = (result: AdminContentFormResult | null, intent: string, id: string | null) =>
  result && !result.ok && result.intent === intent && result.id === id ? result.field : {};

export function CategoriesPanel({
  list,
  result,
}: {
  list: CategoryList;
  result: AdminContentFormResult | null;
}) {
  const submit = useSubmit();
  const byId = new Map(list.items.map((c) => [c.id, c]));
  const createErrors = fieldsFor(result, "category-create", null);
  return (
    <div className="space-y-6">
      <Panel title={`Categories (${list.items.length})`}>
        <p className="mb-3 text-sm text-ink-muted">
          Readers see the shown categories in this order. A hidden category leaves the navigation, the section
          pages' filters and its own page; its items stay readable under their own plan.
        </p>
        <SortableList
          dndId="category-order"
          label="Categories in readers' order"
          entries={list.items.map((c) => ({ id: c.id, label: c.label }))}
          onReorder={(ids) =>
            submit(
              { intent: "category-order", version: list.version, ids: ids.join(",") },
              { method: "post", preventScrollReset: true },
            )
          }
          renderRow={(entry, index) => {
            const c = byId.get(entry.id)!;
            const errors = fieldsFor(result, "category-update", c.id);
            return (
              <div className="w-full space-y-2">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0">
                    <Link to={`/category/${c.slug}`} className="font-medium text-ink hover:underline">
                      {c.label}
                    </Link>{" "}
                    <span className="text-xs text-ink-subtle">
                      /{c.slug} · {sectionLabel(c)} · {c.defaultTier ?? "no default plan"} ·{" "}
                      {c.itemCount === 1 ? "1 item" : `${c.itemCount} items`}
                    </span>
                    {c.isActive ? null : (
                      <span className="ml-2 rounded-full bg-warn-soft px-2 py-0.5 text-xs font-medium text-warn-text">
                        Hidden
                      </span>
                    )}
                  </span>
                  <span className="flex items-center gap-1">
                    <MoveButtons
                      hidden={{ intent: "category-move", id: c.id, version: list.version }}
                      index={index}
                      count={list.items.length}
                      label={c.label}
                    />
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="category-toggle" />
                      <input type="hidden" name="id" value={c.id} />
                      <input type="hidden" name="isActive" value={c.isActive ? "false" : "true"} />
                      <Button type="submit" size="sm" variant="secondary">
                        {c.isActive ? (
                          <EyeOff aria-hidden="true" className="size-4" />
                        ) : (
                          <Eye aria-hidden="true" className="size-4" />
                        )}
                        {c.isActive ? "Hide" : "Show"}
                        <span className="sr-only"> {c.label}</span>
                      </Button>
                    </Form>
                  </span>
                </div>
                <details open={Object.keys(errors).length > 0} className="text-sm">
                  <summary className="cursor-pointer text-accent-text">
                    Edit<span className="sr-only"> {c.label}</span>
                  </summary>
                  <Form method="post" preventScrollReset className="mt-3 space-y-3">
                    <input type="hidden" name="intent" value="category-update" />
                    <input type="hidden" name="id" value={c.id} />
                    <CategoryFields category={c} errors={errors} />
                    <Button type="submit" size="sm">
                      Save {c.label}
                    </Button>
                  </Form>
                </details>
              </div>
            );
          }}
        />
      </Panel>
      <Panel title="New category">
        <Form method="post" preventScrollReset className="space-y-3" aria-label="New category">
          <input type="hidden" name="intent" value="category-create" />
          <CategoryFields category={null} errors={createErrors} />
          <Button type="submit">Create category</Button>
        </Form>
      </Panel>
    </div>
  );
}
