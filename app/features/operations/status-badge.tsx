import type { ReactNode } from "react";

export type BadgeTone = "ok" | "warn" | "danger" | "neutral";

const tones: Record<BadgeTone, string> = {
  ok: "border-ok-line bg-ok-soft text-ok-text",
  warn: "border-warn-line bg-warn-soft text-warn-text",
  danger: "border-danger-line bg-danger-soft text-danger-text",
  neutral: "border-line bg-sunken text-ink-muted",
};

/** A small pill with a word (never colour alone). */
export function StatusBadge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

export const thClass = "px-3 py-2 font-semibold";
export const tdClass = "px-3 py-2 align-top";
