/**
 * The editor's keyboard shortcuts: one list for the CodeMirror keymap, the textarea fallback and
 * the "Keyboard shortcuts" help. "Mod" is Ctrl, or ⌘ on Apple keyboards.
 */
import type { MarkdownCommand } from "./markdown-commands.ts";

export type EditorAction = MarkdownCommand | "save" | "image";

export interface Shortcut {
  /** CodeMirror key notation ("Mod-b", "Mod-Shift-7"). */
  key: string;
  action: EditorAction;
  label: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { key: "Mod-s", action: "save", label: "Save now" },
  { key: "Mod-b", action: "bold", label: "Bold" },
  { key: "Mod-i", action: "italic", label: "Italic" },
  { key: "Mod-k", action: "link", label: "Link" },
  { key: "Mod-e", action: "code", label: "Inline code" },
  { key: "Mod-Alt-c", action: "codeBlock", label: "Code block" },
  { key: "Mod-Alt-2", action: "heading", label: "Heading" },
  { key: "Mod-Shift-8", action: "bulletList", label: "Bulleted list" },
  { key: "Mod-Shift-7", action: "numberedList", label: "Numbered list" },
  { key: "Mod-Shift-9", action: "quote", label: "Quote" },
];

/** Whether the platform's modifier is ⌘ (Apple) rather than Ctrl. */
export function usesCommandKey(platform: string): boolean {
  return /Mac|iPhone|iPad|iPod/i.test(platform);
}

/** A shortcut as people read it: "Ctrl+Shift+8" or "⌘⇧8". */
export function keyLabel(key: string, mac: boolean): string {
  const parts = key.split("-");
  const last = parts.pop()!.toUpperCase();
  const names: Record<string, [string, string]> = {
    Mod: ["Ctrl", "⌘"],
    Shift: ["Shift", "⇧"],
    Alt: ["Alt", "⌥"],
  };
  const mods = parts.map((p) => names[p]?.[mac ? 1 : 0] ?? p);
  return mac ? [...mods, last].join("") : [...mods, last].join("+");
}

/**
 * The shortcut a keydown means (the textarea fallback and the whole screen's Ctrl/⌘+S), matched on
 * `code` for digits so Shift does not change them ("Shift+8" is "*" on a US layout).
 */
export function shortcutFor(
  event: Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">,
  mac: boolean,
): Shortcut | null {
  const mod = mac ? event.metaKey : event.ctrlKey;
  if (!mod) return null;
  const digit = /^Digit(\d)$/.exec(event.code)?.[1];
  const key = digit ?? /^Key([A-Z])$/.exec(event.code)?.[1]?.toLowerCase() ?? event.key.toLowerCase();
  return (
    SHORTCUTS.find((s) => {
      const parts = s.key.split("-");
      const want = parts[parts.length - 1]!.toLowerCase();
      return (
        want === key && parts.includes("Shift") === event.shiftKey && parts.includes("Alt") === event.altKey
      );
    }) ?? null
  );
}
