/**
 * The toolbar's and shortcuts' Markdown edits as pure text changes, so CodeMirror and the plain
 * textarea (before CodeMirror loads) apply exactly the same ones. Each command takes the text and
 * selection and returns one replacement plus the selection to leave behind.
 */
import { PREVIEW_MARKER } from "../../../../core/index.ts";

export interface TextState {
  text: string;
  from: number;
  to: number;
}

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  /** The selection after the edit, in the new text. */
  selectFrom: number;
  selectTo: number;
}

export const MARKDOWN_COMMANDS = [
  "bold",
  "italic",
  "heading",
  "link",
  "code",
  "codeBlock",
  "bulletList",
  "numberedList",
  "quote",
  "table",
  "previewMarker",
] as const;
export type MarkdownCommand = (typeof MARKDOWN_COMMANDS)[number];

const edit = (from: number, to: number, insert: string, selectFrom: number, selectTo: number): TextEdit => ({
  from,
  to,
  insert,
  selectFrom,
  selectTo,
});

/** Wraps the selection in `marker` (or a placeholder when nothing is selected); unwraps when already wrapped. */
function toggleWrap({ text, from, to }: TextState, marker: string, placeholder: string): TextEdit {
  const n = marker.length;
  if (from >= n && text.slice(from - n, from) === marker && text.slice(to, to + n) === marker) {
    return edit(from - n, to + n, text.slice(from, to), from - n, to - n);
  }
  const inner = from === to ? placeholder : text.slice(from, to);
  return edit(from, to, `${marker}${inner}${marker}`, from + n, from + n + inner.length);
}

/** The start of the line holding `at`, and the end of the line holding `to`. */
function lineRange(text: string, from: number, to: number): { start: number; end: number } {
  const start = text.lastIndexOf("\n", from - 1) + 1;
  const newline = text.indexOf("\n", to > from && text[to - 1] === "\n" ? to - 1 : to);
  return { start, end: newline === -1 ? text.length : newline };
}

/** Adds `prefix(i)` to every selected line, or removes it when every line has it. */
function toggleLinePrefix(state: TextState, pattern: RegExp, prefix: (i: number) => string): TextEdit {
  const { start, end } = lineRange(state.text, state.from, state.to);
  const lines = state.text.slice(start, end).split("\n");
  const all = lines.every((l) => pattern.test(l) || l.trim() === "") && lines.some((l) => pattern.test(l));
  let counter = 0;
  const next = all
    ? lines.map((l) => l.replace(pattern, ""))
    : lines.map((l) =>
        l.trim() === "" && lines.length > 1 ? l : `${prefix(counter++)}${l.replace(pattern, "")}`,
      );
  const insert = next.join("\n");
  const caret = state.from === state.to && lines.length === 1;
  return caret
    ? edit(start, end, insert, start + insert.length, start + insert.length)
    : edit(start, end, insert, start, start + insert.length);
}

/** Puts `block` on lines of its own, a blank line before it, at the selection. */
function insertBlock({ text, from, to }: TextState, block: string, select: [number, number]): TextEdit {
  const lead =
    from === 0 || text.slice(from - 2, from) === "\n\n" ? "" : text[from - 1] === "\n" ? "\n" : "\n\n";
  const after = text[to] === "\n" ? "" : "\n";
  const insert = `${lead}${block}${after}`;
  return edit(from, to, insert, from + lead.length + select[0], from + lead.length + select[1]);
}

export function applyMarkdownCommand(command: MarkdownCommand, state: TextState): TextEdit {
  const { text, from, to } = state;
  const selected = text.slice(from, to);
  switch (command) {
    case "bold":
      return toggleWrap(state, "**", "bold text");
    case "italic":
      return toggleWrap(state, "_", "italic text");
    case "code":
      return toggleWrap(state, "`", "code");
    case "link": {
      const label = selected || "link text";
      const insert = `[${label}](https://)`;
      const urlAt = from + label.length + 3;
      return selected
        ? edit(from, to, insert, urlAt, urlAt + "https://".length)
        : edit(from, to, insert, from + 1, from + 1 + label.length);
    }
    case "heading":
      return toggleLinePrefix(state, /^#{1,6} /, () => "## ");
    case "bulletList":
      return toggleLinePrefix(state, /^[-*+] /, () => "- ");
    case "numberedList":
      return toggleLinePrefix(state, /^\d+\. /, (i) => `${i + 1}. `);
    case "quote":
      return toggleLinePrefix(state, /^> ?/, () => "> ");
    case "codeBlock": {
      const code = selected || "code";
      const block = `\`\`\`ts\n${code}\n\`\`\``;
      // Select the language so it can be typed over at once.
      return insertBlock(state, block, [3, 5]);
    }
    case "table": {
      const block = "| Column | Column |\n| ------ | ------ |\n| Cell   | Cell   |";
      return insertBlock(state, block, [2, 8]);
    }
    case "previewMarker":
      // "Preview ends here": readers without the plan see the text above it (core content-preview.ts).
      return insertBlock(state, PREVIEW_MARKER, [PREVIEW_MARKER.length, PREVIEW_MARKER.length]);
  }
}

/** An image reference (`![alt](media:<id>)`) at the selection, the alt text selected. */
export function insertImage(state: TextState, ref: string, alt: string): TextEdit {
  const label = alt.replace(/[[\]]/g, "") || "image";
  const insert = `![${label}](${ref})`;
  return edit(state.from, state.to, insert, state.from + 2, state.from + 2 + label.length);
}
