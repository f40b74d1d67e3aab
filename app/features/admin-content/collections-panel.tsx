/**
 * The Collections tab of /admin/content: every collection (a content item of type `collection`
 * whose members are its `related` items), created and edited here, its members added with a
 * search picker, removed and ordered (drag and drop or Move up / Move down), and shown or hidden
 * through the content workflow (publishing and hiding need content:publish: the answer says so).
 */
import { X } from "lucide-react";
import { Form, Link, useSubmit } from "react-router";
import { TIERS } from "../../../core/index.ts";
import type { AdminCollection } from "../../../server/modules/content/content-admin.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import type { AdminContentFormResult, CollectionsTab } from "./admin-content.server.ts";
import { SelectField } from "./categories-panel.tsx";
import { ContentPicker, StateText } from "./featured-panel.tsx";
import { MoveButtons, SortableList } from "./sortable-list.tsx";

const TIER_CHOICES = TIERS.map((t): [string, string] => [t, t]);
const removeButton =
  "inline-flex size-8 items-center justify-center rounded-md border border-line text-ink-muted hover:border-danger-text hover:text-danger-text";

const errorsFor = (result: AdminContentFormResult | null, intent: string, id: string | null) =>
  result && !result.ok && result.intent === intent && result.id === id ? result.field : {};

function Members({ collection, tab }: { collection: AdminCollection; tab: CollectionsTab }) {
  const submit = useSubmit();
  const entries = collection.members.map((m) => ({
    id: m.slug,
    label: "missing" in m ? `${m.slug} (missing)` : m.title,
  }));
  const bySlug = new Map(collection.members.map((m) => [m.slug, m]));
  const common = { id: collection.id, version: collection.version };
  return (
    <div className="space-y-3">
      <h4 className="text-sm font-semibold text-ink">Members, in reading order</h4>
      {entries.length ? (
        <SortableList
          dndId={`members-${collection.id}`}
          label={`Members of ${collection.title}`}
          entries={entries}
          onReorder={(slugs) =>
            submit(
              { intent: "collection-members", ...common, members: slugs.join(",") },
              { method: "post", preventScrollReset: true },
            )
          }
          renderRow={(entry, index) => {
            const m = bySlug.get(entry.id)!;
            return (
              <>
                <span className="min-w-0">
                  <span className="mr-2 text-xs tabular-nums text-ink-subtle">{index + 1}.</span>
                  {"missing" in m ? (
                    <span className="text-danger-text">{m.slug} no longer exists</span>
                  ) : (
                    <>
                      <span className="font-medium text-ink">{m.title}</span> <StateText state={m.state} />
                    </>
                  )}
                </span>
                <span className="flex items-center gap-1">
                  <MoveButtons
                    hidden={{ intent: "collection-member-move", ...common, slug: m.slug }}
                    index={index}
                    count={entries.length}
                    label={entry.label}
                  />
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="intent" value="collection-member-remove" />
                    <input type="hidden" name="id" value={collection.id} />
                    <input type="hidden" name="version" value={collection.version} />
                    <input type="hidden" name="slug" value={m.slug} />
                    <button type="submit" className={removeButton} aria-label={`Remove ${entry.label}`}>
                      <X aria-hidden="true" className="size-4" />
                    </button>
                  </Form>
                </span>
              </>
            );
          }}
        />
      ) : (
        <p className="text-sm text-ink-muted">No members yet: find items below and add them.</p>
      )}
      <ContentPicker
        tab="collections"
        param="mpick"
        extra={{ open: collection.id }}
        label={`Find content to add to ${collection.title}`}
        pick={tab.open === collection.id ? tab.pick : null}
        exclude={new Set([collection.id, ...collection.members.map((m) => m.slug)])}
        addFields={(item) => ({ intent: "collection-member-add", ...common, slug: item.slug })}
      />
    </div>
  );
}

