import { Lock, LogIn, Sparkles, UserPlus, UserRoundX } from "lucide-react";
import { Link } from "react-router";
import {
  formatPrice,
  includingPhrase,
  isFreeTier,
  parseTier,
  paywallCopy,
  plural,
  signInUrl,
  type Tier,
} from "../../../core/index.ts";
import type { ContentAccess } from "../../../server/services.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import type { PaywallOffer } from "./content-data.ts";

export type GatedAccess = Exclude<ContentAccess, { kind: "granted" }>;

export interface PaywallPanelProps {
  access: GatedAccess;
  /** Whether somebody is signed in (the 'Sign In' button is only offered to visitors). */
  signedIn: boolean;
  /** Where sign-in should return to, e.g. "/content/some-slug". */
  currentPath: string;
  /** The item's required roles, to explain a sign-in gate that is really a role gate. */
  rolesRequired?: string[];
  /** The cheapest plan that opens the item and what else it opens (tier gates). */
  offer?: PaywallOffer | null;
}

/** Where a visitor's "Upgrade" goes: sign in, then the checkout's review of the plan, then back here. */
export function visitorUpgradeUrl(planId: string, currentPath: string): string {
  return signInUrl(
    `/checkout?plan=${encodeURIComponent(planId)}&interval=month&returnTo=${encodeURIComponent(currentPath)}`,
  );
}

/**
 * The author-marked public preview of a locked item (the body before `<!-- more -->`, sanitized on
 * the server), fading out above the paywall. Nothing when there is none.
 */
export function PublicPreview({ html }: { html: string | null | undefined }) {
  if (!html) return null;
  return (
    <section aria-label="Preview" className="relative mb-6">
      <div className="prose-content max-h-[36rem] overflow-hidden" data-public-preview="">
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the markdown pipeline sanitizes the preview on the server */}
        <div dangerouslySetInnerHTML={{ __html: html }} />
      </div>
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 bottom-0 h-24 bg-gradient-to-b from-transparent to-surface"
      />
    </section>
  );
}

/** "Pro — $19/month" and "and 13 more Pro items, including the … course". */
function OfferLines({ offer }: { offer: PaywallOffer }) {
  const { plan } = offer;
  const tier = parseTier(plan.tier) ?? "Enterprise";
  return (
    <div className="mx-auto mt-4 max-w-md text-sm">
      <p className="font-semibold text-ink">
        {`${plan.name} — ${formatPrice(plan.monthlyPriceCents, plan.currency, "month")}`}
      </p>
      {offer.moreItems > 0 ? (
        <p className="mt-1 text-ink-muted">
          {`and ${plural(offer.moreItems, `more ${tier} item`, `more ${tier} items`)}${includingPhrase(offer.highlights)}`}
        </p>
      ) : null}
    </div>
  );
}

/** The upgrade: a signed-in reader's one click (POST /checkout); a visitor signs in first. */
function UpgradeActions({
  offer,
  label,
  signedIn,
  currentPath,
}: {
  offer: PaywallOffer | null | undefined;
  label: string;
  signedIn: boolean;
  currentPath: string;
}) {
  if (!offer) {
    return (
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to="/pricing" className={buttonClass("primary")}>
          <Sparkles aria-hidden="true" className="size-4" />
          {label}
        </Link>
        {signedIn ? null : <SignInButton currentPath={currentPath} />}
      </div>
    );
  }
  if (signedIn) {
    return (
      <div className="mt-6 flex flex-col items-center gap-3">
        {/* A plain form: it works before (and without) JavaScript. */}
        <form method="post" action="/checkout">
          <input type="hidden" name="planId" value={offer.plan.id} />
          <input type="hidden" name="interval" value="month" />
          <input type="hidden" name="returnTo" value={currentPath} />
          <button type="submit" className={buttonClass("primary")}>
            <Sparkles aria-hidden="true" className="size-4" />
            {label}
          </button>
        </form>
        <Link to="/pricing" className="text-sm font-medium text-accent-text hover:underline">
          Compare plans
        </Link>
      </div>
    );
  }
  return (
    <div className="mt-6 flex flex-col items-center gap-3">
      <div className="flex flex-wrap justify-center gap-3">
        <Link to={visitorUpgradeUrl(offer.plan.id, currentPath)} className={buttonClass("primary")}>
          <Sparkles aria-hidden="true" className="size-4" />
          {label}
        </Link>
        <SignInButton currentPath={currentPath} />
      </div>
      <p className="text-sm text-ink-muted">
        Already subscribed? Sign in to read it.{" "}
        <Link to="/pricing" className="font-medium text-accent-text hover:underline">
          See plans
        </Link>
      </p>
    </div>
  );
}

