import { BellRing, LoaderCircle } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { settle } from "../../lib/api.ts";
import {
  KINDS,
  type NotificationKind,
  type NotificationPreferences,
  notificationsApi,
  SECTION_LABELS,
  type SectionFollow,
  sectionPath,
} from "./notifications-api.ts";

/**
 * The "Notifications" card of /settings: the three opt-in e-mail kinds (all off until turned on)
 * and the sections the reader follows, each with Unfollow. Every change is saved at once.
 */
export function NotificationsCard() {
  const [prefs, setPrefs] = useState<NotificationPreferences | null>(null);
  const [follows, setFollows] = useState<SectionFollow[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoadError(null);
    const [p, f] = await Promise.all([
      settle(notificationsApi.preferences()),
      settle(notificationsApi.follows()),
    ]);
    if (!p.ok) return setLoadError(p.error.message);
    if (!f.ok) return setLoadError(f.error.message);
    setPrefs(p.data.preferences);
    setFollows(f.data.follows);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (kind: NotificationKind, enabled: boolean) => {
    setBusy(kind);
    setError(null);
    setSaved(null);
    const result = await settle(notificationsApi.setPreference(kind, enabled));
    setBusy(null);
    if (!result.ok) return setError(result.error.message);
    setPrefs(result.data.preferences);
    setSaved(`Saved: ${KINDS.find((k) => k.kind === kind)?.label.toLowerCase()} ${enabled ? "on" : "off"}.`);
  };

  const unfollow = async (section: string) => {
    setBusy(`section:${section}`);
    setError(null);
    setSaved(null);
    const result = await settle(notificationsApi.unfollow(section));
    setBusy(null);
    if (!result.ok) return setError(result.error.message);
    setFollows(result.data.follows);
    setSaved(`Stopped following ${SECTION_LABELS[section] ?? section}.`);
  };

  return (
    <Panel title="Notifications">
      <p className="mb-4 text-sm text-ink-muted">
        E-mails are off until you turn them on. Every e-mail has a link to turn its kind off again.
      </p>
      {loadError ? (
        <Notice tone="danger" role="alert" title="Your notification settings could not be loaded.">
          <p>{loadError}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void load()}>
            Try again
          </Button>
        </Notice>
      ) : !prefs || !follows ? (
        <p className="flex items-center gap-2 text-sm text-ink-muted" role="status">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> Loading…
        </p>
      ) : (
        <div className="space-y-5">
          <ul className="divide-y divide-line">
            {KINDS.map(({ kind, label, description }) => (
              <li key={kind} className="flex items-start justify-between gap-4 py-3 first:pt-0">
                <div className="min-w-0 text-sm">
                  <p id={`notify-${kind}-label`} className="font-medium text-ink">
                    {label}
                  </p>
                  <p id={`notify-${kind}-description`} className="text-ink-muted">
                    {description}
                  </p>
                </div>
                <Switch
                  id={`notify-${kind}`}
                  checked={prefs[kind]}
                  busy={busy === kind}
                  disabled={busy === kind}
                  labelledBy={`notify-${kind}-label`}
                  describedBy={`notify-${kind}-description`}
                  onChange={(next) => void toggle(kind, next)}
                />
              </li>
            ))}
          </ul>
          <section aria-labelledby="followed-sections-heading">
            <h3 id="followed-sections-heading" className="text-sm font-semibold text-ink">
              Followed sections
            </h3>
            {follows.length === 0 ? (
              <p className="mt-1 text-sm text-ink-muted">
                You follow no sections yet. Use “Follow” at the top of a section, such as{" "}
                <Link to="/ai-news" className="text-accent-text underline-offset-2 hover:underline">
                  AI News
                </Link>
                .
              </p>
            ) : (
              <ul className="mt-2 divide-y divide-line rounded-lg border border-line">
                {follows.map((f) => (
                  <li key={f.section} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                    <Link to={sectionPath(f.section)} className="font-medium text-ink hover:underline">
                      {SECTION_LABELS[f.section] ?? f.section}
                    </Link>
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={busy === `section:${f.section}`}
                      aria-label={`Unfollow ${SECTION_LABELS[f.section] ?? f.section}`}
                      onClick={() => void unfollow(f.section)}
                    >
                      Unfollow
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {follows.length > 0 && !prefs.followed_sections ? (
              <p className="mt-2 flex items-center gap-1.5 text-xs text-ink-subtle">
                <BellRing aria-hidden="true" className="size-3.5" /> Turn on “New items in followed sections”
                to get e-mails about them.
              </p>
            ) : null}
          </section>
          {error ? (
            <Notice tone="danger" role="alert" title="Not saved">
              {error}
            </Notice>
          ) : null}
          <p className="sr-only" role="status">
            {saved ?? ""}
          </p>
          {saved ? <p className="text-xs text-ok-text">{saved}</p> : null}
        </div>
      )}
    </Panel>
  );
}
