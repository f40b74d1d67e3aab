/**
 * /super-admin/system-config: the system settings and feature flags (stored in the database,
 * live in every app process within about a second) and, read-only, what the environment decides.
 * Platform admins see it; only the platform owner changes it (PATCH /api/admin/settings with the
 * version read, field errors per key, a conflict when someone else saved first).
 */
import { useEffect, useId, useMemo, useState } from "react";
import { useRevalidator } from "react-router";
import type { SettingDefinition, SettingValue } from "../../../core/index.ts";
import type { SettingsView } from "../../../server/modules/settings/settings.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import { inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { Switch } from "../../components/ui/switch.tsx";

type Values = Record<string, SettingValue>;
type Outcome =
  | { kind: "idle" }
  | { kind: "saved"; count: number }
  | { kind: "conflict"; message: string }
  | { kind: "error"; message: string };

const valuesOf = (view: SettingsView): Values =>
  Object.fromEntries(view.settings.map((s) => [s.key, s.value]));

function limitsOf(def: SettingDefinition): string | null {
  if (def.type === "integer") return `A whole number from ${def.min} to ${def.max}.`;
  if (def.type === "enum") return `One of: ${def.options.join(", ")}.`;
  if (def.type === "text") return `At most ${def.maxLength} characters.`;
  return null;
}

