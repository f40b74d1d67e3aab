import { describe, expect, it } from "vitest";
import { LOCKOUT_MESSAGE } from "../../../core/index.ts";
import { readSecondFactorChallenge, secondFactorError } from "./second-factor-form.tsx";

describe("second factor", () => {
  it("reads the challenge of a sign-in answer", () => {
    expect(
      readSecondFactorChallenge({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp", 3] }),
    ).toEqual({
      methods: ["totp", "otp"],
    });
    expect(readSecondFactorChallenge({ twoFactorRedirect: true })).toEqual({ methods: [] });
    expect(readSecondFactorChallenge({ user: { id: "u" } })).toBeNull();
    expect(readSecondFactorChallenge(null)).toBeNull();
  });

  it("explains failures like the first step", () => {
    expect(secondFactorError(429, "TOO_MANY_ATTEMPTS", "x")).toBe(LOCKOUT_MESSAGE);
    expect(secondFactorError(401, "INVALID_CODE", "Invalid code.")).toMatch(/not right/);
    expect(secondFactorError(401, "INVALID_TWO_FACTOR_COOKIE", "x")).toMatch(/expired/);
    expect(secondFactorError(400, "OTP_HAS_EXPIRED", "x")).toMatch(/expired/);
    expect(secondFactorError(400, "OTHER", "Something")).toBe("Something");
  });
});
