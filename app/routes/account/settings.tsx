import { useState } from "react";
import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { ThemeToggle } from "../../components/theme.tsx";
import { ApiKeysCard } from "../../features/account/api-keys-card.tsx";
import { AccountDataCards } from "../../features/account/export-card.tsx";
import { MfaCard } from "../../features/account/mfa-card.tsx";
import { PasswordCard } from "../../features/account/password-card.tsx";
import { SecurityCard } from "../../features/account/security-card.tsx";
import { SessionsCard } from "../../features/account/sessions-card.tsx";
import { NotificationsCard } from "../../features/notifications/notifications-card.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/settings");

export default function Settings() {
  const { user } = useAuth();
  // A password change signs out the other devices: the sessions list is reloaded after it.
  const [sessionsKey, setSessionsKey] = useState(0);
  return (
    <Screen
      path="/settings"
      purpose="Security and preferences: your sessions and devices, e-mail notifications, your password, two-factor authentication, API keys, your data and your colour theme."
    >
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <SecurityCard user={user} />
          <Panel title="Appearance">
            <p className="mb-3 text-sm text-ink-muted">
              Light, dark, or follow your system. Stored in this browser only.
            </p>
            <ThemeToggle />
          </Panel>
        </div>
        <PasswordCard onChanged={() => setSessionsKey((k) => k + 1)} />
      </div>
      <NotificationsCard />
      <SessionsCard reloadKey={sessionsKey} />
      <AccountDataCards />
      <MfaCard />
      <ApiKeysCard />
    </Screen>
  );
}
