/**
 * The one place where the studio's other parts join the editor. The screen passes every prop these
 * components take; mount them here:
 * - panels (workflow, history, preview as): `PanelProps`;
 * - the type's own parts (course lessons, collection members, video file and chapters): `PartsEditorProps`.
 */
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import type { EditorFields } from "./editor-fields.ts";

export interface PanelProps {
  item: StudioItem;
  onItemChange(item: StudioItem): void;
  hasUnsavedChanges: boolean;
  /** Saves the form now (the panels save before a transition); null when it could not be saved. */
  saveNow(): Promise<StudioItem | null>;
}

export interface PartsEditorProps {
  item: StudioItem;
  fields: EditorFields;
  onFieldsChange(patch: Partial<EditorFields>): void;
}

/**
 * The panels beside a saved item's editor. Mount here: <WorkflowPanel {...panel} />,
 * <PreviewAsPanel {...panel} />, <HistoryPanel {...panel} />, and by `parts.fields.type`:
 * <CoursePartsEditor {...parts} />, <CollectionPartsEditor {...parts} />, <VideoPartsEditor {...parts} />.
 */
export function EditorPanels(_slots: { panel: PanelProps; parts: PartsEditorProps }) {
  return null;
}
