/**
 * The author-marked public preview of a gated item (issue 13 "the paywall sells"): the part of the
 * Markdown body before a marker line `<!-- more -->`. Readers who may not read the item see that
 * part (rendered through the same sanitizing pipeline as the body) above the paywall; nothing
 * after the marker ever leaves the server. No marker → no preview.
 *
 * The marker is a line of its own holding only the HTML comment `<!-- more -->`: spaces around
 * and inside it are allowed and the word is case-insensitive (`<!--MORE-->`, `  <!--  More -->`).
 * A marker inside a fenced code block (``` or ~~~) is text, not a marker. The first marker counts.
 * The marker is an HTML comment, so the full body renders without it.
 */

/** What the studio's "Preview ends here" button inserts. */
export const PREVIEW_MARKER = "<!-- more -->";

const MARKER_LINE = /^[ \t]*<!--[ \t]*more[ \t]*-->[ \t]*$/i;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/** The body before the first marker line (trimmed), or null when there is no marker or nothing before it. */
export function publicPreviewSource(markdown: string): string | null {
  const lines = markdown.split(/\r?\n/);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const open = FENCE.exec(line);
    if (fence) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    if (MARKER_LINE.test(line)) {
      const before = lines.slice(0, i).join("\n").trim();
      return before === "" ? null : before;
    }
  }
  return null;
}

/** True when the body holds a marker line (the studio says whether a preview is public). */
export function hasPreviewMarker(markdown: string): boolean {
  return publicPreviewSource(markdown) !== null;
}
