import { WORKFLOW_STATE_LABELS, type WorkflowState } from "../../../../core/index.ts";
import { cx } from "../../../components/ui/cx.ts";

const tone: Record<WorkflowState, string> = {
  draft: "border-line-strong bg-sunken text-ink-muted",
  in_review: "border-warn-line bg-warn-soft text-warn-text",
  changes_requested: "border-danger-line bg-danger-soft text-danger-text",
  approved: "border-accent-line bg-accent-soft text-accent-text",
  scheduled: "border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-300",
  published: "border-ok-line bg-ok-soft text-ok-text",
  archived: "border-dashed border-line-strong bg-surface text-ink-subtle",
};

/** A small pill naming an item's workflow state. */
export function StateBadge({ state, className }: { state: WorkflowState; className?: string }) {
  return (
    <span
      className={cx(
        "inline-flex items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium leading-4",
        tone[state],
        className,
      )}
    >
      {WORKFLOW_STATE_LABELS[state]}
    </span>
  );
}
