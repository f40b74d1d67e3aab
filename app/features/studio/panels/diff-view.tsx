import { cx } from "../../../components/ui/cx.ts";
import { diffLines, diffStats, foldUnchanged } from "./diff-lines.ts";
import type { VersionDiff } from "./types.ts";

const versionName = (v: number | "current") => (v === "current" ? "the current version" : `version ${v}`);

/** Fields whose words alone read badly. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  seoTitle: "SEO title",
  seoKeywords: "SEO keywords",
  ogTitle: "Social title",
  ogDescription: "Social description",
  ogImage: "Social image",
  rolesRequired: "Required roles",
  tier: "Plan needed",
  noindex: "Hidden from search engines",
};

/** Field names as people read them ("metaDescription" → "Meta description"). */
export function fieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A readable difference between two versions: changed fields as a table, then the body line by
 * line. Added and removed lines are coloured and also marked "+" and "−" (with a spoken label),
 * so the colour is never the only signal.
 */
export function DiffView({ diff }: { diff: VersionDiff }) {
  const rows = foldUnchanged(diffLines(diff.body));
  const { added, removed } = diffStats(diff.body);
  const title = `Changes from ${versionName(diff.from)} to ${versionName(diff.to)}`;
  return (
    <div className="min-w-0 space-y-4">
      <h3 className="text-sm font-semibold text-ink">{title}</h3>
      {diff.fields.length === 0 && added === 0 && removed === 0 ? (
        <p className="text-sm text-ink-muted">The two versions are the same.</p>
      ) : null}
      {diff.fields.length > 0 ? (
        <div className="overflow-x-auto rounded-lg border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Changed fields</caption>
            <thead className="bg-surface text-xs text-ink-subtle">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Field
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Before
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  After
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {diff.fields.map((f) => (
                <tr key={f.field} className="align-top">
                  <th scope="row" className="px-3 py-2 font-medium text-ink">
                    {fieldLabel(f.field)}
                  </th>
                  <td className="break-words px-3 py-2 text-danger-text">
                    {f.before ? (
                      <del className="no-underline">{f.before}</del>
                    ) : (
                      <em className="text-ink-subtle">empty</em>
                    )}
                  </td>
                  <td className="break-words px-3 py-2 text-ok-text">
                    {f.after ? (
                      <ins className="no-underline">{f.after}</ins>
                    ) : (
                      <em className="text-ink-subtle">empty</em>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {added + removed > 0 ? (
        <div>
          <p className="mb-2 text-xs text-ink-subtle">
            Body: {added} {added === 1 ? "line" : "lines"} added, {removed} {removed === 1 ? "line" : "lines"}{" "}
            removed
          </p>
          {/* Long lines scroll sideways: focusable so the keyboard can scroll them too. */}
          <section
            aria-label="Body, line by line"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
            tabIndex={0}
            className="overflow-x-auto rounded-lg border border-line bg-elevated focus-visible:outline-2 focus-visible:outline-focus"
          >
            <ol className="min-w-max py-1 font-mono text-xs leading-5">
              {/* Rows are positional (a diff is never reordered), so their index is their key. */}
              {rows.map((row, i) =>
                row.kind === "fold" ? (
                  <li key={`f${i}`} className="bg-sunken px-3 py-0.5 text-ink-subtle">
                    ⋯ {row.count} unchanged lines
                  </li>
                ) : (
                  <li
                    key={i}
                    className={cx(
                      "flex whitespace-pre",
                      row.op === "add" && "bg-ok-soft text-ok-text",
                      row.op === "remove" && "bg-danger-soft text-danger-text",
                      row.op === "same" && "text-ink-muted",
                    )}
                  >
                    <span
                      aria-hidden="true"
                      className={cx(
                        "w-8 shrink-0 select-none pr-2 text-right",
                        row.op === "same" && "text-ink-subtle",
                      )}
                    >
                      {row.newNo ?? row.oldNo}
                    </span>
                    <span aria-hidden="true" className="w-4 shrink-0 select-none font-bold">
                      {row.marker}
                    </span>
                    {row.op === "add" ? <span className="sr-only">Added: </span> : null}
                    {row.op === "remove" ? <span className="sr-only">Removed: </span> : null}
                    <span className="pr-3">{row.text || " "}</span>
                  </li>
                ),
              )}
            </ol>
          </section>
        </div>
      ) : null}
    </div>
  );
}
