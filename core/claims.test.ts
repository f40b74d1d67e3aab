import { describe, expect, it } from "vitest";
import {
  accessContextFromClaims,
  buildUserContext,
  type Claims,
  DEFAULT_TOKEN_EXPIRY_MS,
  isBusinessMember,
  NoValidTokensError,
  parseAccountType,
  pricingTierFromClaims,
  type SessionInfo,
  shortUserId,
  TOKEN_MIN_REMAINING_MS,
  toAccessContext,
  tokenExpiryMs,
  tokenUsable,
  VISITOR_ACCESS_CONTEXT,
  VISITOR_CONTEXT,
  visitorContext,
} from "./claims.ts";
import { PERSONA_CLAIMS } from "./test-personas.ts";

describe("buildUserContext for the demo personas", () => {
  it("free", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.free);
    expect(ctx).toMatchObject({
      authStatus: "authenticated",
      userId: "0f8e7d6c-free-4000-8000-000000000001",
      username: "free",
      email: "free@demo.local",
      fullName: "Frida",
      groups: ["individual-free"],
      roles: ["User"],
      pricingTier: "Free",
      permissions: [],
      accountType: "individual",
      session: null,
      environment: "production",
      featureFlags: {},
    });
  });

  it("basic", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.basic);
    expect(ctx.pricingTier).toBe("Basic");
    expect(ctx.roles).toEqual(["User"]);
    expect(ctx.authStatus).toBe("authenticated");
  });

  it("pro", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.pro);
    expect(ctx.pricingTier).toBe("Pro");
    expect(ctx.roles).toEqual(["User"]);
  });

  it("enterprise individual (tier from custom:tier, no groups)", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.enterprise);
    expect(ctx.pricingTier).toBe("Enterprise");
    expect(ctx.groups).toEqual([]);
    expect(ctx.roles).toEqual(["User"]);
    expect(ctx.accountType).toBe("individual");
  });

  it("business organisation admin", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.business);
    expect(ctx.pricingTier).toBe("Enterprise");
    expect(ctx.accountType).toBe("business");
    expect(ctx.groups).toEqual(["org-acme", "org-acme-admin", "Business"]);
    expect(ctx.roles).toEqual(["User", "Admin"]);
    expect(ctx.authStatus).toBe("admin");
    expect(ctx.permissions).toEqual(["admin:read", "admin:write", "content:manage", "user:manage"]);
    expect(ctx.customAttributes.orgName).toBe("Acme Ltd");
    expect(ctx.customAttributes.orgRole).toBe("admin");
    expect(ctx.customAttributes.tenantId).toBe("acme");
  });

  it("content manager (no tier information → Free)", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.manager);
    expect(ctx.pricingTier).toBe("Free");
    expect(ctx.roles).toEqual(["User", "ContentManager"]);
    expect(ctx.permissions).toEqual(["content:manage", "content:create", "content:edit", "content:publish"]);
    expect(ctx.authStatus).toBe("authenticated");
  });

  it("app-admin", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.admin);
    expect(ctx.roles).toEqual(["User", "Admin"]);
    expect(ctx.authStatus).toBe("admin");
    expect(ctx.pricingTier).toBe("Free");
    expect(ctx.accountType).toBeNull();
  });

  it("app-owner", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.owner);
    expect(ctx.roles).toEqual(["User", "Admin", "SuperAdmin"]);
    expect(ctx.permissions[0]).toBe("*");
    expect(ctx.authStatus).toBe("admin");
  });
});

