/**
 * The course editor's completion rule: the share of lessons a reader must complete (1..100 %) and
 * optional minutes of reading on the course and its lessons before the certificate is issued.
 * Reads and saves GET/PUT /api/courses/{id}/completion-rule; the server checks who may change it.
 */
import { Award } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import type { CourseRule } from "../../../server/modules/learning/learning.schemas.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { ApiError, api } from "../../lib/api.ts";

type Load = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; rule: CourseRule };

export function CompletionRulePanel({ courseId }: { courseId: string }) {
  const path = `/api/courses/${encodeURIComponent(courseId)}/completion-rule`;
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [percent, setPercent] = useState("100");
  const [minutes, setMinutes] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .get<CourseRule>(path)
      .then((rule) => {
        if (!live) return;
        setLoad({ state: "ready", rule });
        setPercent(String(rule.minLessonsPercent));
        setMinutes(rule.minSeconds ? String(Math.round(rule.minSeconds / 60)) : "");
      })
      .catch((error: unknown) => {
        if (live)
          setLoad({ state: "error", message: error instanceof ApiError ? error.message : String(error) });
      });
    return () => {
      live = false;
    };
  }, [path]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setSaved(null);
    const p = Number(percent);
    const m = minutes.trim() === "" ? null : Number(minutes);
    const local: Record<string, string> = {};
    if (!Number.isInteger(p) || p < 1 || p > 100)
      local.minLessonsPercent = "Enter a whole number from 1 to 100.";
    if (m !== null && (!Number.isInteger(m) || m < 0 || m > 16_000))
      local.minSeconds = "Enter whole minutes (0 or more), or leave empty.";
    if (Object.keys(local).length > 0) return setErrors(local);
    setSaving(true);
    try {
      const rule = await api.put<CourseRule>(path, {
        minLessonsPercent: p,
        minSeconds: m === null || m === 0 ? null : m * 60,
      });
      setLoad({ state: "ready", rule });
      setSaved("Saved. The rule applies from the next lesson a reader completes.");
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.field).length > 0) setErrors({ ...error.field });
      else setErrors({ form: error instanceof ApiError ? error.message : "Could not save the rule." });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="completion-rule-title" className="rounded-xl border border-line p-4">
      <h2 id="completion-rule-title" className="mb-1 flex items-center gap-2 text-sm font-semibold text-ink">
        <Award aria-hidden="true" className="size-4 text-accent-text" />
        Completion and certificate
      </h2>
      <p className="mb-3 text-xs text-ink-muted">
        A reader who meets this rule gets a certificate with a public verification link. Without a rule, every
        lesson must be completed.
      </p>
      {load.state === "loading" ? <p className="text-sm text-ink-muted">Loading the rule…</p> : null}
      {load.state === "error" ? <p className="text-sm text-danger-text">{load.message}</p> : null}
      {load.state === "ready" ? (
        <form onSubmit={submit} className="space-y-3" noValidate>
          <Field
            label="Lessons to complete (%)"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
            error={errors.minLessonsPercent}
          />
          <Field
            label="Minimum reading time (minutes)"
            optional
            type="number"
            inputMode="numeric"
            min={0}
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            hint="Time spent on the course and its lessons."
            error={errors.minSeconds}
          />
          {errors.form ? <p className="text-sm text-danger-text">{errors.form}</p> : null}
          <div className="flex items-center gap-3">
            <Button type="submit" size="sm" disabled={saving} className="shrink-0 whitespace-nowrap">
              {saving ? "Saving…" : "Save rule"}
            </Button>
            <p aria-live="polite" className="text-xs text-ok-text">
              {saved ?? ""}
            </p>
          </div>
        </form>
      ) : null}
    </section>
  );
}