function SettingRow({
  def,
  value,
  stored,
  error,
  disabled,
  onChange,
}: {
  def: SettingDefinition;
  value: SettingValue;
  stored: SettingsView["settings"][number] | undefined;
  error: string | undefined;
  disabled: boolean;
  onChange(next: SettingValue): void;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const descId = `${id}-desc`;
  const errorId = `${id}-error`;
  const limits = limitsOf(def);
  const described = [descId, error ? errorId : null].filter(Boolean).join(" ");
  const origin = stored?.isDefault
    ? "Default"
    : stored?.updatedAt
      ? `Changed ${new Date(stored.updatedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`
      : null;
  const control =
    def.type === "boolean" ? (
      <Switch
        id={id}
        checked={value === true}
        disabled={disabled}
        onChange={onChange}
        labelledBy={labelId}
        describedBy={described}
      />
    ) : def.type === "enum" ? (
      <select
        id={id}
        aria-labelledby={labelId}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        disabled={disabled}
        className={cx(inputClass, "sm:w-56")}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      >
        {def.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    ) : (
      <input
        id={id}
        aria-labelledby={labelId}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        disabled={disabled}
        className={cx(inputClass, "sm:w-56")}
        type={def.type === "integer" ? "number" : "text"}
        min={def.type === "integer" ? def.min : undefined}
        max={def.type === "integer" ? def.max : undefined}
        step={def.type === "integer" ? 1 : undefined}
        maxLength={def.type === "text" ? def.maxLength : undefined}
        value={String(value)}
        onChange={(e) => onChange(def.type === "integer" ? Number(e.target.value) : e.target.value)}
      />
    );
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p id={labelId} className="text-sm font-medium text-ink">
          {def.label}{" "}
          <code className="ml-1 rounded bg-sunken px-1.5 py-0.5 text-xs font-normal text-ink-muted">
            {def.key}
          </code>
        </p>
        <p id={descId} className="text-sm text-ink-muted">
          {def.description}
          {limits ? ` ${limits}` : ""}
          {origin ? <span className="mt-1 block text-xs text-ink-subtle">{origin}</span> : null}
        </p>
        {error ? (
          <p id={errorId} role="alert" className="text-xs text-danger-text">
            {error}
          </p>
        ) : null}
      </div>
      <div className="shrink-0">{control}</div>
    </li>
  );
}

export function SystemConfigView({ view: initial }: { view: SettingsView }) {
  const [view, setView] = useState(initial);
  const [draft, setDraft] = useState<Values>(() => valuesOf(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });
  const [saving, setSaving] = useState(false);
  const revalidator = useRevalidator();

  // A reload (after a conflict or a save) brings the loader's newer view.
  useEffect(() => {
    setView(initial);
    setDraft(valuesOf(initial));
  }, [initial]);

  const saved = useMemo(() => valuesOf(view), [view]);
  const changed = Object.keys(draft).filter((k) => draft[k] !== saved[k]);
  const readOnly = !view.canManage;
  const flags = view.catalogue.filter((d) => d.featureFlag);
  const others = view.catalogue.filter((d) => !d.featureFlag);

  const set = (key: string, value: SettingValue) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
    setOutcome({ kind: "idle" });
  };

  async function save() {
    setSaving(true);
    setOutcome({ kind: "idle" });
    try {
      const body: Record<string, unknown> = { version: view.version };
      for (const key of changed) body[key] = draft[key];
      const res = await fetch("/api/admin/settings", {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => null)) as
        | (SettingsView & { error?: undefined })
        | { error: { code: string; message: string; field?: Record<string, string> } }
        | null;
      if (res.ok && json && !json.error) {
        setView(json);
        setDraft(valuesOf(json));
        setErrors({});
        setOutcome({ kind: "saved", count: changed.length });
        revalidator.revalidate(); // the sidebar and the flags of this page follow at once
        return;
      }
      const error = json?.error;
      if (res.status === 409) {
        setOutcome({ kind: "conflict", message: error?.message ?? "Someone else changed the settings." });
      } else {
        setErrors(error?.field ?? {});
        setOutcome({
          kind: "error",
          message: error?.message ?? `The settings were not saved (${res.status}).`,
        });
      }
    } catch {
      setOutcome({ kind: "error", message: "The settings were not saved: the server could not be reached." });
    } finally {
      setSaving(false);
    }
  }

  const rows = (defs: readonly SettingDefinition[]) => (
    <ul className="divide-y divide-line">
      {defs.map((def) => (
        <SettingRow
          key={def.key}
          def={def}
          value={draft[def.key] ?? def.default}
          stored={view.settings.find((s) => s.key === def.key)}
          error={errors[def.key]}
          disabled={readOnly || saving}
          onChange={(v) => set(def.key, v)}
        />
      ))}
    </ul>
  );

  return (
    <div className="space-y-6">
      {readOnly ? (
        <Notice title="Read-only for you">
          Only the platform owner (app-owner) changes system settings. You see what is in effect now.
        </Notice>
      ) : null}
      <form
        className="space-y-6"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Panel title="Feature flags">{rows(flags)}</Panel>
        {others.length > 0 ? <Panel title="Settings">{rows(others)}</Panel> : null}
        {outcome.kind === "saved" ? (
          <Notice tone="ok" role="status" title="Saved">
            {outcome.count === 1 ? "The change is" : "The changes are"} in effect on this server now and on
            every other app process within a few seconds. Written to the audit log.
          </Notice>
        ) : null}
        {outcome.kind === "conflict" ? (
          <Notice tone="warn" role="alert" title="Someone else saved first">
            <p>{outcome.message}</p>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              className="mt-2"
              onClick={() => {
                setOutcome({ kind: "idle" });
                revalidator.revalidate();
              }}
            >
              Reload the settings
            </Button>
          </Notice>
        ) : null}
        {outcome.kind === "error" ? (
          <Notice tone="danger" role="alert" title="Not saved">
            {outcome.message}
          </Notice>
        ) : null}
        {readOnly ? null : (
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={saving || changed.length === 0}>
              {saving ? "Saving…" : "Save changes"}
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={saving || changed.length === 0}
              onClick={() => {
                setDraft(saved);
                setErrors({});
                setOutcome({ kind: "idle" });
              }}
            >
              Discard
            </Button>
            <span className="text-sm text-ink-muted">
              {changed.length === 0
                ? "No unsaved changes."
                : `${changed.length} unsaved ${changed.length === 1 ? "change" : "changes"}.`}
            </span>
          </div>
        )}
      </form>
      <Panel title="From the environment (read-only)">
        <p className="mb-3 text-sm text-ink-muted">
          Set at start-up by environment variables; change them in the deployment and restart. Secrets are
          never shown, only whether they are set.
        </p>
        <KeyValueList rows={view.environment.map((r) => [r.name, r.value])} />
      </Panel>
    </div>
  );
}
