/**
 * Staff rights need a second factor (core/staff-mfa.ts, decision 012). The server withholds them;
 * these pieces only explain and lead to enrolment: the page after sign-in, and a notice on every
 * page while the rights wait.
 */
import { ShieldCheck } from "lucide-react";
import { useLocation } from "react-router";
import { ENROL_MFA_PATH, safeRedirectTarget } from "../../core/index.ts";
import { api, settle } from "../lib/api.ts";
import { useAuth } from "../lib/session/auth-context.tsx";
import { Notice } from "./ui/notice.tsx";

const ROLE_NAMES: Record<string, string> = {
  SuperUser: "Super Admin",
  AdminUser: "Admin",
  ContentManager: "Content Manager",
  Editor: "Editor",
  ContentCreator: "Content Creator",
};

/** "Admin and Content Manager" from pending roles (routing names first; raw duplicates dropped). */
export function staffRoleLabel(roles: readonly string[]): string {
  const names: string[] = [];
  for (const r of roles) {
    const name = ROLE_NAMES[r];
    if (name && !names.includes(name)) names.push(name);
  }
  if (names.length === 0) return "staff";
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Where to go after a sign-in that needed no second factor: the enrolment in /settings when the
 * account's staff rights wait for one, else the requested page.
 */
export async function afterSignInTarget(redirectTo: string): Promise<string> {
  const target = safeRedirectTarget(redirectTo);
  const status = await settle(api.get<{ pendingStaffRoles?: string[] }>("/api/account/mfa"));
  return status.ok && status.data?.pendingStaffRoles?.length ? ENROL_MFA_PATH : target;
}

/** Shown on every page (but the settings page itself) while the account's staff rights wait. */
export function StaffMfaNotice() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const pending = user.mfaPendingRoles ?? [];
  if (pending.length === 0 || pathname === "/settings") return null;
  return (
    <Notice tone="warn" className="mb-6" title="Your staff rights are waiting for two-factor authentication">
      <p>
        Your account has the {staffRoleLabel(pending)} role. It unlocks once you set up an authenticator app.{" "}
        <a
          href={ENROL_MFA_PATH}
          className="inline-flex items-center gap-1 font-medium text-accent-text underline"
        >
          <ShieldCheck aria-hidden="true" className="size-4" />
          Set up two-factor authentication
        </a>
      </p>
    </Notice>
  );
}
