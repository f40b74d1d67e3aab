import { LoaderCircle, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { showToast } from "../../components/app-toaster.tsx";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import type { ClientUser } from "../../lib/session/auth-context.tsx";
import { formatWhen, SECURITY_LEVEL_HELP, SECURITY_LEVEL_TEXT } from "../../lib/session/security.ts";
import { checkSecurity, useSecurityContext } from "../../lib/session/security-monitor.tsx";
import type { SecurityLevel } from "../../lib/session/session-cache.ts";

const levelTone: Record<SecurityLevel, string> = {
  low: "border-warn-line bg-warn-soft text-warn-text",
  medium: "border-accent-line bg-accent-soft text-accent-text",
  high: "border-ok-line bg-ok-soft text-ok-text",
};

export function SecurityLevelBadge({ level }: { level: SecurityLevel | null }) {
  if (!level) return <span className="text-ink-muted">Not checked yet</span>;
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-full border px-2 py-px text-xs font-semibold",
        levelTone[level],
      )}
    >
      <ShieldCheck aria-hidden="true" className="size-3.5" />
      {SECURITY_LEVEL_TEXT[level]}
    </span>
  );
}

/** /settings 'Security': the level from the last server check, when it ran, and this session's limits. */
export function SecurityCard({ user }: { user: ClientUser }) {
  const security = useSecurityContext();
  const [checking, setChecking] = useState(false);
  const s = user.session;

  async function checkNow() {
    setChecking(true);
    const result = await checkSecurity();
    setChecking(false);
    if (result.kind === "unknown") {
      showToast("The security check is not available right now", {
        description: "Your session is still checked when you load a page.",
      });
    }
  }

  return (
    <Panel
      title="Security"
      action={
        <Button variant="ghost" size="sm" onClick={() => void checkNow()} disabled={checking}>
          {checking ? <LoaderCircle aria-hidden="true" className="spin size-4" /> : null}
          {checking ? "Checking…" : "Check now"}
        </Button>
      }
    >
      <div aria-live="polite">
        <KeyValueList
          rows={[
            ["Security level", <SecurityLevelBadge key="level" level={security?.level ?? null} />],
            ["Last checked", security ? formatWhen(security.checkedAt) : "—"],
            ["Signed in", formatWhen(s?.issuedAt)],
            ["Session ends by", formatWhen(s?.expiresAt)],
            ["Idle time-out", s ? `${Math.round(s.idleTimeoutMs / 60_000)} minutes without activity` : "—"],
          ]}
        />
      </div>
      {security?.level ? (
        <p className="mt-3 text-xs text-ink-subtle">{SECURITY_LEVEL_HELP[security.level]}</p>
      ) : null}
    </Panel>
  );
}
