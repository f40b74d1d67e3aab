/**
 * Course lessons and collection members are the item's ordered `related` slugs: the list edits
 * below keep the order, never hold a slug twice, and never hold the item itself.
 */

/** The list with the entry at `index` moved by `delta` places (unchanged when it cannot move). */
export function moveSlug(list: readonly string[], index: number, delta: -1 | 1): string[] {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const out = [...list];
  const [moved] = out.splice(index, 1);
  out.splice(to, 0, moved!);
  return out;
}

export function removeSlug(list: readonly string[], slug: string): string[] {
  return list.filter((s) => s !== slug);
}

/** Appends `slug` unless it is already there or is the item's own slug. */
export function addSlug(list: readonly string[], slug: string, ownSlug: string): string[] {
  if (!slug || slug === ownSlug || list.includes(slug)) return [...list];
  return [...list, slug];
}

/** One candidate to add (a row of the studio list). */
export interface PartCandidate {
  slug: string;
  title: string;
  type: string;
  /** Its workflow state; null when the answer did not say. */
  state: string | null;
}

/** Reads the studio list's answer (`items: StudioRow[]`), skipping rows without a slug or title. */
export function candidatesFrom(answer: unknown): PartCandidate[] {
  const items = (answer as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((raw) => {
    const i = raw as { slug?: unknown; title?: unknown; type?: unknown; state?: unknown };
    if (typeof i.slug !== "string" || typeof i.title !== "string") return [];
    return [
      {
        slug: i.slug,
        title: i.title,
        type: typeof i.type === "string" ? i.type : "article",
        state: typeof i.state === "string" ? i.state : null,
      },
    ];
  });
}
