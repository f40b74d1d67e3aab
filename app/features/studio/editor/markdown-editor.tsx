/**
 * The body's editor: a plain textarea at once (server render, slow networks), replaced by
 * CodeMirror when its module has loaded. Both apply the same Markdown commands and shortcuts; the
 * parent drives them through the handle (toolbar buttons, inserting an image).
 */
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from "react";
import type { CodeMirrorHandle } from "./codemirror.ts";
import {
  applyMarkdownCommand,
  insertImage,
  type MarkdownCommand,
  type TextEdit,
} from "./markdown-commands.ts";
import { type EditorAction, shortcutFor, usesCommandKey } from "./shortcuts.ts";

export interface MarkdownEditorHandle {
  command(command: MarkdownCommand): void;
  insertImage(ref: string, alt: string): void;
  /** Shows a text loaded from elsewhere (another writer's version). */
  replaceText(text: string): void;
}

export interface MarkdownEditorProps {
  value: string;
  onChange(text: string): void;
  /** Shortcuts the editor does not handle itself (save, image). */
  onAction(action: EditorAction): void;
  label: string;
  invalid?: boolean;
  describedBy?: string;
  ref?: Ref<MarkdownEditorHandle>;
}

const PLACEHOLDER = "Write in Markdown: ## for headings, ``` for code, - for lists…";

export function MarkdownEditor({
  value,
  onChange,
  onAction,
  label,
  invalid,
  describedBy,
  ref,
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const cm = useRef<CodeMirrorHandle | null>(null);
  const [loaded, setLoaded] = useState(false);
  // The latest callbacks and text, read by CodeMirror's listeners without re-creating it.
  const latest = useRef({ value, onChange, onAction });
  latest.current = { value, onChange, onAction };

  // CodeMirror is created once; later text changes come from it, or through replaceText.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once, reading `latest` for what changes
  useEffect(() => {
    let cancelled = false;
    import("./codemirror.ts")
      .then(({ createCodeMirror }) => {
        if (cancelled || !host.current) return;
        const hadFocus = document.activeElement === textarea.current;
        const selection = textarea.current
          ? { from: textarea.current.selectionStart, to: textarea.current.selectionEnd }
          : null;
        cm.current = createCodeMirror(host.current, {
          doc: latest.current.value,
          label,
          placeholderText: PLACEHOLDER,
          onChange: (text) => latest.current.onChange(text),
          onAction: (action) => run(action),
        });
        setLoaded(true);
        if (hadFocus && selection) {
          cm.current.apply({
            from: 0,
            to: 0,
            insert: "",
            selectFrom: selection.from,
            selectTo: selection.to,
          });
        }
      })
      // The textarea stays: writing works without CodeMirror.
      .catch(() => {});
    return () => {
      cancelled = true;
      cm.current?.destroy();
      cm.current = null;
    };
  }, []);

  function applyEdit(edit: TextEdit) {
    if (cm.current) return cm.current.apply(edit);
    const area = textarea.current;
    if (!area) return;
    const text = area.value.slice(0, edit.from) + edit.insert + area.value.slice(edit.to);
    latest.current.onChange(text);
    // After React has written the new value.
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(edit.selectFrom, edit.selectTo);
    });
  }

  function textState() {
    if (cm.current) return cm.current.state();
    const area = textarea.current;
    return { text: latest.current.value, from: area?.selectionStart ?? 0, to: area?.selectionEnd ?? 0 };
  }

  function run(action: EditorAction) {
    if (action === "save" || action === "image") return latest.current.onAction(action);
    applyEdit(applyMarkdownCommand(action, textState()));
  }

  useImperativeHandle(ref, () => ({
    command: (command) => run(command),
    insertImage: (mediaRef, alt) => applyEdit(insertImage(textState(), mediaRef, alt)),
    replaceText: (text) => {
      if (cm.current) cm.current.setText(text);
      else latest.current.onChange(text);
    },
  }));

  return (
    <div
      className="relative h-[60vh] min-h-[22rem] overflow-hidden lg:h-[calc(100dvh-13rem)] rounded-b-lg border border-t-0 border-line-strong bg-elevated focus-within:border-accent focus-within:ring-2 focus-within:ring-accent/30 aria-invalid:border-danger-text"
      aria-invalid={invalid || undefined}
    >
      <div ref={host} className={loaded ? "absolute inset-0" : "hidden"} aria-describedby={describedBy} />
      {loaded ? null : (
        <textarea
          ref={textarea}
          aria-label={label}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          placeholder={PLACEHOLDER}
          spellCheck
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            const shortcut = shortcutFor(e.nativeEvent, usesCommandKey(navigator.platform));
            if (!shortcut) return;
            e.preventDefault();
            run(shortcut.action);
          }}
          className="absolute inset-0 h-full w-full resize-none bg-transparent px-4 py-3.5 font-mono text-[0.9375rem] leading-[1.65] text-ink placeholder:text-ink-subtle focus:outline-none"
        />
      )}
    </div>
  );
}
