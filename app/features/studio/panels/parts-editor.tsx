import { ArrowDown, ArrowUp, Plus, Search, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { isWorkflowState, WORKFLOW_STATE_LABELS } from "../../../../core/index.ts";
import { Button } from "../../../components/ui/button.tsx";
import { cx } from "../../../components/ui/cx.ts";
import { inputClass } from "../../../components/ui/fields.tsx";
import { api } from "../../../lib/api.ts";
import { addSlug, candidatesFrom, moveSlug, type PartCandidate, removeSlug } from "./parts.ts";
import type { PartsEditorProps } from "./types.ts";

interface Known {
  title: string;
  type: string;
  status: string | null;
}

/** Titles of the listed slugs (one look-up per slug not known yet; missing ones say so). */
function useTitles(slugs: readonly string[], seed: Map<string, Known>) {
  const [known, setKnown] = useState<Map<string, Known | "missing">>(() => new Map());
  useEffect(() => {
    const wanted = slugs.filter((s) => !known.has(s));
    if (wanted.length === 0) return;
    let live = true;
    void Promise.all(
      wanted.map(async (slug) => {
        const seeded = seed.get(slug);
        if (seeded) return [slug, seeded] as const;
        try {
          const item = await api.get<{ title: string; type: string; status?: string }>(
            `/api/content/${encodeURIComponent(slug)}`,
          );
          return [slug, { title: item.title, type: item.type, status: item.status ?? null }] as const;
        } catch {
          return [slug, "missing"] as const;
        }
      }),
    ).then((entries) => {
      if (live) setKnown((prev) => new Map([...prev, ...entries]));
    });
    return () => {
      live = false;
    };
  }, [slugs, known, seed]);
  return known;
}

/** Content matching `query` the writer may add: the studio list, so drafts can be lined up too. */
async function searchContent(query: string, signal: AbortSignal): Promise<PartCandidate[]> {
  return candidatesFrom(
    await api.get(`/api/studio/content?q=${encodeURIComponent(query)}&limit=8`, { signal }),
  );
}

interface Props extends PartsEditorProps {
  /** "lesson" or "item": the noun in labels. */
  noun: string;
  heading: string;
  description: string;
}

function PartsEditor({ item, fields, onFieldsChange, noun, heading, description }: Props) {
  const list = fields.related;
  const seed = useRef(new Map<string, Known>()).current;
  const titles = useTitles(list, seed);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<PartCandidate[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [focus, setFocus] = useState<{ slug: string; control: "up" | "down" } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const headingId = useId();
  const searchId = useId();

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setResults(null);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      searchContent(q, abort.signal).then(
        (found) => {
          setResults(found);
          setSearchError(null);
        },
        (e: unknown) => {
          if (!abort.signal.aborted) setSearchError(e instanceof Error ? e.message : "The search failed.");
        },
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query]);

  // After a move, keep the keyboard on the moved entry's button (or its other one at an end).
  useEffect(() => {
    if (!focus) return;
    const row = listRef.current?.querySelector(`[data-slug="${CSS.escape(focus.slug)}"]`);
    const button =
      row?.querySelector<HTMLButtonElement>(`[data-control="${focus.control}"]:not(:disabled)`) ??
      row?.querySelector<HTMLButtonElement>("[data-control]:not(:disabled)");
    button?.focus();
    setFocus(null);
  }, [focus]);

  const nameOf = (slug: string) => {
    const k = titles.get(slug);
    return k && k !== "missing" ? k.title : slug;
  };

  function move(index: number, delta: -1 | 1) {
    const slug = list[index]!;
    onFieldsChange({ related: moveSlug(list, index, delta) });
    setFocus({ slug, control: delta < 0 ? "up" : "down" });
  }

  function add(candidate: PartCandidate) {
    seed.set(candidate.slug, { title: candidate.title, type: candidate.type, status: null });
    onFieldsChange({ related: addSlug(list, candidate.slug, item.slug) });
  }

  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-3">
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-ink">
          {heading} <span className="font-normal text-ink-subtle">({list.length})</span>
        </h3>
        <p className="text-xs text-ink-subtle">{description}</p>
      </div>

      {list.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-3 py-4 text-center text-sm text-ink-muted">
          No {noun}s yet. Search below to add one.
        </p>
      ) : (
        <ol ref={listRef} className="divide-y divide-line rounded-lg border border-line">
          {list.map((slug, i) => {
            const k = titles.get(slug);
            const name = nameOf(slug);
            return (
              <li key={slug} data-slug={slug} className="flex items-center gap-2 px-3 py-2 text-sm">
                <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-sunken text-xs font-semibold text-ink-muted">
                  {i + 1}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-ink">{name}</span>
                  <span className="block truncate text-xs text-ink-subtle">
                    /{slug}
                    {k === "missing" ? " · not found: it will not be shown" : null}
                    {k && k !== "missing" && k.status && k.status !== "published"
                      ? " · not published yet: readers see it once it is"
                      : null}
                  </span>
                </span>
                <span className="flex shrink-0 gap-0.5">
                  <Button
                    variant="ghost"
                    size="sm"
                    className="px-2"
                    data-control="up"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move ${name} up`}
                  >
                    <ArrowUp aria-hidden="true" className="size-4" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="px-2"
                    data-control="down"
                    disabled={i === list.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${name} down`}
                  >
                    <ArrowDown aria-hidden="true" className="size-4" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="px-2"
                    onClick={() => onFieldsChange({ related: removeSlug(list, slug) })}
                    aria-label={`Remove ${name}`}
                  >
                    <X aria-hidden="true" className="size-4" />
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      )}

      <div>
        <label htmlFor={searchId} className="mb-1 block text-xs font-medium text-ink">
          Add a {noun}
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
          />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by title"
            autoComplete="off"
            className={cx(inputClass, "pl-9")}
          />
        </div>
        <p aria-live="polite" className="mt-1 text-xs text-ink-subtle">
          {searchError ??
            (results === null ? "" : results.length === 0 ? "Nothing matches." : `${results.length} found`)}
        </p>
        {results && results.length > 0 ? (
          <ul className="mt-1 divide-y divide-line rounded-lg border border-line">
            {results.map((r) => {
              const added = list.includes(r.slug);
              const self = r.slug === item.slug;
              return (
                <li key={r.slug} className="flex items-center gap-2 px-3 py-2 text-sm">
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-ink">{r.title}</span>
                    <span className="block truncate text-xs text-ink-subtle">
                      {r.type}
                      {r.state && isWorkflowState(r.state) ? ` · ${WORKFLOW_STATE_LABELS[r.state]}` : ""}
                    </span>
                  </span>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={added || self}
                    onClick={() => add(r)}
                    aria-label={added ? `${r.title} is already added` : `Add ${r.title}`}
                  >
                    <Plus aria-hidden="true" className="size-3.5" />
                    {added ? "Added" : self ? "This item" : "Add"}
                  </Button>
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

/** A course's lessons, in order. */
export function CoursePartsEditor(props: PartsEditorProps) {
  return (
    <PartsEditor
      {...props}
      noun="lesson"
      heading="Lessons"
      description="Readers take the lessons in this order. Only published lessons are shown on the course page."
    />
  );
}

/** A collection's members, in order. */
export function CollectionPartsEditor(props: PartsEditorProps) {
  return (
    <PartsEditor
      {...props}
      noun="item"
      heading="Items in this collection"
      description="Shown in this order on the collection page. Only published items are shown to readers."
    />
  );
}