const ROLE_LABEL: Record<string, string> = {
  ContentManager: "content managers",
  AdminUser: "admins",
  Admin: "admins",
  SuperUser: "super admins",
  SuperAdmin: "super admins",
  Editor: "editors",
  ContentCreator: "content creators",
};

function rolesText(roles: string[]): string {
  const names = [...new Set(roles.map((r) => ROLE_LABEL[r] ?? r))];
  if (names.length <= 1) return names[0] ?? "specific roles";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function SignInButton({ currentPath }: { currentPath: string }) {
  return (
    <Link to={signInUrl(currentPath)} className={buttonClass("secondary")}>
      <LogIn aria-hidden="true" className="size-4" />
      Sign In
    </Link>
  );
}

/** The tier gate shown instead of a body the reader may not see (spec §2 Paywall panel). */
export function PaywallPanel({
  access,
  signedIn,
  currentPath,
  rolesRequired = [],
  offer = null,
}: PaywallPanelProps) {
  if (access.kind === "signin" && isFreeTier(access.requiredTier)) {
    // No plan is needed: the reader only has to sign in (and perhaps hold a role).
    return (
      <section
        aria-labelledby="gate-title"
        className="rounded-2xl border border-line bg-surface px-6 py-10 text-center sm:px-10"
      >
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-sunken text-ink-muted">
          <LogIn aria-hidden="true" className="size-6" />
        </div>
        <h2 id="gate-title" className="text-xl font-semibold text-ink">
          Sign In Required
        </h2>
        <p className="mx-auto mt-2 max-w-md text-ink-muted">
          {rolesRequired.length > 0
            ? `This content is only available to ${rolesText(rolesRequired)}. Sign in to continue.`
            : "Sign in to read this content. A free account is enough."}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to={signInUrl(currentPath)} className={buttonClass("primary")}>
            <LogIn aria-hidden="true" className="size-4" />
            Sign In
          </Link>
          {rolesRequired.length > 0 ? null : (
            <Link to="/auth/signup" className={buttonClass("secondary")}>
              <UserPlus aria-hidden="true" className="size-4" />
              Create free account
            </Link>
          )}
        </div>
      </section>
    );
  }
  if (access.kind === "role") {
    return (
      <section
        aria-labelledby="gate-title"
        className="rounded-2xl border border-line bg-surface px-6 py-10 text-center sm:px-10"
      >
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-sunken text-ink-muted">
          <UserRoundX aria-hidden="true" className="size-6" />
        </div>
        <h2 id="gate-title" className="text-xl font-semibold text-ink">
          Restricted Content
        </h2>
        <p className="mx-auto mt-2 max-w-md text-ink-muted">
          {`This content is only available to ${rolesText(access.rolesRequired)}.`}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {signedIn ? null : <SignInButton currentPath={currentPath} />}
          <Link to="/" className={buttonClass(signedIn ? "primary" : "ghost")}>
            Return Home
          </Link>
        </div>
      </section>
    );
  }
  const tier: Tier = access.requiredTier;
  const copy = paywallCopy(tier);
  return (
    <section
      aria-labelledby="gate-title"
      className="relative overflow-hidden rounded-2xl border border-accent-line bg-gradient-to-b from-accent-soft to-surface px-6 py-10 text-center sm:px-10"
    >
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-accent text-accent-ink shadow-sm">
        <Lock aria-hidden="true" className="size-6" />
      </div>
      <h2 id="gate-title" className="text-xl font-semibold text-ink">
        {copy.title}
      </h2>
      <p className="mx-auto mt-2 max-w-md text-ink-muted">{copy.message}</p>
      {offer ? <OfferLines offer={offer} /> : null}
      <UpgradeActions
        offer={offer}
        // "Upgrade to {tier}" (spec §2): the tier the offered plan grants.
        label={offer ? paywallCopy(parseTier(offer.plan.tier) ?? tier).upgradeLabel : copy.upgradeLabel}
        signedIn={signedIn}
        currentPath={currentPath}
      />
    </section>
  );
}
