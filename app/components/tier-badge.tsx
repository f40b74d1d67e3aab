import { Lock } from "lucide-react";
import type { Tier } from "../../core/index.ts";
import { cx } from "./ui/cx.ts";

const tierTone: Record<Tier, string> = {
  Free: "border-line-strong bg-sunken text-ink-muted",
  Basic: "border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-300",
  Pro: "border-accent-line bg-accent-soft text-accent-text",
  Enterprise:
    "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-300",
};

/** A small pill naming a plan tier; with `locked`, a lock icon says the reader cannot open it. */
export function TierBadge({
  tier,
  locked = false,
  className,
}: {
  tier: Tier;
  locked?: boolean;
  className?: string;
}) {
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium leading-4",
        tierTone[tier],
        className,
      )}
    >
      {locked ? <Lock aria-hidden="true" className="size-3" /> : null}
      {tier}
      {locked ? <span className="sr-only"> (locked)</span> : null}
    </span>
  );
}
