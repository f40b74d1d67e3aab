import { Link } from "react-router";
import { PLAN_BADGE_TEXT, planBadge } from "../../../core/index.ts";
import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/subscription");

export default function Subscription() {
  const { user } = useAuth();
  const badge = planBadge(user.pricingTier, user.accountType);
  return (
    <FeatureScreen
      path="/subscription"
      purpose="Your plan decides which articles, courses, videos and tools you can open. This is where you see it and, soon, change it."
      coming="upgrading, downgrading and cancelling online, invoices and renewal dates."
    >
      <Panel
        title="Current plan"
        action={
          <Link to="/pricing" className={buttonClass("secondary", "sm")}>
            Compare plans
          </Link>
        }
      >
        <p className="mb-4 text-3xl font-semibold tracking-tight text-ink">{user.pricingTier}</p>
        <KeyValueList
          rows={[
            ["Badge", badge ? PLAN_BADGE_TEXT[badge] : "—"],
            ["Account type", user.accountType ?? "individual"],
            ["Subscription status", user.customAttributes.subscriptionStatus ?? "—"],
            ["Organisation", user.customAttributes.orgName ?? "—"],
          ]}
        />
      </Panel>
    </FeatureScreen>
  );
}
