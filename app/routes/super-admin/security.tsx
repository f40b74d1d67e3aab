import {
  LOGIN_LOCKOUT_MS,
  LOGIN_MAX_ATTEMPTS,
  PASSWORD_MIN_LENGTH,
  SECURITY_CHECK_INTERVAL_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  TOKEN_ROTATION_MS,
} from "../../../core/index.ts";
import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/security");

function minutes(ms: number): string {
  const m = ms / 60_000;
  return m >= 60 ? `${m / 60} hours` : `${m} minutes`;
}

export default function Security() {
  return (
    <FeatureScreen
      path="/super-admin/security"
      purpose="Session rules, sign-in lockouts and security events. The rules below are the ones the server enforces on every request."
      coming="active sessions across all users, current lockouts with an unlock action, and the security event log."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Sessions">
          <KeyValueList
            rows={[
              ["Absolute lifetime", minutes(SESSION_ABSOLUTE_MS)],
              ["Idle time-out", minutes(SESSION_IDLE_MS)],
              ["Token rotation", minutes(TOKEN_ROTATION_MS)],
              ["Security check", `every ${minutes(SECURITY_CHECK_INTERVAL_MS)}`],
            ]}
          />
        </Panel>
        <Panel title="Sign-in">
          <KeyValueList
            rows={[
              ["Lockout after", `${LOGIN_MAX_ATTEMPTS} failed attempts`],
              ["Lockout length", minutes(LOGIN_LOCKOUT_MS)],
              [
                "Password",
                `at least ${PASSWORD_MIN_LENGTH} characters, lower and upper case, a number and a symbol; not a common or breached password`,
              ],
            ]}
          />
        </Panel>
      </div>
    </FeatureScreen>
  );
}