describe("buildUserContext details", () => {
  const base = { sub: "abc" };

  it("throws NoValidTokensError('No valid tokens') without a usable sub", () => {
    for (const claims of [
      {},
      { sub: "" },
      { sub: "   " },
      { sub: 42 },
      { email: "a@b.c", "custom:tier": "pro" },
    ]) {
      expect(() => buildUserContext(claims as Claims)).toThrow(NoValidTokensError);
      expect(() => buildUserContext(claims as Claims)).toThrow("No valid tokens");
    }
    try {
      buildUserContext({});
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
      expect((e as NoValidTokensError).code).toBe("NO_VALID_TOKENS");
      expect((e as NoValidTokensError).name).toBe("NoValidTokensError");
    }
  });

  it("pricing tier: custom:tier first, then custom:subscription_tier, then groups, then Free", () => {
    const tier = (c: Claims) => buildUserContext({ ...base, ...c }).pricingTier;
    expect(tier({ "custom:tier": "pro", "custom:subscription_tier": "basic" })).toBe("Pro");
    expect(tier({ "custom:subscription_tier": "basic", "cognito:groups": ["individual-pro"] })).toBe("Basic");
    expect(tier({ "custom:tier": "Business" })).toBe("Enterprise");
    expect(tier({ "custom:subscription_tier": "enterprise" })).toBe("Enterprise");
    // The claim wins even when the groups say more.
    expect(tier({ "custom:tier": "free", "cognito:groups": ["individual-legend"] })).toBe("Free");
    // Unreadable claims fall through.
    expect(tier({ "custom:tier": "gold", "custom:subscription_tier": "pro" })).toBe("Pro");
    expect(tier({ "custom:tier": "gold", "cognito:groups": ["individual-basic"] })).toBe("Basic");
    expect(tier({ "cognito:groups": "org-acme Business" })).toBe("Enterprise");
    expect(tier({ "cognito:groups": ["app-owner"] })).toBe("Free");
    expect(tier({})).toBe("Free");
  });

  it("pricingTierFromClaims keeps Visitor when nothing gives a plan", () => {
    expect(pricingTierFromClaims({})).toBe("Visitor");
    expect(pricingTierFromClaims({ "cognito:groups": "individual-pro" })).toBe("Pro");
  });

  it("reads groups given as a space- or comma-separated string", () => {
    const ctx = buildUserContext({ ...base, "cognito:groups": "app-admin, ContentManager" });
    expect(ctx.groups).toEqual(["app-admin", "ContentManager"]);
    expect(ctx.roles).toEqual(["User", "Admin", "ContentManager"]);
  });

  it("username: preferred_username, then cognito:username, then username", () => {
    const u = (c: Claims) => buildUserContext({ ...base, ...c }).username;
    expect(u({ preferred_username: "pref", "cognito:username": "cog", username: "plain" })).toBe("pref");
    expect(u({ "cognito:username": "cog", username: "plain" })).toBe("cog");
    expect(u({ username: "plain" })).toBe("plain");
    expect(u({ preferred_username: "  ", "cognito:username": "cog" })).toBe("cog");
    expect(u({})).toBeNull();
  });

  it("phoneNumberVerified: the phone_number_verified claim (boolean or Cognito's string), else null", () => {
    const unverified = buildUserContext({
      ...base,
      phone_number: "+14155550123",
      phone_number_verified: false,
    });
    expect(unverified.phoneNumber).toBe("+14155550123");
    expect(unverified.phoneNumberVerified).toBe(false);
    expect(buildUserContext({ ...base, phone_number_verified: "true" }).phoneNumberVerified).toBe(true);
    expect(buildUserContext({ ...base, phone_number_verified: "yes" }).phoneNumberVerified).toBeNull();
    expect(buildUserContext(base).phoneNumberVerified).toBeNull();
    expect(VISITOR_CONTEXT.phoneNumberVerified).toBeNull();
  });

  it("fullName: name, else given and family names", () => {
    const n = (c: Claims) => buildUserContext({ ...base, ...c }).fullName;
    expect(n({ name: "Ada Lovelace", given_name: "X" })).toBe("Ada Lovelace");
    expect(n({ given_name: "Ada", family_name: "Lovelace" })).toBe("Ada Lovelace");
    expect(n({ family_name: "Lovelace" })).toBe("Lovelace");
    expect(n({})).toBeNull();
  });

  it("reads email and phone number, trimmed; non-strings are null", () => {
    const ctx = buildUserContext({ ...base, email: " a@b.c ", phone_number: "+15550100" });
    expect(ctx.email).toBe("a@b.c");
    expect(ctx.phoneNumber).toBe("+15550100");
    expect(buildUserContext({ ...base, email: 5 }).email).toBeNull();
  });

  it("reads the custom attributes in snake_case or camelCase", () => {
    const ctx = buildUserContext({
      ...base,
      "custom:tenant_id": "t1",
      "custom:tenantRole": "owner",
      "custom:domain": "acme.test",
      "custom:ind_admin": true,
      "custom:user_type": "staff",
      "custom:orgRole": "member",
      "custom:org_name": "Acme",
      "custom:subscription_status": "active",
      "custom:last_login": 1_700_000_000,
    });
    expect(ctx.customAttributes).toEqual({
      tenantId: "t1",
      tenantRole: "owner",
      domain: "acme.test",
      indAdmin: "true",
      userType: "staff",
      orgRole: "member",
      orgName: "Acme",
      subscriptionStatus: "active",
      lastLogin: "1700000000",
    });
    const empty = buildUserContext(base).customAttributes;
    expect(Object.values(empty).every((v) => v === null)).toBe(true);
    expect(Object.keys(empty)).toHaveLength(9);
  });

  it("account type is individual, business or null", () => {
    expect(parseAccountType("business")).toBe("business");
    expect(parseAccountType(" Individual ")).toBe("individual");
    expect(parseAccountType("enterprise")).toBeNull();
    expect(parseAccountType(undefined)).toBeNull();
  });

  it("keeps a copy of the claims and passes options through", () => {
    const claims: Claims = { ...base, "custom:foo": "bar" };
    const session: SessionInfo = {
      sessionId: "s1",
      issuedAt: 1,
      expiresAt: 2,
      idleTimeoutMs: 3,
      absoluteTimeoutMs: 4,
      lastRotatedAt: 5,
      rotationIntervalMs: 6,
    };
    const flags = { beta: true };
    const ctx = buildUserContext(claims, { session, environment: "development", featureFlags: flags });
    expect(ctx.claims).toEqual(claims);
    expect(ctx.claims).not.toBe(claims);
    expect(ctx.session).toBe(session);
    expect(ctx.environment).toBe("development");
    expect(ctx.featureFlags).toEqual({ beta: true });
    flags.beta = false;
    expect(ctx.featureFlags.beta).toBe(true);
  });
});

