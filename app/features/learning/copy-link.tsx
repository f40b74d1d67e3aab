import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";

/** Copies a URL to the clipboard, saying so (falls back to selecting it when the clipboard is refused). */
export function CopyLinkButton({ url, label = "Copy link" }: { url: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(url);
          setCopied("yes");
        } catch {
          setCopied("failed");
        }
        window.setTimeout(() => setCopied(null), 2500);
      }}
    >
      {copied === "yes" ? (
        <Check aria-hidden="true" className="size-4" />
      ) : (
        <Copy aria-hidden="true" className="size-4" />
      )}
      <span aria-live="polite">
        {copied === "yes" ? "Link copied" : copied === "failed" ? "Copy failed: select the link" : label}
      </span>
    </Button>
  );
}
