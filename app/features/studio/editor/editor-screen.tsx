/**
 * The editor of one item (/create for a new one, /content/<id>/edit): Markdown with a toolbar and
 * a live preview, the metadata groups, saving (explicit, and by itself for unpublished items),
 * the leave-page warning and the stale-save dialog. The rules are in save-state.ts and
 * editor-fields.ts; the studio's panels and media picker come from the route (`EditorParts`).
 */
import { ExternalLink, RotateCcw } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useBlocker, useNavigate } from "react-router";
import { WORKFLOW_STATE_LABELS } from "../../../../core/index.ts";
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { cx } from "../../../components/ui/cx.ts";
import { ApiError, api } from "../../../lib/api.ts";
import {
  type EditorFields,
  emptyFields,
  type FieldErrors,
  fieldsFromItem,
  sameFields,
  serverFieldErrors,
  toPayload,
  validateFields,
} from "./editor-fields.ts";
import type { EditorOptions } from "./editor-options.ts";
import type { EditorParts } from "./editor-panels.tsx";
import { MarkdownEditor, type MarkdownEditorHandle } from "./markdown-editor.tsx";
import { MetadataForm } from "./metadata-form.tsx";
import { PreviewPane } from "./preview-pane.tsx";
import {
  AUTOSAVE_DELAY_MS,
  afterEdit,
  autosaves,
  needsLeaveWarning,
  type SaveStatus,
  shouldAutosave,
  statusText,
} from "./save-state.ts";
import { type EditorAction, shortcutFor, usesCommandKey } from "./shortcuts.ts";
import { SlugField } from "./slug-field.tsx";
import { slugify } from "./slugify.ts";
import { StaleDialog } from "./stale-dialog.tsx";
import { EditorToolbar } from "./toolbar.tsx";
import { usePreview } from "./use-preview.ts";

export interface EditorScreenProps {
  /** null on /create. */
  item: StudioItem | null;
  options: EditorOptions;
  /** This site's origin (the search and social card previews). */
  origin: string;
  /** Edits carried over from /create when the first save moved here (typed while it was saving). */
  carried?: EditorFields | null;
  /** The studio's panels and media picker, composed by the route. */
  studio: EditorParts;
}

/**
 * The state the /create screen hands to the new item's address: edits typed while the first save
 * was under way, for the version that save made (a reload after later saves ignores them).
 */
export interface CarriedEdits {
  carried: EditorFields;
  version: number;
}

const editUrl = (id: string) => `/content/${encodeURIComponent(id)}/edit`;

