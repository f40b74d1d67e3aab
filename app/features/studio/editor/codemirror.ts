/**
 * CodeMirror 6 for the Markdown body. Imported dynamically by markdown-editor.tsx, so only the
 * editor screens load it (DESIGN.md). Colours come from the app's CSS variables, so light and dark
 * follow the page's theme without a second editor theme.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { drawSelection, EditorView, keymap, placeholder } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import type { TextEdit, TextState } from "./markdown-commands.ts";
import { type EditorAction, SHORTCUTS } from "./shortcuts.ts";

export interface CodeMirrorOptions {
  doc: string;
  label: string;
  placeholderText: string;
  onChange(text: string): void;
  onAction(action: EditorAction): void;
}

export interface CodeMirrorHandle {
  state(): TextState;
  apply(edit: TextEdit): void;
  /** Replaces the whole text (loading someone else's version), keeping the undo history. */
  setText(text: string): void;
  focus(): void;
  destroy(): void;
}

const theme = EditorView.theme({
  "&": {
    color: "var(--c-ink)",
    backgroundColor: "var(--c-elevated)",
    fontSize: "0.9375rem",
    height: "100%",
  },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    lineHeight: "1.65",
    overflow: "auto",
  },
  ".cm-content": { padding: "0.875rem 0", caretColor: "var(--c-ink)" },
  ".cm-line": { padding: "0 1rem" },
  ".cm-cursor": { borderLeftColor: "var(--c-ink)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "color-mix(in srgb, var(--c-accent) 25%, transparent) !important",
  },
  ".cm-placeholder": { color: "var(--c-ink-subtle)" },
});

const highlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: "700", color: "var(--c-ink)" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: [tags.link, tags.url], color: "var(--c-accent-text)" },
  { tag: tags.monospace, color: "var(--c-ok-text)" },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.meta], color: "var(--c-ink-subtle)" },
  { tag: tags.quote, color: "var(--c-ink-muted)", fontStyle: "italic" },
]);

export function createCodeMirror(parent: HTMLElement, options: CodeMirrorOptions): CodeMirrorHandle {
  const actions = keymap.of(
    SHORTCUTS.map((s) => ({
      key: s.key,
      preventDefault: true,
      run: () => {
        options.onAction(s.action);
        return true;
      },
    })),
  );
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        actions,
        history(),
        drawSelection(),
        markdown(),
        syntaxHighlighting(highlight),
        EditorView.lineWrapping,
        placeholder(options.placeholderText),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        theme,
        EditorView.contentAttributes.of({ "aria-label": options.label, "aria-multiline": "true" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    state: () => {
      const { from, to } = view.state.selection.main;
      return { text: view.state.doc.toString(), from, to };
    },
    apply: (edit) => {
      view.dispatch({
        changes: { from: edit.from, to: edit.to, insert: edit.insert },
        selection: { anchor: edit.selectFrom, head: edit.selectTo },
        scrollIntoView: true,
      });
      view.focus();
    },
    setText: (text) => {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
