/**
 * The studio's screens composed from its features: the editor (app/features/studio/editor) with
 * the workflow, history and preview panels (studio/panels), and the media library and video parts
 * (studio/media). Features do not import each other; the /create and /content/:id/edit routes
 * hand these to the editor.
 */
import { CompletionRulePanel } from "../../features/learning/completion-rule-panel.tsx";
import type { EditorParts, PartsEditorProps } from "../../features/studio/editor/editor-panels.tsx";
import { checkStructuredData, structuredDataText } from "../../features/studio/editor/structured-data.ts";
import { MediaPicker, VideoPartsEditor } from "../../features/studio/media/index.ts";
import {
  CollectionPartsEditor,
  CoursePartsEditor,
  HistoryPanel,
  PreviewAsPanel,
  WorkflowPanel,
} from "../../features/studio/panels/index.ts";

export const studioParts: EditorParts = {
  MediaPicker,
  panels: ({ panel, parts }) => {
    const type = parts.fields.type;
    return (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <div className="rounded-xl border border-line p-4">
            <WorkflowPanel {...panel} />
          </div>
          {type === "course" ? <CoursePartsEditor {...parts} /> : null}
          {type === "course" ? <CompletionRulePanel courseId={panel.item.id} /> : null}
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
  },
};

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
