/**
 * What the editor hands to the studio's other parts, which the route composes into it (features
 * do not import each other): the panels (workflow, history, preview as) take `PanelProps`; the
 * type's own parts (course lessons, collection members, video file and chapters) take
 * `PartsEditorProps`; the toolbar's Image button opens a picker taking `MediaPickerProps`.
 */

import type { ComponentType, ReactNode } from "react";
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import type { MediaItem } from "../../../../server/modules/media/media.types.ts";
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

export interface MediaPickerProps {
  kind: "image" | "video" | "captions";
  onPick(media: MediaItem): void;
  onClose(): void;
}

/** The parts a route plugs into the editor. */
export interface EditorParts {
  /** Below a saved item's editor: its workflow, type parts, history and preview. */
  panels(slots: { panel: PanelProps; parts: PartsEditorProps }): ReactNode;
  /** The media library behind the toolbar's Image button. */
  MediaPicker: ComponentType<MediaPickerProps>;
}
