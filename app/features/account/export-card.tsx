import { Download } from "lucide-react";
import { Panel } from "../../components/feature-screen.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { DeleteAccountCard } from "./delete-account-card.tsx";

/** /settings 'Your data': download everything stored about you (JSON). */
export function ExportCard() {
  return (
    <Panel title="Your data">
      <p className="mb-3 text-sm text-ink-muted">
        A JSON file with your profile, groups, subscriptions, sessions (without their tokens) and the security
        events about you.
      </p>
      <a href="/api/account/export" download className={buttonClass("secondary", "sm")}>
        <Download aria-hidden="true" className="size-4" />
        Download my data
      </a>
    </Panel>
  );
}

/** The two data cards of /settings: export, then deletion. */
export function AccountDataCards() {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <ExportCard />
      <DeleteAccountCard />
    </div>
  );
}
