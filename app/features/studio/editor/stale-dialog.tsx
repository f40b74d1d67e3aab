/**
 * A save refused because someone else saved first (409 STALE_VERSION): says who and when (the
 * server's message) and lets the writer load their version (this writer's text stays on screen
 * to copy) or copy their own text first. Nothing is dropped.
 */
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";

export function StaleDialog({
  open,
  message,
  busy,
  onLoadTheirs,
  onCopyMine,
  onClose,
}: {
  open: boolean;
  message: string;
  busy: boolean;
  onLoadTheirs(): void;
  onCopyMine(): Promise<boolean>;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setCopied(null);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl border border-line bg-elevated p-6 text-ink shadow-2xl backdrop:bg-zinc-950/50"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        Someone else changed this item
      </h2>
      <p className="mt-2 text-sm text-ink-muted">{message}</p>
      <p className="mt-2 text-sm text-ink-muted">
        Your text is still here. Load their version to continue from it: your text stays below the editor so
        you can copy what you need.
      </p>
      <p aria-live="polite" className="mt-2 text-sm text-ok-text">
        {copied === "yes" ? "Your text is on the clipboard." : ""}
      </p>
      {copied === "no" ? (
        <p className="text-sm text-danger-text">
          The clipboard is not available: load their version and copy your text from below the editor.
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={async () => setCopied((await onCopyMine()) ? "yes" : "no")}>
          Copy my text
        </Button>
        <Button onClick={onLoadTheirs} disabled={busy}>
          {busy ? "Loading…" : "Load their version (your text is kept below to copy)"}
        </Button>
      </div>
    </dialog>
  );
}
