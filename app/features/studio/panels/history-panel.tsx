import { History, RotateCcw } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { settle } from "../../../lib/api.ts";
import { DiffView } from "./diff-view.tsx";
import { LocalTime } from "./local-time.tsx";
import { StateBadge } from "./state-badge.tsx";
import { history, diff as loadDiff, versions as loadVersions, restore } from "./studio-calls.ts";
import type { ItemPanelProps, VersionDiff, VersionSummary, WorkflowEvent } from "./types.ts";
import { compactSelectClass } from "./ui.ts";
import { eventVerb } from "./workflow-actions.ts";

type Compare = { from: number; to: number | "current" };

/**
 * The newest saved version: the item's current content. (The item's own `version` counts workflow
 * steps too, which change no content, so it may be higher than any saved version.)
 */
export function latestVersion(list: readonly VersionSummary[]): number | null {
  return list.reduce<number | null>((max, v) => (max === null || v.version > max ? v.version : max), null);
}

/** The pair compared first: the version before the latest against the current content. */
export function defaultCompare(list: readonly VersionSummary[]): Compare | null {
  const latest = latestVersion(list);
  const older = list.filter((v) => v.version !== latest).sort((a, b) => b.version - a.version)[0];
  return older ? { from: older.version, to: "current" } : null;
}

function useHistory(id: string, version: number) {
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [events, setEvents] = useState<WorkflowEvent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: every new version is a new history entry
  useEffect(() => {
    const abort = new AbortController();
    Promise.all([loadVersions(id, abort.signal), history(id, abort.signal)]).then(
      ([v, e]) => {
        setVersions(v);
        setEvents(e);
        setError(null);
      },
      (e: unknown) => {
        if (!abort.signal.aborted)
          setError(e instanceof Error ? e.message : "The history could not be loaded.");
      },
    );
    return () => abort.abort();
  }, [id, version]);
  return { versions, events, error };
}

/**
 * Every saved version (author, time, note) with a diff between any two and "Restore this version",
 * and the workflow events (who did what, when, with the reviewer's notes).
 */
