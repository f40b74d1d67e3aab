/** The Markdown toolbar above the body, and the "Keyboard shortcuts" help it opens. */
import {
  Bold,
  Code,
  Heading2,
  Image,
  Italic,
  Keyboard,
  Link,
  List,
  ListOrdered,
  type LucideIcon,
  Quote,
  ScissorsLineDashed,
  SquareCode,
  Table,
} from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { PREVIEW_MARKER } from "../../../../core/index.ts";
import type { MarkdownCommand } from "./markdown-commands.ts";
import { type EditorAction, keyLabel, SHORTCUTS, usesCommandKey } from "./shortcuts.ts";

const BUTTONS: { action: MarkdownCommand | "image"; label: string; icon: LucideIcon }[] = [
  { action: "bold", label: "Bold", icon: Bold },
  { action: "italic", label: "Italic", icon: Italic },
  { action: "heading", label: "Heading", icon: Heading2 },
  { action: "link", label: "Link", icon: Link },
  { action: "code", label: "Inline code", icon: Code },
  { action: "codeBlock", label: "Code block", icon: SquareCode },
  { action: "bulletList", label: "Bulleted list", icon: List },
  { action: "numberedList", label: "Numbered list", icon: ListOrdered },
  { action: "quote", label: "Quote", icon: Quote },
  { action: "table", label: "Table", icon: Table },
  { action: "image", label: "Image", icon: Image },
  { action: "previewMarker", label: "Preview ends here", icon: ScissorsLineDashed },
];

function useMac(): boolean {
  const [mac, setMac] = useState(false);
  useEffect(() => setMac(usesCommandKey(navigator.platform)), []);
  return mac;
}

export function EditorToolbar({ onAction }: { onAction(action: EditorAction): void }) {
  const mac = useMac();
  const shortcutOf = (action: string) => SHORTCUTS.find((s) => s.action === action);
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap items-center gap-0.5 rounded-t-lg border border-line-strong bg-sunken px-1.5 py-1"
    >
      {BUTTONS.map(({ action, label, icon: Icon }) => {
        const shortcut = shortcutOf(action);
        const title = shortcut ? `${label} (${keyLabel(shortcut.key, mac)})` : label;
        return (
          <button
            key={action}
            type="button"
            title={title}
            aria-label={label}
            // Keep the selection in the editor: the button acts on it.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onAction(action)}
            className="flex size-8 items-center justify-center rounded-md text-ink-muted hover:bg-elevated hover:text-ink focus-visible:outline-2 focus-visible:outline-focus"
          >
            <Icon className="size-4" aria-hidden />
          </button>
        );
      })}
      <ShortcutsHelp mac={mac} />
    </div>
  );
}

function ShortcutsHelp({ mac }: { mac: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !box.current?.contains(e.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);
  return (
    <div ref={box} className="relative ml-auto">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((v) => !v)}
        className="flex h-8 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-ink-muted hover:bg-elevated hover:text-ink focus-visible:outline-2 focus-visible:outline-focus"
      >
        <Keyboard className="size-4" aria-hidden />
        <span className="hidden sm:inline">Keyboard shortcuts</span>
        <span className="sr-only sm:hidden">Keyboard shortcuts</span>
      </button>
      {open ? (
        <div
          id={id}
          role="dialog"
          aria-label="Keyboard shortcuts"
          className="absolute right-0 z-30 mt-1 w-72 rounded-xl border border-line bg-elevated p-4 text-sm shadow-xl"
        >
          <h3 className="mb-2 font-semibold text-ink">Keyboard shortcuts</h3>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5">
            {SHORTCUTS.map((s) => (
              <div key={s.key} className="contents">
                <dt className="text-ink-muted">{s.label}</dt>
                <dd>
                  <kbd className="rounded border border-line-strong bg-sunken px-1.5 py-0.5 font-mono text-xs text-ink">
                    {keyLabel(s.key, mac)}
                  </kbd>
                </dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-xs text-ink-subtle">
            Tab indents inside the text. To move on with the keyboard, press Esc, then Tab.
          </p>
          <h3 className="mt-4 mb-1 font-semibold text-ink">Public preview</h3>
          <p className="text-xs text-ink-muted">
            “Preview ends here” inserts the line <code className="font-mono">{PREVIEW_MARKER}</code>. Readers
            without the item's plan see the text above it over the paywall; nothing below it is sent to them.
            Without the line there is no preview.
          </p>
        </div>
      ) : null}
    </div>
  );
}
