import { cx } from "./cx.ts";

/**
 * An on/off switch (`role="switch"`, `aria-checked`) named by the element `labelledBy` points at
 * and described by `describedBy`. `busy` (a save in flight) marks it `aria-busy`; callers disable
 * it while busy.
 */
export function Switch({
  id,
  checked,
  disabled,
  busy,
  onChange,
  labelledBy,
  describedBy,
}: {
  id: string;
  checked: boolean;
  disabled: boolean;
  busy?: boolean;
  onChange(next: boolean): void;
  labelledBy: string;
  describedBy: string;
}) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cx(
        "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border transition-colors",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/40 disabled:opacity-60",
        checked ? "border-accent bg-accent" : "border-line-strong bg-sunken",
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          "inline-block size-4 rounded-full bg-white shadow transition-transform",
          checked ? "translate-x-6" : "translate-x-1",
        )}
      />
    </button>
  );
}
