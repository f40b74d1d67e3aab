import { Lock, LogIn, Sparkles, UserPlus, UserRoundX } from "lucide-react";
import { Link } from "react-router";
import { isFreeTier, paywallCopy, signInUrl, type Tier } from "../../../core/index.ts";
import type { ContentAccess } from "../../../server/services.ts";
import { buttonClass } from "../../components/ui/button.tsx";

export type GatedAccess = Exclude<ContentAccess, { kind: "granted" }>;

export interface PaywallPanelProps {
  access: GatedAccess;
  /** Whether somebody is signed in (the 'Sign In' button is only offered to visitors). */
  signedIn: boolean;
  /** Where sign-in should return to, e.g. "/content/some-slug". */
  currentPath: string;
  /** The item's required roles, to explain a sign-in gate that is really a role gate. */
  rolesRequired?: string[];
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
export function PaywallPanel({ access, signedIn, currentPath, rolesRequired = [] }: PaywallPanelProps) {
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
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to="/pricing" className={buttonClass("primary")}>
          <Sparkles aria-hidden="true" className="size-4" />
          {copy.upgradeLabel}
        </Link>
        {signedIn ? null : <SignInButton currentPath={currentPath} />}
      </div>
    </section>
  );
}
