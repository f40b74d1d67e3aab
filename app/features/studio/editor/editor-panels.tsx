/**
 * Where the studio's other parts join the editor: the panels (workflow, history, preview as) take
 * `PanelProps`; the type's own parts (course lessons, collection members, video file and chapters)
 * take `PartsEditorProps`.
 */
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import { VideoPartsEditor } from "../media/index.ts";
import {
  CollectionPartsEditor,
  CoursePartsEditor,
  HistoryPanel,
  PreviewAsPanel,
  WorkflowPanel,
} from "../panels/index.ts";
import type { EditorFields } from "./editor-fields.ts";
import { checkStructuredData, structuredDataText } from "./structured-data.ts";

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
 * The panels below a saved item's editor: its workflow, the parts its type has (course lessons,
 * collection members, the video), its history, and the public page as a chosen reader sees it.
 */
export function EditorPanels({ panel, parts }: { panel: PanelProps; parts: PartsEditorProps }) {
  const type = parts.fields.type;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
      <div className="min-w-0 space-y-6">
        <div className="rounded-xl border border-line p-4">
          <WorkflowPanel {...panel} />
        </div>
        {type === "course" ? <CoursePartsEditor {...parts} /> : null}
        {type === "collection" ? <CollectionPartsEditor {...parts} /> : null}
        {type === "video" ? <VideoParts {...parts} /> : null}
        <div className="rounded-xl border border-line p-4">
          <HistoryPanel {...panel} />
        </div>
      </div>
      <div className="h-[48rem] min-w-0">
        <PreviewAsPanel {...panel} />
      </div>
    </div>
  );
}

/**
 * The video's parts edit the structured data the form holds as JSON text; while that text is not
 * valid JSON the parts wait for it to be fixed, so nothing typed there is overwritten.
 */
function VideoParts({ item, fields, onFieldsChange }: PartsEditorProps) {
  const check = checkStructuredData(fields.structuredData);
  if (!check.ok) {
    return (
      <p className="rounded-xl border border-line p-4 text-sm text-ink-muted">
        The video's file, poster, captions and chapters can be edited here once the structured data below is
        valid JSON again ({check.message}).
      </p>
    );
  }
  return (
    <VideoPartsEditor
      item={item}
      fields={{ structuredData: check.value }}
      onFieldsChange={(patch) => onFieldsChange({ structuredData: structuredDataText(patch.structuredData) })}
    />
  );
}