export function EditorScreen({ item: initialItem, options, origin, carried, studio }: EditorScreenProps) {
  const { MediaPicker } = studio;
  const navigate = useNavigate();
  const editor = useRef<MarkdownEditorHandle>(null);
  const [item, setItem] = useState<StudioItem | null>(initialItem);
  /** The form as last saved (null before the first save): what "unsaved changes" compares with. */
  const [saved, setSaved] = useState<EditorFields | null>(() =>
    initialItem ? fieldsFromItem(initialItem) : null,
  );
  const [fields, setFields] = useState<EditorFields>(() => carried ?? saved ?? emptyFields());
  const [slugByHand, setSlugByHand] = useState(initialItem !== null);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [showAllErrors, setShowAllErrors] = useState(false);
  const [status, setStatus] = useState<SaveStatus>({ kind: carried ? "dirty" : "clean" });
  const [staleOpen, setStaleOpen] = useState(false);
  const [loadingTheirs, setLoadingTheirs] = useState(false);
  /** This writer's text after loading another writer's version, kept on screen to copy. */
  const [keptText, setKeptText] = useState<string | null>(null);
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [picking, setPicking] = useState(false);

  const state = item?.state ?? null;
  const baseline = useMemo(() => saved ?? emptyFields(), [saved]);
  const dirty = !sameFields(fields, baseline);
  const clientErrors = useMemo(() => validateFields(fields), [fields]);
  const valid = Object.keys(clientErrors).length === 0;
  // Client checks show on fields the writer changed, and on all of them after a save attempt.
  const errors: FieldErrors = { ...serverErrors };
  for (const [name, problem] of Object.entries(clientErrors) as [keyof EditorFields, string][]) {
    if (showAllErrors || !sameFields({ ...baseline, [name]: fields[name] }, baseline))
      errors[name] ??= problem;
  }
  const preview = usePreview(fields.body);

  // What the callbacks read, current at call time (saves and timers outlive renders).
  const current = useRef({ fields, item, saved, status });
  current.current = { fields, item, saved, status };
  const leaving = useRef(false);
  const saving = useRef<Promise<StudioItem | null> | null>(null);

  /**
   * A panel's answer (a workflow step, a restore): the item as stored now. A restore brings other
   * text and fields, which replace the form (the panels save unsaved changes first).
   */
  const adoptItem = useCallback((next: StudioItem) => {
    setItem(next);
    const nextFields = fieldsFromItem(next);
    if (sameFields(nextFields, current.current.saved ?? emptyFields())) return;
    setSaved(nextFields);
    setFields(nextFields);
    editor.current?.replaceText(nextFields.body);
  }, []);

  const change = useCallback((patch: Partial<EditorFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setServerErrors((e) => {
      const next = { ...e };
      for (const name of Object.keys(patch)) delete next[name as keyof EditorFields];
      return next;
    });
  }, []);

  // Every change of the form (`fields`) moves a saved or failed status back to "unsaved". State is
  // set only when the status really moves, not on every keystroke: each keystroke in the body is a
  // synchronous render (CodeMirror's change listener runs in the input event), and an update
  // scheduled by this effect after each of them would keep React's nested-update count climbing
  // through a burst of keystrokes the browser delivers back to back, until React gives up with
  // "Maximum update depth exceeded" (#185) in the middle of the writer's typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of the form
  useEffect(() => {
    const shown = current.current.status;
    if (afterEdit(shown, dirty) === shown) return;
    setStatus((s) => afterEdit(s, dirty));
  }, [fields, dirty]);

  const save = useCallback((): Promise<StudioItem | null> => {
    if (saving.current) return saving.current;
    const run = async (): Promise<StudioItem | null> => {
      const { fields: sending, item: was, saved: base } = current.current;
      setShowAllErrors(true);
      const problems = validateFields(sending);
      if (Object.keys(problems).length > 0) {
        setStatus({ kind: "failed", reason: "check the fields marked in red" });
        return null;
      }
      setStatus({ kind: "saving" });
      try {
        if (!was) {
          const { item: created } = await api.post<{ item: StudioItem }>(
            "/api/content",
            toPayload(sending, null),
          );
          leaving.current = true;
          const latest = current.current.fields;
          const state: CarriedEdits | undefined = sameFields(latest, sending)
            ? undefined
            : { carried: latest, version: created.version };
          navigate(editUrl(created.id), { replace: true, state });
          return created;
        }
        const payload = toPayload(sending, base);
        if (Object.keys(payload).length === 0) {
          setStatus({ kind: "saved", at: Date.now() });
          return was;
        }
        const { item: updated } = await api.patch<{ item: StudioItem }>(
          `/api/content/${encodeURIComponent(was.id)}`,
          {
            version: was.version,
            ...payload,
          },
        );
        setItem(updated);
        setSaved(sending);
        setStatus(
          sameFields(current.current.fields, sending) ? { kind: "saved", at: Date.now() } : { kind: "dirty" },
        );
        return updated;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === "STALE_VERSION") {
          setStatus({ kind: "stale", message: error.message });
          setStaleOpen(true);
          return null;
        }
        if (error.status === 400 || error.status === 409) setServerErrors(serverFieldErrors(error.field));
        setStatus({ kind: "failed", reason: error.message.replace(/\.$/, "") });
        return null;
      }
    };
    saving.current = run().finally(() => {
      saving.current = null;
    });
    return saving.current;
  }, [navigate]);

  // Autosave: unpublished items, AUTOSAVE_DELAY_MS after the last change. The timer restarts on
  // every change of the form (`fields`), which is what "after typing stops" means.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `fields` restarts the timer
  useEffect(() => {
    if (!shouldAutosave({ state, dirty, valid, status })) return;
    const timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fields, state, dirty, valid, status, save]);

  // The leave-page warning: closing the tab, and navigating inside the app.
  const warn = needsLeaveWarning(dirty, status);
  useEffect(() => {
    if (!warn) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [warn]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      warn && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );

  // Ctrl/⌘+S anywhere on the screen (the body's editor handles its own).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if (shortcutFor(e, usesCommandKey(navigator.platform))?.action !== "save") return;
      e.preventDefault();
      void save();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [save]);

  function onAction(action: EditorAction) {
    if (action === "save") void save();
    else if (action === "image") setPicking(true);
    else editor.current?.command(action);
  }

  async function loadTheirs() {
    const mine = current.current;
    if (!mine.item) return;
    setLoadingTheirs(true);
    try {
      const { item: theirs } = await api.get<{ item: StudioItem }>(
        `/api/studio/content/${encodeURIComponent(mine.item.id)}`,
      );
      const theirFields = fieldsFromItem(theirs);
      setKeptText(mine.fields.body);
      setItem(theirs);
      setSaved(theirFields);
      setFields(theirFields);
      editor.current?.replaceText(theirFields.body);
      setServerErrors({});
      setStatus({ kind: "clean" });
      setStaleOpen(false);
    } catch (error) {
      setStatus({
        kind: "stale",
        message: `Their version could not be loaded: ${error instanceof Error ? error.message : "try again"}`,
      });
    } finally {
      setLoadingTheirs(false);
    }
  }

  async function copyMine(text = current.current.fields.body): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }

  const published = state === "published";
  const words = statusText(status, state);
  const canRetry = status.kind === "failed";

  return (
    <div className="space-y-6">
      <header className="flex flex-col gap-3 border-b border-line pb-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight text-ink">
            {item ? "Edit item" : "New item"}
            {state ? (
              <span className="rounded-full border border-line bg-sunken px-2.5 py-0.5 text-xs font-medium text-ink-muted">
                {WORKFLOW_STATE_LABELS[state]}
              </span>
            ) : null}
          </h1>
          <p
            aria-live="polite"
            className={cx(
              "mt-1 flex flex-wrap items-center gap-2 text-sm",
              status.kind === "failed" || status.kind === "stale" ? "text-danger-text" : "text-ink-muted",
            )}
          >
            <span data-testid="save-status">{words}</span>
            {canRetry ? (
              <Button size="sm" variant="secondary" onClick={() => void save()}>
                <RotateCcw className="size-3.5" aria-hidden />
                Retry
              </Button>
            ) : null}
            {status.kind === "stale" && !staleOpen ? (
              <Button size="sm" variant="secondary" onClick={() => setStaleOpen(true)}>
                What now?
              </Button>
            ) : null}
          </p>
          {published ? (
            <p className="mt-1 text-sm text-warn-text">
              Published: saving makes your changes live at once. Nothing is saved until you choose Save.
            </p>
          ) : item ? null : (
            <p className="mt-1 text-sm text-ink-muted">
              Save once to create the draft; after that it saves by itself.
            </p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {item && published ? (
            <a
              href={item.publicUrl}
              target="_blank"
              rel="noreferrer"
              className="inline-flex h-10 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-ink-muted hover:bg-sunken hover:text-ink"
            >
              <ExternalLink className="size-4" aria-hidden />
              View page
            </a>
          ) : null}
          <Button onClick={() => void save()} disabled={status.kind === "saving"}>
            {item ? (published ? "Save and publish changes" : "Save") : "Save draft"}
          </Button>
        </div>
      </header>

      <section aria-label="Body" className="space-y-3">
        <label className="block">
          <span className="sr-only">Title</span>
          <input
            value={fields.title}
            onChange={(e) => {
              const title = e.target.value;
              change(slugByHand ? { title } : { title, slug: slugify(title) });
            }}
            placeholder="Title"
            aria-label="Title"
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? "editor-title-error" : undefined}
            className="w-full rounded-lg border border-transparent bg-transparent px-1 py-1 text-2xl font-semibold tracking-tight text-ink placeholder:text-ink-subtle hover:border-line focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-invalid:border-danger-text"
          />
          {errors.title ? (
            <span id="editor-title-error" className="mt-1 block text-xs text-danger-text">
              {errors.title}
            </span>
          ) : null}
        </label>

        <div
          role="tablist"
          aria-label="Editor view"
          className="flex gap-1 rounded-lg bg-sunken p-1 lg:hidden"
        >
          {(["write", "preview"] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              onClick={() => setTab(t)}
              className={cx(
                "h-8 flex-1 rounded-md text-sm font-medium",
                tab === t ? "bg-elevated text-ink shadow-sm" : "text-ink-muted hover:text-ink",
              )}
            >
              {t === "write" ? "Write" : "Preview"}
            </button>
          ))}
        </div>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <div className={cx("flex min-w-0 flex-col", tab === "preview" && "hidden lg:flex")}>
            <EditorToolbar onAction={onAction} />
            <MarkdownEditor
              ref={editor}
              value={fields.body}
              onChange={(body) => change({ body })}
              onAction={onAction}
              label="Body (Markdown)"
              invalid={Boolean(errors.body)}
              describedBy={errors.body ? "editor-body-error" : undefined}
            />
            {errors.body ? (
              <p id="editor-body-error" className="mt-1.5 text-xs text-danger-text">
                {errors.body}
              </p>
            ) : null}
            {keptText !== null ? (
              <KeptText
                text={keptText}
                onCopy={() => copyMine(keptText)}
                onDismiss={() => setKeptText(null)}
              />
            ) : null}
          </div>
          <div className={cx("min-w-0", tab === "write" && "hidden lg:block")}>
            <PreviewPane state={preview} title={fields.title} />
          </div>
        </div>
      </section>

      {item
        ? studio.panels({
            panel: { item, onItemChange: adoptItem, hasUnsavedChanges: dirty, saveNow: save },
            parts: { item, fields, onFieldsChange: change },
          })
        : null}

      <MetadataForm
        fields={fields}
        errors={errors}
        onChange={change}
        options={options}
        origin={origin}
        lastReviewedAt={item?.lastReviewedAt ?? null}
        slugField={
          <SlugField
            slug={fields.slug}
            error={errors.slug}
            itemId={item?.id ?? null}
            savedSlug={saved?.slug ?? null}
            published={published}
            onChange={(slug, byHand) => {
              setSlugByHand(byHand);
              change({ slug });
            }}
          />
        }
      />

      {picking ? (
        <MediaPicker
          kind="image"
          onClose={() => setPicking(false)}
          onPick={(media) => {
            setPicking(false);
            editor.current?.insertImage(media.ref, media.alt ?? "");
          }}
        />
      ) : null}

      <StaleDialog
        open={staleOpen}
        message={status.kind === "stale" ? status.message : ""}
        busy={loadingTheirs}
        onLoadTheirs={() => void loadTheirs()}
        onCopyMine={() => copyMine()}
        onClose={() => setStaleOpen(false)}
      />

      <ConfirmDialog
        open={blocker.state === "blocked"}
        title="Leave without saving?"
        confirmLabel="Leave and lose changes"
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      >
        {autosaves(state)
          ? "Your latest changes are not saved yet. Stay a moment to let them save, or leave and lose them."
          : "Your changes are not saved. Stay and save them, or leave and lose them."}
      </ConfirmDialog>
    </div>
  );
}

function KeptText({
  text,
  onCopy,
  onDismiss,
}: {
  text: string;
  onCopy(): Promise<boolean>;
  onDismiss(): void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-4 rounded-lg border border-warn-line bg-warn-soft p-3">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-warn-text">Your text before you loaded their version</p>
        <div className="flex gap-2">
          <Button size="sm" variant="secondary" onClick={async () => setCopied(await onCopy())}>
            {copied ? "Copied" : "Copy my text"}
          </Button>
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      </div>
      <textarea
        readOnly
        value={text}
        aria-label="Your text before you loaded their version"
        className="h-40 w-full resize-y rounded-md border border-line bg-elevated p-2 font-mono text-xs text-ink"
      />
    </div>
  );
}
