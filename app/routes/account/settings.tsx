import { LogOut } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { SessionFacts } from "../../features/account/user-summary.tsx";
import { useAuth } from "../../features/auth/auth-context.tsx";
import { ThemeToggle } from "../../features/layout/theme.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/settings");

export default function Settings() {
  const { user, signOut } = useAuth();
  const [busy, setBusy] = useState(false);
  return (
    <FeatureScreen
      path="/settings"
      purpose="Security and preferences: your colour theme, your session, and soon your password and two-factor authentication."
      coming="changing your password, two-factor authentication (authenticator app or SMS codes, with backup codes) and a list of your signed-in devices."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Appearance">
          <p className="mb-3 text-sm text-ink-muted">
            Light, dark, or follow your system. Stored in this browser only.
          </p>
          <ThemeToggle />
        </Panel>
        <Panel title="Session">
          <SessionFacts user={user} />
          <Button
            variant="secondary"
            size="sm"
            className="mt-4"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void signOut();
            }}
          >
            <LogOut aria-hidden="true" className="size-4" />
            {busy ? "Signing out…" : "Sign out"}
          </Button>
        </Panel>
      </div>
    </FeatureScreen>
  );
}
