/**
 * The media picker: a modal dialog with the writer's library (search, load more) and an upload
 * tab (file input or drag and drop, alt text for images, progress, cancel). Picking a library item
 * or finishing an upload calls `onPick`; the opener closes the picker (`onClose` is called for
 * Escape, the close button and the backdrop's Cancel).
 */
import { Captions, Film, LoaderCircle, Search, Upload, X } from "lucide-react";
import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { MediaItem } from "../../../../server/services.ts";
import { Button } from "../../../components/ui/button.tsx";
import { cx } from "../../../components/ui/cx.ts";
import { Field, inputClass } from "../../../components/ui/fields.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError } from "../../../lib/api.ts";
import { ACCEPT, formatBytes, listMedia, type PickableKind, uploadMedia } from "./media-client.ts";

export interface MediaPickerProps {
  kind: PickableKind;
  onPick(media: MediaItem): void;
  onClose(): void;
}

const TITLES: Record<PickableKind, string> = {
  image: "Choose an image",
  video: "Choose a video",
  captions: "Choose a captions file",
};

const NOUNS: Record<PickableKind, string> = { image: "images", video: "videos", captions: "caption files" };

const HINTS: Record<PickableKind, string> = {
  image: "PNG, JPEG, WebP or GIF, up to 10 MB.",
  video: "MP4 or WebM, up to 100 MB.",
  captions: "WebVTT (.vtt), up to 1 MB.",
};

type Tab = "library" | "upload";

export function MediaPicker({ kind, onPick, onClose }: MediaPickerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [tab, setTab] = useState<Tab>("library");
  const busyRef = useRef(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => opener?.focus?.();
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        // Escape during an upload would leave it running unseen: cancel it first.
        if (busyRef.current) e.preventDefault();
      }}
      className="m-auto flex max-h-[min(44rem,calc(100dvh-2rem))] w-[min(56rem,calc(100vw-1rem))] flex-col rounded-2xl border border-line bg-elevated p-0 text-ink shadow-2xl backdrop:bg-zinc-950/50 sm:w-[min(56rem,calc(100vw-2rem))]"
    >
      <div className="flex items-center justify-between gap-4 border-b border-line px-4 py-3 sm:px-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {TITLES[kind]}
        </h2>
        <Button variant="ghost" size="sm" aria-label="Close" onClick={() => ref.current?.close()}>
          <X aria-hidden="true" className="size-4" />
        </Button>
      </div>
      <div
        role="tablist"
        aria-label="Media source"
        className="flex gap-1 border-b border-line px-4 sm:px-6"
        onKeyDown={(e) => {
          // Arrow keys move between the two tabs (the tabs pattern); Tab moves into the panel.
          if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
          e.preventDefault();
          const next = tab === "library" ? "upload" : "library";
          setTab(next);
          document.getElementById(`${titleId}-${next}-tab`)?.focus();
        }}
      >
        {(["library", "upload"] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`${titleId}-${t}-tab`}
            aria-selected={tab === t}
            aria-controls={`${titleId}-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
            className={cx(
              "-mb-px border-b-2 px-3 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-focus",
              tab === t ? "border-accent text-ink" : "border-transparent text-ink-muted hover:text-ink",
            )}
          >
            {t === "library" ? "Library" : "Upload"}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${titleId}-${tab}`}
        aria-labelledby={`${titleId}-${tab}-tab`}
        className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6"
      >
        {tab === "library" ? (
          <Library kind={kind} onPick={onPick} onUpload={() => setTab("upload")} />
        ) : (
          <UploadPanel
            kind={kind}
            onUploaded={onPick}
            onBusy={(busy) => {
              busyRef.current = busy;
            }}
          />
        )}
      </div>
    </dialog>
  );
}

