import { describe, expect, it } from "vitest";
import { secretOf, totpCode } from "../../tests/helpers/totp.ts";
import { smsText } from "./mfa.ts";
import { base32Decode, hotp, keyFromOtpauthUri, matchTotpStep, totp, totpKeyOf } from "./totp.ts";

// RFC 6238 appendix B (SHA-1 seed "12345678901234567890").
const RFC_KEY = new TextEncoder().encode("12345678901234567890");
const RFC_BASE32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("TOTP helpers", () => {
  it("match the RFC 6238 test vectors", () => {
    expect(totp(RFC_KEY, 59_000, 8)).toBe("94287082");
    expect(totp(RFC_KEY, 1_111_111_109_000, 8)).toBe("07081804");
    expect(totp(RFC_KEY, 1_234_567_890_000, 8)).toBe("89005924");
    expect(hotp(RFC_KEY, 1, 6)).toBe("287082");
  });

  it("decode base32 like the otpauth URI encodes it", () => {
    expect(Buffer.from(base32Decode(RFC_BASE32)).toString()).toBe("12345678901234567890");
    expect(Buffer.from(base32Decode("gezd gnbv====")).toString()).toBe("12345");
    expect(() => base32Decode("1")).toThrow();
    const uri = `otpauth://totp/Lumen%20Hub:a@b.c?secret=${RFC_BASE32}&issuer=Lumen%20Hub&digits=6&period=30`;
    expect(Buffer.from(keyFromOtpauthUri(uri)).toString()).toBe("12345678901234567890");
    expect(totpKeyOf(`base32:${RFC_BASE32}`)).toEqual(RFC_KEY);
    expect(totpKeyOf("12345678901234567890")).toEqual(RFC_KEY);
  });

  it("finds the matching step within ±1 step, and nothing else", () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotpStep(RFC_KEY, totp(RFC_KEY, now), now)).toBe(step);
    expect(matchTotpStep(RFC_KEY, totp(RFC_KEY, now - 30_000), now)).toBe(step - 1);
    expect(matchTotpStep(RFC_KEY, totp(RFC_KEY, now + 30_000), now)).toBe(step + 1);
    expect(matchTotpStep(RFC_KEY, totp(RFC_KEY, now + 90_000), now)).toBeNull();
    expect(matchTotpStep(RFC_KEY, "abcdef", now)).toBeNull();
    expect(matchTotpStep(RFC_KEY, "", now)).toBeNull();
    expect(matchTotpStep(RFC_KEY, `${totp(RFC_KEY, now)}0`, now)).toBeNull();
  });

  it("the test helper computes the same codes from a URI", () => {
    const uri = `otpauth://totp/x?secret=${RFC_BASE32}`;
    expect(totpCode(secretOf(uri), 59_000)).toBe("287082");
    expect(totpCode(secretOf(uri), 1_700_000_000_000)).toBe(totp(RFC_KEY, 1_700_000_000_000));
  });

  it("SMS texts carry the code and its lifetime", () => {
    expect(smsText("sign-in", "123456", 5)).toMatch(/code is 123456\. It expires in 5 minutes/);
    expect(smsText("verify", "654321", 5)).toMatch(/verification code is 654321/);
  });
});
