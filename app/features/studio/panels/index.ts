/**
 * The editor's side panels: workflow, history (versions, diff, restore, workflow events), preview
 * as a reader, and the ordered parts of courses and collections.
 */
export { HistoryPanel } from "./history-panel.tsx";
export { CollectionPartsEditor, CoursePartsEditor } from "./parts-editor.tsx";
export { PreviewAsPanel, previewUrl } from "./preview-as-panel.tsx";
export { StateBadge } from "./state-badge.tsx";
export type { ItemPanelProps, PartsEditorProps } from "./types.ts";
export { WorkflowPanel } from "./workflow-panel.tsx";