describe("visitor contexts", () => {
  it("VISITOR_CONTEXT is a deeply frozen visitor", () => {
    expect(VISITOR_CONTEXT.authStatus).toBe("visitor");
    expect(VISITOR_CONTEXT.pricingTier).toBe("Visitor");
    expect(VISITOR_CONTEXT.roles).toEqual([]);
    expect(VISITOR_CONTEXT.userId).toBeNull();
    expect(Object.isFrozen(VISITOR_CONTEXT)).toBe(true);
    expect(Object.isFrozen(VISITOR_CONTEXT.groups)).toBe(true);
    expect(Object.isFrozen(VISITOR_CONTEXT.customAttributes)).toBe(true);
    expect(() => {
      (VISITOR_CONTEXT.roles as string[]).push("Admin");
    }).toThrow();
  });

  it("visitorContext returns a fresh mutable context with the given environment", () => {
    const a = visitorContext("test");
    const b = visitorContext();
    expect(a.environment).toBe("test");
    expect(b.environment).toBe("production");
    a.groups.push("x");
    expect(b.groups).toEqual([]);
    expect(Object.isFrozen(a)).toBe(false);
  });

  it("VISITOR_ACCESS_CONTEXT is signed out with no tier", () => {
    expect(VISITOR_ACCESS_CONTEXT).toEqual({
      isAuthenticated: false,
      tier: null,
      roles: [],
      userId: null,
      permissions: [],
      groups: [],
      accountType: null,
    });
    expect(Object.isFrozen(VISITOR_ACCESS_CONTEXT)).toBe(true);
  });
});

