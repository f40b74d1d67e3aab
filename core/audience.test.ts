import { describe, expect, it } from "vitest";
import { AUDIENCE_USER_ID, audienceKeyOf, audiencePageEligible, audienceUserOf } from "./audience.ts";
import { buildUserContext, type Claims, toAccessContext, visitorContext } from "./claims.ts";
import { APP_ADMIN_GROUP, CONTENT_CREATOR_GROUP, EDITOR_GROUP } from "./groups.ts";

const reader = (claims: Partial<Claims> = {}, session = true) =>
  buildUserContext(
    {
      sub: "u-1",
      email: "ana@example.com",
      name: "Ana Example",
      preferred_username: "ana",
      "custom:tier": "pro",
      "cognito:groups": [],
      ...claims,
    } as Claims,
    session
      ? {
          session: {
            sessionId: "s-1",
            issuedAt: 1,
            expiresAt: 2,
            idleTimeoutMs: 3,
            absoluteTimeoutMs: 4,
            lastRotatedAt: 5,
            rotationIntervalMs: 6,
          },
        }
      : {},
  );

describe("audience pages (core)", () => {
  it("only signed-in readers without staff roles may share a page", () => {
    expect(audiencePageEligible(reader())).toBe(true);
    expect(audiencePageEligible(visitorContext())).toBe(false);
    for (const group of [APP_ADMIN_GROUP, CONTENT_CREATOR_GROUP, EDITOR_GROUP]) {
      expect(audiencePageEligible(reader({ "cognito:groups": [group] })), group).toBe(false);
    }
    expect(audiencePageEligible({ ...reader(), mfaPendingRoles: ["Admin"] })).toBe(false);
    // The neutral user itself is never the key of another render.
    expect(audiencePageEligible(audienceUserOf(reader()))).toBe(false);
  });

  it("the neutral user keeps nothing personal and stays signed in with the same access", () => {
    const original = reader({ "custom:lastLogin": "2026-11-01T00:00:00Z" } as Partial<Claims>);
    const neutral = audienceUserOf(original);
    const text = JSON.stringify(neutral);
    for (const value of ["u-1", "ana@example.com", "Ana Example", '"ana"', "s-1", "2026-11-01"]) {
      expect(text).not.toContain(value);
    }
    expect(neutral.userId).toBe(AUDIENCE_USER_ID);
    expect(neutral.audience).toBe(true);
    const access = toAccessContext(neutral);
    const before = toAccessContext(original);
    expect({ ...access, userId: null }).toEqual({ ...before, userId: null });
  });

  it("two readers share a key only when everything but their personal fields is equal", () => {
    const a = reader();
    const b = reader({ sub: "u-2", email: "bo@example.org", name: "Bo", preferred_username: "bo" }, false);
    expect(audienceKeyOf(a)).toBe(audienceKeyOf(b));
    expect(audienceKeyOf(reader({ "custom:tier": "basic" }))).not.toBe(audienceKeyOf(a));
    expect(audienceKeyOf(reader({ "cognito:groups": ["Business"] }))).not.toBe(audienceKeyOf(a));
    expect(audienceKeyOf({ ...a, customAttributes: { ...a.customAttributes, tenantId: "org-1" } })).not.toBe(
      audienceKeyOf(a),
    );
    expect(audienceKeyOf({ ...a, featureFlags: { search: false } })).not.toBe(audienceKeyOf(a));
  });
});
