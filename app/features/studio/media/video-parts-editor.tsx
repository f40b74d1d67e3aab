/**
 * The parts of a video item: its file, poster, captions, duration and chapters, edited as the
 * item's VideoObject JSON-LD (`structuredData`), which the public page's player reads. Files come
 * from the media picker and are named as `media:<id>`; the server checks on save that the writer
 * may use them.
 */
import { Captions, Film, Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import type { MediaItem, StudioItem } from "../../../../server/services.ts";
import { Button } from "../../../components/ui/button.tsx";
import { cx } from "../../../components/ui/cx.ts";
import { Field, inputClass } from "../../../components/ui/fields.tsx";
import { formatBytes, getMedia, mediaIdOfRef, type PickableKind } from "./media-client.ts";
import { MediaPicker } from "./media-picker.tsx";
import { formatClock, parseClock, readVideoParts, type VideoParts, writeVideoParts } from "./video-parts.ts";

export interface VideoPartsEditorProps {
  item: StudioItem;
  fields: { structuredData: unknown };
  onFieldsChange(patch: { structuredData: unknown }): void;
}

/** What the picker is open for: a slot, or a new captions track. */
type Picking = "contentUrl" | "thumbnailUrl" | "caption" | null;

interface ChapterRow {
  key: number;
  time: string;
  title: string;
}

let rowKeys = 0;
const rowsOf = (parts: VideoParts): ChapterRow[] =>
  parts.chapters.map((c) => ({ key: ++rowKeys, time: formatClock(c.startOffset), title: c.name }));

export function VideoPartsEditor({ item, fields, onFieldsChange }: VideoPartsEditorProps) {
  const parts = readVideoParts(fields.structuredData);
  const [picking, setPicking] = useState<Picking>(null);
  const [duration, setDuration] = useState(parts.durationS === null ? "" : formatClock(parts.durationS));
  const [rows, setRows] = useState<ChapterRow[]>(() => rowsOf(parts));
  const headingId = useId();

  // Another item (or a restored version) brings its own chapters and duration.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the item changes
  useEffect(() => {
    const fresh = readVideoParts(fields.structuredData);
    setRows(rowsOf(fresh));
    setDuration(fresh.durationS === null ? "" : formatClock(fresh.durationS));
  }, [item.id, item.version]);

  const write = (next: Partial<VideoParts>) =>
    onFieldsChange({
      structuredData: writeVideoParts(fields.structuredData, { ...parts, ...next }, item.title),
    });

  /** The chapters whose time reads as a time, sorted (rows being typed stay where they are). */
  const commitRows = (next: ChapterRow[]) => {
    setRows(next);
    write({
      chapters: next.flatMap((r) => {
        const at = parseClock(r.time);
        return at === null ? [] : [{ startOffset: at, name: r.title.trim() }];
      }),
    });
  };
  const sortRows = () =>
    setRows((current) =>
      [...current].sort((a, b) => (parseClock(a.time) ?? Infinity) - (parseClock(b.time) ?? Infinity)),
    );

  const durationError = duration.trim() && parseClock(duration) === null ? "Use m:ss, e.g. 4:30" : null;

  const picked = (media: MediaItem) => {
    if (picking === "caption") {
      write({ captions: [...parts.captions, { contentUrl: media.ref, inLanguage: "en", name: "English" }] });
    } else if (picking) write({ [picking]: media.ref });
    setPicking(null);
  };
  const pickerKind: Record<Exclude<Picking, null>, PickableKind> = {
    contentUrl: "video",
    thumbnailUrl: "image",
    caption: "captions",
  };

  return (
    <section aria-labelledby={headingId} className="space-y-6">
      <h2 id={headingId} className="text-base font-semibold">
        Video
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <MediaSlot
          label="Video file"
          kind="video"
          value={parts.contentUrl}
          onChoose={() => setPicking("contentUrl")}
          onRemove={() => write({ contentUrl: null })}
          onDuration={(s) => {
            // The file's own length fills an empty duration (the writer can still change it).
            if (parts.durationS !== null || duration.trim()) return;
            setDuration(formatClock(s));
            write({ durationS: s });
          }}
        />
        <MediaSlot
          label="Poster"
          kind="image"
          value={parts.thumbnailUrl}
          onChoose={() => setPicking("thumbnailUrl")}
          onRemove={() => write({ thumbnailUrl: null })}
        />
      </div>

      <Field
        label="Duration"
        className="max-w-64"
        value={duration}
        placeholder="4:30"
        inputMode="numeric"
        error={durationError}
        hint="Minutes and seconds (or h:mm:ss)."
        onChange={(e) => {
          setDuration(e.target.value);
          const s = e.target.value.trim() ? parseClock(e.target.value) : null;
          if (!e.target.value.trim() || s !== null) write({ durationS: s });
        }}
      />

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Captions</legend>
        {parts.captions.length === 0 ? (
          <p className="text-sm text-ink-muted">No captions yet. Add a WebVTT file per language.</p>
        ) : (
          <ul className="space-y-2">
            {parts.captions.map((caption, i) => (
              <li
                key={`${caption.contentUrl}-${i}`}
                className="flex flex-wrap items-end gap-3 rounded-xl border border-line p-3"
              >
                <div className="min-w-40 flex-1">
                  <span className="mb-1.5 block text-xs font-medium text-ink-muted">File</span>
                  <MediaName value={caption.contentUrl} />
                </div>
                <Field
                  label="Language"
                  className="w-28"
                  value={caption.inLanguage}
                  placeholder="en"
                  onChange={(e) =>
                    write({
                      captions: parts.captions.map((c, j) =>
                        j === i ? { ...c, inLanguage: e.target.value.trim() } : c,
                      ),
                    })
                  }
                />
                <Field
                  label="Label"
                  className="w-40"
                  value={caption.name}
                  placeholder="English"
                  onChange={(e) =>
                    write({
                      captions: parts.captions.map((c, j) => (j === i ? { ...c, name: e.target.value } : c)),
                    })
                  }
                />
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove the ${caption.name || caption.inLanguage} captions`}
                  onClick={() => write({ captions: parts.captions.filter((_, j) => j !== i) })}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Button variant="secondary" size="sm" onClick={() => setPicking("caption")}>
          <Captions aria-hidden="true" className="size-4" /> Add captions
        </Button>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Chapters</legend>
        {rows.length === 0 ? (
          <p className="text-sm text-ink-muted">No chapters. Readers can jump to each chapter's start.</p>
        ) : (
          <ol className="space-y-2">
            {rows.map((row, i) => {
              const bad = row.time.trim() !== "" && parseClock(row.time) === null;
              return (
                <li key={row.key} className="flex items-start gap-2">
                  <div className="w-24 shrink-0">
                    <label className="sr-only" htmlFor={`chapter-time-${row.key}`}>
                      Chapter {i + 1} start
                    </label>
                    <input
                      id={`chapter-time-${row.key}`}
                      value={row.time}
                      placeholder="0:00"
                      inputMode="numeric"
                      aria-invalid={bad || undefined}
                      aria-describedby={bad ? `chapter-time-${row.key}-error` : undefined}
                      className={cx(inputClass, "font-mono")}
                      onChange={(e) =>
                        commitRows(rows.map((r) => (r.key === row.key ? { ...r, time: e.target.value } : r)))
                      }
                      onBlur={sortRows}
                    />
                    {bad ? (
                      <p id={`chapter-time-${row.key}-error`} className="mt-1 text-xs text-danger-text">
                        Use m:ss
                      </p>
                    ) : null}
                  </div>
                  <label className="sr-only" htmlFor={`chapter-title-${row.key}`}>
                    Chapter {i + 1} title
                  </label>
                  <input
                    id={`chapter-title-${row.key}`}
                    value={row.title}
                    placeholder="Chapter title"
                    className={inputClass}
                    onChange={(e) =>
                      commitRows(rows.map((r) => (r.key === row.key ? { ...r, title: e.target.value } : r)))
                    }
                  />
                  <Button
                    variant="ghost"
                    size="md"
                    aria-label={`Remove chapter ${i + 1}`}
                    onClick={() => commitRows(rows.filter((r) => r.key !== row.key))}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </li>
              );
            })}
          </ol>
        )}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            const last = rows.reduce((max, r) => Math.max(max, parseClock(r.time) ?? 0), -1);
            setRows([...rows, { key: ++rowKeys, time: formatClock(last < 0 ? 0 : last + 30), title: "" }]);
          }}
        >
          <Plus aria-hidden="true" className="size-4" /> Add chapter
        </Button>
      </fieldset>

      {picking ? (
        <MediaPicker kind={pickerKind[picking]} onPick={picked} onClose={() => setPicking(null)} />
      ) : null}
    </section>
  );
}

/** A media item's name (from the library) or the URL as written. */
function useMediaItem(value: string | null): { media: MediaItem | null; missing: boolean } {
  const id = mediaIdOfRef(value);
  const [state, setState] = useState<{ id: string | null; media: MediaItem | null; missing: boolean }>({
    id: null,
    media: null,
    missing: false,
  });
  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    getMedia(id, controller.signal)
      .then((media) => setState({ id, media, missing: false }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ id, media: null, missing: true });
      });
    return () => controller.abort();
  }, [id]);
  return state.id === id ? state : { media: null, missing: false };
}

function MediaName({ value }: { value: string }) {
  const { media, missing } = useMediaItem(value);
  const label = media
    ? (media.fileName ?? media.ref)
    : missing
      ? "A file that is no longer in the library"
      : value;
  return (
    <span className="block truncate text-sm" title={value}>
      {label}
      {media ? <span className="text-ink-muted"> · {formatBytes(media.size)}</span> : null}
    </span>
  );
}

function MediaSlot({
  label,
  kind,
  value,
  onChoose,
  onRemove,
  onDuration,
}: {
  label: string;
  kind: "video" | "image";
  value: string | null;
  onChoose(): void;
  onRemove(): void;
  /** The video's length in whole seconds, once its metadata has loaded. */
  onDuration?(seconds: number): void;
}) {
  const { media } = useMediaItem(value);
  const id = mediaIdOfRef(value);
  const src = value ? (id ? `/api/media/${id}/file` : value) : null;
  return (
    <div className="rounded-xl border border-line p-3">
      <p className="mb-2 text-sm font-medium">{label}</p>
      <div className="mb-3 flex aspect-video items-center justify-center overflow-hidden rounded-lg bg-sunken">
        {src && kind === "image" ? (
          <img src={src} alt={media?.alt ?? ""} className="size-full object-cover" />
        ) : src ? (
          // Muted, and only its first frame fetched until the writer plays it.
          <video
            src={src}
            preload="metadata"
            controls
            muted
            onLoadedMetadata={(e) => {
              const length = e.currentTarget.duration;
              if (Number.isFinite(length) && length > 0) onDuration?.(Math.round(length));
            }}
            className="size-full bg-black object-contain"
          />
        ) : (
          <Film aria-hidden="true" className="size-8 text-ink-subtle" />
        )}
      </div>
      {value ? <MediaName value={value} /> : <p className="text-sm text-ink-muted">None chosen</p>}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={onChoose}>
          {value ? "Replace…" : "Choose…"}
        </Button>
        {value ? (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            Remove
          </Button>
        ) : null}
      </div>
    </div>
  );
}