describe("toAccessContext", () => {
  it("puts routing roles before raw roles", () => {
    expect(toAccessContext(buildUserContext(PERSONA_CLAIMS.owner)).roles).toEqual([
      "SuperUser",
      "AdminUser",
      "User",
      "Admin",
      "SuperAdmin",
    ]);
    // ContentManager is both a routing role and a raw role: listed once.
    expect(toAccessContext(buildUserContext(PERSONA_CLAIMS.manager)).roles).toEqual([
      "ContentManager",
      "User",
    ]);
    expect(toAccessContext(buildUserContext(PERSONA_CLAIMS.business)).roles).toEqual([
      "AdminUser",
      "User",
      "Admin",
    ]);
  });

  it("carries tier, user id, permissions, groups and account type", () => {
    const a = accessContextFromClaims(PERSONA_CLAIMS.business);
    expect(a).toEqual({
      isAuthenticated: true,
      tier: "Enterprise",
      roles: ["AdminUser", "User", "Admin"],
      userId: "4d5e6f70-biz-4000-8000-000000000005",
      permissions: ["admin:read", "admin:write", "content:manage", "user:manage"],
      groups: ["org-acme", "org-acme-admin", "Business"],
      accountType: "business",
    });
  });

  it("a signed-in context with a Visitor pricing tier counts as Free", () => {
    const ctx = { ...buildUserContext({ sub: "x" }), pricingTier: "Visitor" as const };
    expect(toAccessContext(ctx).tier).toBe("Free");
  });

  it("a visitor context, or one without a user id, is not signed in and carries nothing", () => {
    const forged = {
      ...visitorContext(),
      roles: ["Admin"],
      groups: ["app-owner"],
      pricingTier: "Pro" as const,
    };
    expect(toAccessContext(forged)).toEqual(VISITOR_ACCESS_CONTEXT);
    const noId = { ...buildUserContext(PERSONA_CLAIMS.admin), userId: null };
    expect(toAccessContext(noId).isAuthenticated).toBe(false);
    expect(toAccessContext(noId).roles).toEqual([]);
  });

  it("does not share arrays with the user context", () => {
    const ctx = buildUserContext(PERSONA_CLAIMS.admin);
    const a = toAccessContext(ctx);
    a.permissions.push("*");
    a.groups.push("app-owner");
    expect(ctx.permissions).not.toContain("*");
    expect(ctx.groups).not.toContain("app-owner");
  });
});

describe("isBusinessMember", () => {
  it("needs sign-in, a business account and the Business group", () => {
    expect(isBusinessMember(accessContextFromClaims(PERSONA_CLAIMS.business))).toBe(true);
    expect(
      isBusinessMember(
        accessContextFromClaims({ ...PERSONA_CLAIMS.business, "cognito:groups": ["org-acme"] }),
      ),
    ).toBe(false);
    expect(
      isBusinessMember(
        accessContextFromClaims({ ...PERSONA_CLAIMS.business, "custom:account_type": "individual" }),
      ),
    ).toBe(false);
    expect(isBusinessMember({ isAuthenticated: false, accountType: "business", groups: ["Business"] })).toBe(
      false,
    );
  });
});

describe("tokens", () => {
  const now = 1_700_000_000_000;
  it("constants", () => {
    expect(TOKEN_MIN_REMAINING_MS).toBe(60_000);
    expect(DEFAULT_TOKEN_EXPIRY_MS).toBe(3_600_000);
  });

  it("usable only with more than 60 s left", () => {
    const nowS = now / 1000;
    expect(tokenUsable(nowS + 61, now)).toBe(true);
    expect(tokenUsable(nowS + 60.001, now)).toBe(true);
    expect(tokenUsable(nowS + 60, now)).toBe(false);
    expect(tokenUsable(nowS + 59, now)).toBe(false);
    expect(tokenUsable(nowS, now)).toBe(false);
    expect(tokenUsable(nowS - 3600, now)).toBe(false);
    expect(tokenUsable(String(nowS + 3600), now)).toBe(true);
    expect(tokenUsable(String(nowS + 10), now)).toBe(false);
  });

  it("an unreadable exp counts as now + 1 hour (usable)", () => {
    for (const exp of [undefined, null, "", "soon", Number.NaN, Number.POSITIVE_INFINITY, {}, []]) {
      expect(tokenExpiryMs(exp, now)).toBe(now + 3_600_000);
      expect(tokenUsable(exp, now)).toBe(true);
    }
    expect(tokenExpiryMs(1_700_000_123, now)).toBe(1_700_000_123_000);
  });
});

describe("shortUserId", () => {
  it("keeps the first 8 characters", () => {
    expect(shortUserId("0f8e7d6c-free-4000")).toBe("0f8e7d6c");
    expect(shortUserId("abc")).toBe("abc");
    expect(shortUserId("12345678")).toBe("12345678");
    expect(shortUserId(null)).toBe("");
    expect(shortUserId(undefined)).toBe("");
  });
});
