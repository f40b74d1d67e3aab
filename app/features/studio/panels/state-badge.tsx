import { WORKFLOW_STATE_LABELS, type WorkflowState } from "../../../../core/index.ts";
import { cx } from "../../../components/ui/cx.ts";

const TONE: Readonly<Record<WorkflowState, string>> = Object.freeze({
  draft: "border-line-strong bg-sunken text-ink-muted",
  in_review: "border-accent-line bg-accent-soft text-accent-text",
  changes_requested: "border-warn-line bg-warn-soft text-warn-text",
  approved: "border-accent-line bg-accent-soft text-accent-text",
  scheduled: "border-accent-line bg-accent-soft text-accent-text",
  published: "border-ok-line bg-ok-soft text-ok-text",
  archived: "border-line bg-surface text-ink-subtle",
});

/** A workflow state as a small labelled pill (the text carries the meaning, not the colour). */
export function StateBadge({ state, className }: { state: WorkflowState; className?: string }) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold",
        TONE[state],
        className,
      )}
    >
      {WORKFLOW_STATE_LABELS[state]}
    </span>
  );
}
