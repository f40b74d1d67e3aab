/**
 * The Featured tab of /admin/content: the featured items in the order the home page shows them,
 * reordered by drag and drop (pointer or keyboard) or Move up / Move down, removed, and added
 * with a search picker. Every change saves the whole order with the list's version.
 */
import { Plus, Search, X } from "lucide-react";
import { Form, Link, useSubmit } from "react-router";
import { WORKFLOW_STATE_LABELS } from "../../../core/index.ts";
import type { AdminContentRef } from "../../../server/modules/content/content-admin.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { inputClass } from "../../components/ui/fields.tsx";
import type { FeaturedTab } from "./admin-content.server.ts";
import { MoveButtons, SortableList } from "./sortable-list.tsx";

const removeButton =
  "inline-flex size-8 items-center justify-center rounded-md border border-line text-ink-muted hover:border-danger-text hover:text-danger-text";

export function StateText({ state }: { state: AdminContentRef["state"] }) {
  return (
    <span
      className={
        state === "published"
          ? "text-xs text-ink-subtle"
          : "rounded-full bg-warn-soft px-2 py-0.5 text-xs font-medium text-warn-text"
      }
    >
      {WORKFLOW_STATE_LABELS[state]}
    </span>
  );
}

/** A search box (GET, so it works without JavaScript) and the matching items, each with an add form. */
export function ContentPicker({
  tab,
  param,
  extra,
  pick,
  exclude,
  addFields,
  label,
}: {
  tab: string;
  param: string;
  extra?: Record<string, string>;
  pick: { q: string; items: AdminContentRef[] } | null;
  exclude: ReadonlySet<string>;
  /** The add form's fields for an item. */
  addFields(item: AdminContentRef): Record<string, string | number>;
  label: string;
}) {
  const results = pick?.items.filter((i) => !exclude.has(i.id) && !exclude.has(i.slug)) ?? [];
  return (
    <div className="space-y-3">
      <search>
        <Form method="get" preventScrollReset className="flex gap-2">
          <input type="hidden" name="tab" value={tab} />
          {Object.entries(extra ?? {}).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <label className="sr-only" htmlFor={`${param}-q`}>
            {label}
          </label>
          <input
            id={`${param}-q`}
            type="search"
            name={param}
            defaultValue={pick?.q ?? ""}
            placeholder="Title or slug"
            className={inputClass}
          />
          <Button type="submit" variant="secondary">
            <Search aria-hidden="true" className="size-4" />
            Search
          </Button>
        </Form>
      </search>
      {pick ? (
        results.length ? (
          <ul aria-label="Search results" className="divide-y divide-line rounded-lg border border-line">
            {results.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <span className="min-w-0">
                  <span className="font-medium text-ink">{item.title}</span>{" "}
                  <span className="text-xs text-ink-subtle">/{item.slug}</span>{" "}
                  <StateText state={item.state} />
                </span>
                <Form method="post" preventScrollReset>
                  {Object.entries(addFields(item)).map(([k, v]) => (
                    <input key={k} type="hidden" name={k} value={v} />
                  ))}
                  <Button type="submit" size="sm" variant="secondary" aria-label={`Add ${item.title}`}>
                    <Plus aria-hidden="true" className="size-4" />
                    Add
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-ink-muted">Nothing else matches “{pick.q}”.</p>
        )
      ) : null}
    </div>
  );
}

export function FeaturedPanel({ tab }: { tab: FeaturedTab }) {
  const submit = useSubmit();
  const { featured } = tab;
  const entries = featured.items.map((i) => ({ id: i.id, label: i.title }));
  const byId = new Map(featured.items.map((i) => [i.id, i]));
  return (
    <div className="space-y-6">
      <Panel title={`Featured on the home page (${featured.items.length})`}>
        <p className="mb-3 text-sm text-ink-muted">
          The home page shows the first six published ones, in this order. Drag a row by its handle (or focus
          the handle and use Space and the arrow keys), or use the arrows.
        </p>
        {entries.length ? (
          <SortableList
            dndId="featured-order"
            label="Featured items in order"
            entries={entries}
            onReorder={(ids) =>
              submit(
                { intent: "featured-order", version: featured.version, ids: ids.join(",") },
                { method: "post", preventScrollReset: true },
              )
            }
            renderRow={(entry, index) => {
              const item = byId.get(entry.id)!;
              return (
                <>
                  <span className="min-w-0">
                    <span className="mr-2 text-xs tabular-nums text-ink-subtle">{index + 1}.</span>
                    <Link to={`/content/${item.id}/edit`} className="font-medium text-ink hover:underline">
                      {item.title}
                    </Link>{" "}
                    <StateText state={item.state} />
                    {index >= 6 ? (
                      <span className="ml-1 text-xs text-ink-subtle">(not on the home page)</span>
                    ) : null}
                  </span>
                  <span className="flex items-center gap-1">
                    <MoveButtons
                      hidden={{ intent: "featured-move", id: item.id, version: featured.version }}
                      index={index}
                      count={entries.length}
                      label={item.title}
                    />
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="featured-remove" />
                      <input type="hidden" name="id" value={item.id} />
                      <input type="hidden" name="version" value={featured.version} />
                      <button
                        type="submit"
                        className={removeButton}
                        aria-label={`Remove ${item.title} from featured`}
                      >
                        <X aria-hidden="true" className="size-4" />
                      </button>
                    </Form>
                  </span>
                </>
              );
            }}
          />
        ) : (
          <p className="text-sm text-ink-muted">
            Nothing is featured: the home page shows the latest items only.
          </p>
        )}
      </Panel>
      <Panel title="Add to featured">
        <ContentPicker
          tab="featured"
          param="pick"
          label="Find content to feature"
          pick={tab.pick}
          exclude={new Set(featured.items.map((i) => i.id))}
          addFields={(item) => ({ intent: "featured-add", id: item.id, version: featured.version })}
        />
      </Panel>
    </div>
  );
}