export function HistoryPanel({ item, onItemChange, hasUnsavedChanges, saveNow }: ItemPanelProps) {
  const { versions, events, error } = useHistory(item.id, item.version);
  const [compare, setCompare] = useState<Compare | null>(null);
  const [diff, setDiff] = useState<VersionDiff | null>(null);
  const [diffError, setDiffError] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<VersionSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [restoreError, setRestoreError] = useState<string | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const headingId = useId();
  const fromId = useId();
  const toId = useId();

  const pair = compare ?? (versions ? defaultCompare(versions) : null);
  const latest = versions ? latestVersion(versions) : null;

  const from = pair?.from;
  const to = pair?.to;
  // biome-ignore lint/correctness/useExhaustiveDependencies: "current" is a new text after each save
  useEffect(() => {
    if (from === undefined || to === undefined) return;
    const abort = new AbortController();
    setDiffError(null);
    loadDiff(item.id, from, to, abort.signal).then(setDiff, (e: unknown) => {
      if (!abort.signal.aborted)
        setDiffError(e instanceof Error ? e.message : "The difference could not be loaded.");
    });
    return () => abort.abort();
  }, [item.id, from, to, item.version]);

  async function confirmRestore() {
    if (!restoring) return;
    setBusy(true);
    setRestoreError(null);
    try {
      let version = item.version;
      if (hasUnsavedChanges) {
        // Saved first, so the text being replaced stays in the history.
        const saved = await saveNow();
        if (!saved) {
          setRestoreError("Your changes could not be saved, so the version was not restored.");
          return;
        }
        version = saved.version;
      }
      const result = await settle(restore(item.id, restoring.version, version));
      if (!result.ok) {
        setRestoreError(result.error.message);
        return;
      }
      setRestored(`Version ${restoring.version} restored as version ${result.data.version}.`);
      setCompare(null);
      onItemChange(result.data);
    } finally {
      setBusy(false);
      setRestoring(null);
    }
  }

  const options = versions ?? [];

  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-6">
      <h2 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-ink">
        <History aria-hidden="true" className="size-4 text-ink-subtle" />
        History
      </h2>
      {error ? (
        <Notice tone="danger" role="alert" title="The history could not be loaded">
          {error}
        </Notice>
      ) : null}
      {restoreError ? (
        <Notice tone="danger" role="alert" title="Not restored">
          {restoreError}
        </Notice>
      ) : null}
      {restored ? (
        <Notice tone="ok" role="status">
          {restored}
        </Notice>
      ) : null}

      <div>
        <h3 className="mb-2 text-xs font-semibold uppercase tracking-wider text-ink-subtle">Versions</h3>
        {versions === null && !error ? <p className="text-sm text-ink-muted">Loading…</p> : null}
        {versions?.length === 0 ? <p className="text-sm text-ink-muted">No saved versions yet.</p> : null}
        <ol className="divide-y divide-line rounded-lg border border-line">
          {options.map((v) => (
            <li
              key={v.version}
              className="flex flex-wrap items-start justify-between gap-2 px-3 py-2.5 text-sm"
            >
              <div className="min-w-0">
                <p className="font-medium text-ink">
                  Version {v.version}
                  {v.version === latest ? <span className="ml-2 text-xs text-ok-text">current</span> : null}
                </p>
                <p className="text-xs text-ink-subtle">
                  {v.authorName ?? "Unknown author"} · <LocalTime iso={v.createdAt} />
                </p>
                {v.note ? <p className="mt-0.5 text-xs text-ink-muted">{v.note}</p> : null}
              </div>
              {v.version !== latest ? (
                <div className="flex shrink-0 gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setCompare({ from: v.version, to: "current" })}
                    aria-label={`Compare version ${v.version} with the current version`}
                  >
                    Compare
                  </Button>
                  <Button variant="secondary" size="sm" onClick={() => setRestoring(v)} disabled={busy}>
                    <RotateCcw aria-hidden="true" className="size-3.5" />
                    Restore this version
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      </div>

      {options.length > 1 ? (
        <div className="space-y-3">
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor={fromId} className="mb-1 block text-xs font-medium text-ink">
                Compare version
              </label>
              <select
                id={fromId}
                value={pair?.from ?? ""}
                onChange={(e) => setCompare({ from: Number(e.target.value), to: pair?.to ?? "current" })}
                className={compactSelectClass}
              >
                {options.map((v) => (
                  <option key={v.version} value={v.version}>
                    Version {v.version}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={toId} className="mb-1 block text-xs font-medium text-ink">
                with
              </label>
              <select
                id={toId}
                value={String(pair?.to ?? "current")}
                onChange={(e) =>
                  setCompare({
                    from: pair?.from ?? options[options.length - 1]!.version,
                    to: e.target.value === "current" ? "current" : Number(e.target.value),
                  })
                }
                className={compactSelectClass}
              >
                <option value="current">Current version</option>
                {options.map((v) => (
                  <option key={v.version} value={v.version}>
                    Version {v.version}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {diffError ? (
            <Notice tone="danger" role="alert">
              {diffError}
            </Notice>
          ) : diff ? (
            <DiffView diff={diff} />
          ) : null}
        </div>
      ) : null}

      <div>
        <h3 className="mb-2 text-xs font-semibold uppercase tracking-wider text-ink-subtle">Workflow</h3>
        {events?.length === 0 ? <p className="text-sm text-ink-muted">No workflow steps yet.</p> : null}
        <ol className="space-y-3">
          {(events ?? []).map((e) => (
            <li key={e.id} className="text-sm">
              <p className="flex flex-wrap items-center gap-2 text-ink">
                <span className="font-medium">{eventVerb(e.action)}</span>
                <StateBadge state={e.to} />
              </p>
              <p className="text-xs text-ink-subtle">
                {e.actorName ?? (e.action === "auto_publish" ? "Automatically" : "Unknown")} ·{" "}
                <LocalTime iso={e.at} />
                {e.action === "schedule" && e.publishedAt ? (
                  <>
                    {" "}
                    · for <LocalTime iso={e.publishedAt} />
                  </>
                ) : null}
              </p>
              {e.notes ? (
                <blockquote className="mt-1 whitespace-pre-wrap border-l-2 border-warn-line pl-3 text-ink-muted">
                  {e.notes}
                </blockquote>
              ) : null}
            </li>
          ))}
        </ol>
      </div>

      <ConfirmDialog
        open={restoring !== null}
        title={restoring ? `Restore version ${restoring.version}?` : ""}
        confirmLabel="Restore this version"
        busy={busy}
        onConfirm={() => void confirmRestore()}
        onClose={() => !busy && setRestoring(null)}
      >
        {restoring
          ? `The content of version ${restoring.version} ("${restoring.title}") becomes a new version. Nothing is lost: the current version stays in the history. The workflow state does not change.`
          : null}
      </ConfirmDialog>
    </section>
  );
}
