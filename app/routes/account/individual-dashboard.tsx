import { Link, useSearchParams } from "react-router";
import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { loadInvitations } from "../../features/business/business.server.ts";
import { InvitationPanel } from "../../features/business/invitation-panel.tsx";
import { userContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/individual-dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/individual/dashboard");

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const claims = user.claims as Record<string, unknown>;
  const text = (key: string) => (typeof claims[key] === "string" ? (claims[key] as string) : null);
  return {
    ...(await loadInvitations(args)),
    plan: { orgName: text("custom:orgName"), status: text("custom:subscriptionStatus") ?? "none" },
  };
}

const UNLOCKS: Record<string, string[]> = {
  Visitor: ["Public pages and excerpts"],
  Free: ["Everything marked Free", "Your dashboard, profile and settings"],
  Basic: ["Everything in Free", "Content marked Basic", "Your personal reports"],
  Pro: ["Everything in Basic", "In-depth courses, tools and playbooks marked Pro"],
  Enterprise: ["Everything in Pro", "The full library, including Enterprise playbooks"],
};

export default function IndividualDashboard({ loaderData }: Route.ComponentProps) {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const token = params.get("invite");
  const { orgName, status } = loaderData.plan;
  return (
    <Screen
      path="/individual/dashboard"
      purpose="Your plan, what it unlocks, and any invitation to join an organisation."
    >
      <InvitationPanel
        token={loaderData.invite ? token : null}
        invite={loaderData.invite}
        pending={loaderData.pending}
      />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Panel title="Your plan">
          <KeyValueList
            className="mb-4"
            rows={[
              ["Plan", user.pricingTier],
              ["Subscription", status === "none" ? "No paid subscription" : status],
              ["Shared from", orgName ?? "— (your own plan)"],
            ]}
          />
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-subtle">
            What it unlocks
          </h3>
          <ul className="list-disc space-y-1 pl-5 text-sm text-ink">
            {(UNLOCKS[user.pricingTier] ?? UNLOCKS.Free)!.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {user.pricingTier !== "Enterprise" ? (
            <Link to="/pricing" className={buttonClass("secondary", "sm", "mt-4")}>
              Compare plans
            </Link>
          ) : null}
        </Panel>
        <Panel title="Your account">
          <KeyValueList
            className="mb-4"
            rows={[
              ["Name", user.fullName ?? user.username ?? "—"],
              ["E-mail", user.email ?? "—"],
            ]}
          />
          <ul className="grid gap-2 text-sm sm:grid-cols-2">
            {[
              { to: "/subscription", label: "Subscription and invoices" },
              { to: "/profile", label: "Profile and access details" },
              { to: "/settings", label: "Settings and security" },
              { to: "/dashboard", label: "Your learning dashboard" },
            ].map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="font-medium text-accent-text hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
    </Screen>
  );
}
