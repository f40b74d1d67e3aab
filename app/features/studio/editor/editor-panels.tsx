/**
 * The one place where the studio's other parts join the editor. The screen passes every prop these
 * components take; mount them here:
 * - panels (workflow, history, preview as): `PanelProps`;
 * - the type's own parts (course lessons, collection members, video file and chapters): `PartsEditorProps`;
 * - the media library behind the toolbar's Image button: `MediaPickerProps` (`ImagePicker` below
 *   takes an image address and alt text until the library is mounted in its place).
 */
import { useEffect, useId, useRef, useState } from "react";
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import type { MediaItem } from "../../../../server/modules/media/media.types.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/fields.tsx";
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

/**
 * The panels beside a saved item's editor. Mount here: <WorkflowPanel {...panel} />,
 * <PreviewAsPanel {...panel} />, <HistoryPanel {...panel} />, and by `parts.fields.type`:
 * <CoursePartsEditor {...parts} />, <CollectionPartsEditor {...parts} />, <VideoPartsEditor {...parts} />.
 */
export function EditorPanels(_slots: { panel: PanelProps; parts: PartsEditorProps }) {
  return null;
}

/** An image by address, with its alt text (the toolbar's Image button until the media library is mounted). */
export function ImagePicker({ onPick, onClose }: MediaPickerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [url, setUrl] = useState("");
  const [alt, setAlt] = useState("");
  const [error, setError] = useState<{ url?: string; alt?: string }>({});
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const submit = () => {
    const problems = {
      url: /^(https:\/\/|\/)\S+$/.test(url.trim())
        ? undefined
        : "Use an https:// address or a path starting with /.",
      alt: alt.trim() ? undefined : "Describe the image for readers who cannot see it.",
    };
    setError(problems);
    if (problems.url || problems.alt) return;
    onPick({
      id: "",
      ref: url.trim(),
      url: url.trim(),
      kind: "image",
      contentType: "",
      size: 0,
      width: null,
      height: null,
      alt: alt.trim(),
      fileName: null,
      createdAt: new Date().toISOString(),
      ownerName: null,
    });
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-line bg-elevated p-6 text-ink shadow-2xl backdrop:bg-zinc-950/50"
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="space-y-4"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          Insert an image
        </h2>
        <Field label="Image address" value={url} error={error.url} onChange={(e) => setUrl(e.target.value)} />
        <Field label="Alt text" value={alt} error={error.alt} onChange={(e) => setAlt(e.target.value)} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Insert</Button>
        </div>
      </form>
    </dialog>
  );
}
