import { describe, expect, it } from "vitest";
import {
  AUDIT_ACTIONS,
  auditActionLabel,
  auditActionsOf,
  auditCategory,
  SECURITY_CONSOLE_ACTIONS,
} from "./audit-actions.ts";

describe("audit actions", () => {
  it("puts sign-in events under security and admin operations under admin", () => {
    expect(auditCategory("lockout")).toBe("security");
    expect(auditCategory("sign_in_failure")).toBe("security");
    expect(auditCategory("admin_unlock")).toBe("admin");
    expect(auditCategory("subscription_updated")).toBe("billing");
    expect(auditCategory("org_member_joined")).toBe("organisation");
  });

  it("calls unknown actions 'other' and labels them from their name", () => {
    expect(auditCategory("role.change")).toBe("other");
    expect(auditCategory("toString")).toBe("other");
    expect(auditActionLabel("role.change")).toBe("Role change");
    expect(auditActionLabel("lockout")).toBe("Account locked out");
  });

  it("lists a category's actions from the one table", () => {
    const security = auditActionsOf("security");
    expect(security).toContain("sign_in");
    expect(security).not.toContain("admin_unlock");
    expect(auditActionsOf("other")).toEqual([]);
    const all = Object.keys(AUDIT_ACTIONS);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("SECURITY_CONSOLE_ACTIONS", () => {
  it("lists only known actions, security events and admin security actions, once each", () => {
    expect(new Set(SECURITY_CONSOLE_ACTIONS).size).toBe(SECURITY_CONSOLE_ACTIONS.length);
    for (const action of SECURITY_CONSOLE_ACTIONS) {
      expect(["security", "admin"], action).toContain(auditCategory(action));
    }
    expect(SECURITY_CONSOLE_ACTIONS).toEqual(
      expect.arrayContaining([
        "sign_in_failure",
        "lockout",
        "admin_session_revoked",
        "service_credential_rotated",
      ]),
    );
  });
});