function Library({
  kind,
  onPick,
  onUpload,
}: {
  kind: PickableKind;
  onPick(media: MediaItem): void;
  onUpload(): void;
}) {
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState("");
  const [items, setItems] = useState<MediaItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "more">("loading");
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();

  // The search runs a moment after typing stops.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(query.trim()), 250);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    const controller = new AbortController();
    setState("loading");
    setError(null);
    listMedia({ kind, q: search }, controller.signal)
      .then((page) => {
        setItems(page.items);
        setCursor(page.nextCursor);
        setState("ready");
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setError(e instanceof ApiError ? e.message : "The library could not be loaded.");
        setState("ready");
      });
    return () => controller.abort();
  }, [kind, search]);

  const loadMore = async () => {
    if (!cursor) return;
    setState("more");
    try {
      const page = await listMedia({ kind, q: search, cursor });
      setItems((shown) => [...shown, ...page.items]);
      setCursor(page.nextCursor);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "More items could not be loaded.");
    }
    setState("ready");
  };

  return (
    <div className="space-y-4">
      <div className="relative">
        <label htmlFor={searchId} className="sr-only">
          Search {NOUNS[kind]}
        </label>
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
        />
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={`Search ${NOUNS[kind]} by name or alt text`}
          className={cx(inputClass, "pl-9")}
        />
      </div>
      {error ? (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      ) : null}
      {state === "loading" ? (
        <p role="status" className="flex items-center gap-2 py-8 text-sm text-ink-muted">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> Loading your {NOUNS[kind]}…
        </p>
      ) : items.length === 0 && !error ? (
        <div className="rounded-xl border border-dashed border-line-strong px-4 py-10 text-center text-sm text-ink-muted">
          <p>
            {search
              ? `No ${NOUNS[kind]} match “${search}”.`
              : `You have not uploaded any ${NOUNS[kind]} yet.`}
          </p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={onUpload}>
            <Upload aria-hidden="true" className="size-4" /> Upload one
          </Button>
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4">
          {items.map((media) => (
            <li key={media.id}>
              <MediaTile media={media} onPick={() => onPick(media)} />
            </li>
          ))}
        </ul>
      )}
      {cursor && state !== "loading" ? (
        <div className="flex justify-center">
          <Button variant="secondary" onClick={loadMore} disabled={state === "more"}>
            {state === "more" ? "Loading…" : "Load more"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function MediaTile({ media, onPick }: { media: MediaItem; onPick(): void }) {
  const name = media.fileName ?? media.alt ?? `${media.kind} ${media.id.slice(-6)}`;
  const details = [
    formatBytes(media.size),
    media.width && media.height ? `${media.width}×${media.height}` : null,
    new Date(media.createdAt).toLocaleDateString(undefined, { day: "numeric", month: "short" }),
  ].filter(Boolean);
  const Icon = media.kind === "captions" ? Captions : Film;
  return (
    <button
      type="button"
      onClick={onPick}
      className="group flex w-full flex-col overflow-hidden rounded-xl border border-line bg-surface text-left transition-colors hover:border-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
    >
      <span className="flex aspect-video w-full items-center justify-center overflow-hidden bg-sunken">
        {media.kind === "image" ? (
          <img
            src={media.url}
            alt={media.alt ?? ""}
            width={media.width ?? undefined}
            height={media.height ?? undefined}
            loading="lazy"
            className="size-full object-cover"
          />
        ) : (
          <Icon aria-hidden="true" className="size-8 text-ink-subtle" />
        )}
      </span>
      <span className="min-w-0 px-2.5 py-2">
        <span className="block truncate text-sm font-medium text-ink" title={name}>
          {name}
        </span>
        <span className="block text-xs text-ink-muted">{details.join(" · ")}</span>
      </span>
    </button>
  );
}

function UploadPanel({
  kind,
  onUploaded,
  onBusy,
}: {
  kind: PickableKind;
  onUploaded(media: MediaItem): void;
  onBusy(busy: boolean): void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [dragging, setDragging] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const inputId = useId();
  const hintId = useId();

  // An upload still running when the picker closes is cancelled.
  useEffect(() => () => controller.current?.abort(), []);

  const choose = (chosen: File | null | undefined) => {
    setFile(chosen ?? null);
    setError(null);
    setFieldErrors({});
  };

  const onDrop = (e: DragEvent<HTMLLabelElement>) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError("Choose a file to upload.");
      return;
    }
    if (kind === "image" && !alt.trim()) {
      setFieldErrors({ alt: "Describe the image for readers who cannot see it." });
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    onBusy(true);
    setError(null);
    setFieldErrors({});
    setProgress({ sent: 0, total: file.size });
    try {
      const media = await uploadMedia(file, {
        alt: kind === "image" ? alt.trim() : undefined,
        signal: abort.signal,
        onProgress: (sent, total) => setProgress({ sent, total }),
      });
      onUploaded(media);
    } catch (e) {
      if (e instanceof ApiError) {
        setError(e.message);
        setFieldErrors(e.field.alt ? { alt: e.field.alt } : {});
      } else if (!abort.signal.aborted) {
        setError("The upload failed. Please try again.");
      }
    } finally {
      controller.current = null;
      onBusy(false);
      setProgress(null);
    }
  };

  const uploading = progress !== null;
  const percent = progress && progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0;

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <label
        htmlFor={inputId}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cx(
          "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors",
          dragging ? "border-accent bg-accent-soft" : "border-line-strong bg-surface hover:bg-sunken",
          uploading && "pointer-events-none opacity-60",
        )}
      >
        <Upload aria-hidden="true" className="size-6 text-ink-subtle" />
        <span className="text-sm font-medium">{file ? file.name : "Drop a file here, or choose one"}</span>
        <span id={hintId} className="text-xs text-ink-muted">
          {file ? formatBytes(file.size) : HINTS[kind]}
        </span>
        <input
          id={inputId}
          type="file"
          accept={ACCEPT[kind]}
          aria-describedby={hintId}
          disabled={uploading}
          onChange={(e) => choose(e.target.files?.[0])}
          className="sr-only"
        />
      </label>
      {kind === "image" ? (
        <Field
          label="Alt text"
          value={alt}
          onChange={(e) => setAlt(e.target.value)}
          maxLength={500}
          required
          disabled={uploading}
          error={fieldErrors.alt}
          hint="What the image shows, for readers who cannot see it."
        />
      ) : null}
      {error ? (
        <Notice tone="danger" role="alert" title="The file was not uploaded">
          {error}
        </Notice>
      ) : null}
      {uploading ? (
        <div className="space-y-1.5">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 overflow-hidden rounded-full bg-sunken"
          >
            <div
              className="h-full rounded-full bg-accent transition-[width]"
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="text-xs text-ink-muted" aria-live="polite">
            {percent < 100
              ? `Uploading… ${formatBytes(progress.sent)} of ${formatBytes(progress.total)}`
              : "Checking the file…"}
          </p>
        </div>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {uploading ? (
          <Button variant="secondary" onClick={() => controller.current?.abort()}>
            Cancel upload
          </Button>
        ) : null}
        <Button type="submit" disabled={uploading || !file}>
          {uploading ? "Uploading…" : "Upload"}
        </Button>
      </div>
    </form>
  );
}
