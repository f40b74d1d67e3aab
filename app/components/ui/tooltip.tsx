import type { ReactNode } from "react";
import { cx } from "./cx.ts";

export interface TooltipProps {
  /** Id of the tooltip element; reference it from the trigger with aria-describedby. */
  id: string;
  text: string;
  children: ReactNode;
  side?: "right" | "top" | "bottom";
  className?: string;
}

const placement = {
  right: "left-full top-1/2 ml-2 -translate-y-1/2",
  top: "bottom-full left-1/2 mb-2 -translate-x-1/2",
  bottom: "top-full left-1/2 mt-2 -translate-x-1/2",
};

/**
 * A CSS tooltip shown on hover and keyboard focus. The trigger inside `children` must carry
 * `aria-describedby={id}` so screen readers announce the text too.
 */
export function Tooltip({ id, text, children, side = "right", className }: TooltipProps) {
  return (
    <span className={cx("tooltip-host", className)}>
      {children}
      <span
        role="tooltip"
        id={id}
        className={cx(
          "tooltip rounded-md bg-zinc-900 px-2 py-1 text-xs font-medium text-white shadow-lg dark:bg-zinc-100 dark:text-zinc-900",
          placement[side],
        )}
      >
        {text}
      </span>
    </span>
  );
}
