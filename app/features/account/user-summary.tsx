import { KeyValueList } from "../../components/ui/card.tsx";
import { formatDateTime } from "../../lib/format.ts";
import type { ClientUser } from "../../lib/session/auth-context.tsx";

const when = (value: string | number | null | undefined): string => formatDateTime(value) ?? "—";

function list(values: string[]): string {
  return values.length > 0 ? values.join(", ") : "none";
}

/** The signed-in user's own identity facts, straight from the server-built user context. */
export function IdentityFacts({ user }: { user: ClientUser }) {
  return (
    <KeyValueList
      rows={[
        ["Name", user.fullName ?? "—"],
        ["Username", user.username ?? "—"],
        ["E-mail", user.email ?? "—"],
        [
          "Phone",
          user.phoneNumber
            ? `${user.phoneNumber}${user.phoneNumberVerified === false ? " (not verified)" : ""}`
            : "—",
        ],
        ["Account type", user.accountType ?? "individual"],
      ]}
    />
  );
}

export function AccessFacts({ user }: { user: ClientUser }) {
  return (
    <KeyValueList
      rows={[
        ["Plan", user.pricingTier],
        ["Status", user.authStatus],
        ["Roles", list(user.roles)],
        ["Groups", list(user.groups)],
        ["Permissions", list(user.permissions)],
      ]}
    />
  );
}

export function SessionFacts({ user }: { user: ClientUser }) {
  const s = user.session;
  if (!s) return <p className="text-sm text-ink-muted">No session details are available.</p>;
  return (
    <KeyValueList
      rows={[
        ["Signed in", when(s.issuedAt)],
        ["Last sign-in", when(user.customAttributes.lastLogin)],
        ["Expires", when(s.expiresAt)],
        ["Idle time-out", `${Math.round(s.idleTimeoutMs / 60_000)} minutes`],
        ["Last rotated", when(s.lastRotatedAt)],
      ]}
    />
  );
}

export function OrganisationFacts({ user }: { user: ClientUser }) {
  const a = user.customAttributes;
  return (
    <KeyValueList
      rows={[
        ["Organisation", a.orgName ?? "—"],
        ["Your role there", a.orgRole ?? "—"],
        ["Domain", a.domain ?? "—"],
        ["Tenant", a.tenantId ?? "—"],
        ["Subscription status", a.subscriptionStatus ?? "—"],
      ]}
    />
  );
}
