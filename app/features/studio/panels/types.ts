/** The props the studio's editor page gives its panels (wire types from the studio API). */
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";

export type {
  StudioItem,
  VersionDiff,
  VersionSummary,
  WorkflowEvent,
} from "../../../../server/modules/content/studio.types.ts";

/** The workflow, history and preview panels: they act on the saved item. */
export interface ItemPanelProps {
  item: StudioItem;
  /** The server answered with a newer item (after a transition or a restore). */
  onItemChange(item: StudioItem): void;
  /** The editor holds changes not saved yet: they are saved before anything is sent. */
  hasUnsavedChanges: boolean;
  /** Saves the editor's changes now; null when the save failed (the editor shows why). */
  saveNow(): Promise<StudioItem | null>;
}

/** Course lessons and collection members: the item's ordered `related` slugs. */
export interface PartsEditorProps {
  item: StudioItem;
  fields: { related: string[] };
  onFieldsChange(patch: { related: string[] }): void;
}