function CollectionCard({
  collection,
  tab,
  result,
}: {
  collection: AdminCollection;
  tab: CollectionsTab;
  result: AdminContentFormResult | null;
}) {
  const errors = errorsFor(result, "collection-update", collection.id);
  const live = collection.state === "published";
  const open = tab.open === collection.id || Object.keys(errors).length > 0 || result?.id === collection.id;
  return (
    <li className="rounded-lg border border-line">
      <details open={open}>
        <summary className="flex cursor-pointer flex-wrap items-center justify-between gap-2 px-4 py-3">
          <span className="min-w-0">
            <span className="font-medium text-ink">{collection.title}</span>{" "}
            <span className="text-xs text-ink-subtle">
              /{collection.slug} · {collection.tier} ·{" "}
              {collection.members.length === 1 ? "1 member" : `${collection.members.length} members`}
            </span>{" "}
            <StateText state={collection.state} />
          </span>
        </summary>
        <div className="space-y-5 border-t border-line px-4 py-4">
          <div className="flex flex-wrap gap-2">
            {tab.canPublish ? (
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value={live ? "collection-hide" : "collection-show"} />
                <input type="hidden" name="id" value={collection.id} />
                <input type="hidden" name="version" value={collection.version} />
                <Button type="submit" size="sm" variant={live ? "secondary" : "primary"}>
                  {live ? "Hide from readers" : "Publish"}
                  <span className="sr-only"> {collection.title}</span>
                </Button>
              </Form>
            ) : (
              <p className="text-sm text-ink-muted">
                {live
                  ? "Hiding it, and changing it while it is published, need the content:publish permission (an editor or the platform owner)."
                  : "Publishing needs the content:publish permission (an editor or the platform owner); you can prepare it as a draft."}
              </p>
            )}
            {live ? (
              <Link
                to={collection.publicUrl}
                className="px-2 py-1.5 text-sm text-accent-text hover:underline"
              >
                View
              </Link>
            ) : null}
            <Link to={collection.editUrl} className="px-2 py-1.5 text-sm text-accent-text hover:underline">
              Open in the editor
            </Link>
          </div>
          <Form method="post" preventScrollReset className="space-y-3">
            <input type="hidden" name="intent" value="collection-update" />
            <input type="hidden" name="id" value={collection.id} />
            <input type="hidden" name="version" value={collection.version} />
            <div className="grid gap-3 sm:grid-cols-2">
              <Field
                label="Title"
                name="title"
                defaultValue={collection.title}
                required
                error={errors.title}
              />
              <Field label="Slug" name="slug" defaultValue={collection.slug} required error={errors.slug} />
              <Field
                label="Description"
                name="description"
                defaultValue={collection.description ?? ""}
                optional
                error={errors.description}
              />
              <SelectField
                label="Plan"
                name="tier"
                value={collection.tier}
                options={TIER_CHOICES}
                error={errors.tier}
              />
            </div>
            <Button type="submit" size="sm">
              Save details
            </Button>
          </Form>
          <Members collection={collection} tab={tab} />
        </div>
      </details>
    </li>
  );
}

export function CollectionsPanel({
  tab,
  result,
}: {
  tab: CollectionsTab;
  result: AdminContentFormResult | null;
}) {
  const createErrors = errorsFor(result, "collection-create", null);
  return (
    <div className="space-y-6">
      <Panel title={`Collections (${tab.collections.length})`}>
        <p className="mb-3 text-sm text-ink-muted">
          A collection is a page listing its members in this order. Readers find collections in the listings
          like any other item (newest first); publishing and hiding go through the review workflow.
        </p>
        {tab.collections.length ? (
          <ul className="space-y-3">
            {tab.collections.map((c) => (
              <CollectionCard key={c.id} collection={c} tab={tab} result={result} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-ink-muted">No collections yet.</p>
        )}
      </Panel>
      <Panel title="New collection">
        <Form method="post" preventScrollReset className="space-y-3" aria-label="New collection">
          <input type="hidden" name="intent" value="collection-create" />
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Title" name="title" required error={createErrors.title} />
            <Field label="Slug" name="slug" required error={createErrors.slug} />
            <Field label="Description" name="description" optional error={createErrors.description} />
            <SelectField
              label="Plan"
              name="tier"
              value="Free"
              options={TIER_CHOICES}
              error={createErrors.tier}
            />
          </div>
          <Button type="submit">Create collection (draft)</Button>
        </Form>
      </Panel>
    </div>
  );
}
