import { describe, expect, it } from "vitest";
import {
  COMMON_PASSWORD_MESSAGE,
  commonPasswordCandidates,
  passwordProblem,
  passwordRulesMessage,
} from "./password-policy.ts";

const LIST = new Set(["password", "summer", "qwerty123", "p@ssw0rd", "dragon", "abc"]);
const isCommon = (candidate: string) => LIST.has(candidate);

describe("password policy", () => {
  it("refuses what the composition rules refuse, with the rules it misses", () => {
    expect(passwordProblem("alllowercase", isCommon)).toBe(
      "Password needs: an uppercase letter, a number, a symbol.",
    );
    expect(passwordProblem("alllowercase2", isCommon)).toBe("Password needs: an uppercase letter, a symbol.");
    expect(passwordProblem(undefined)).toBe(passwordRulesMessage(undefined));
    expect(passwordProblem(42)).toMatch(/^Password needs: at least 8 characters/);
  });

  it("refuses a listed password however it is dressed up to meet the rules", () => {
    for (const pw of ["Password1!", "123Password!", "P@ssw0rd99", "Summer2024!", "Qwerty123!"]) {
      expect(passwordProblem(pw, isCommon), pw).toBe(COMMON_PASSWORD_MESSAGE);
    }
    expect(passwordProblem("Dr4g0n-!!", isCommon)).toBe(COMMON_PASSWORD_MESSAGE);
  });

  it("accepts passwords that only contain a listed word among others, and very short cores", () => {
    for (const pw of ["Demo-Passw0rd!", "Str0ng-Passw0rd!", "Summer-Rain-7!", "Abc!12345678"]) {
      expect(passwordProblem(pw, isCommon), pw).toBeNull();
    }
    // Without a list only the rules apply.
    expect(passwordProblem("Password1!")).toBeNull();
  });

  it("looks up lower-case, stripped and de-leeted spellings", () => {
    expect(commonPasswordCandidates("P@ssw0rd1!")).toEqual(
      expect.arrayContaining(["p@ssw0rd1!", "p@ssw0rd", "password"]),
    );
    expect(commonPasswordCandidates("Ab!1")).toEqual(expect.not.arrayContaining(["ab"]));
  });
});
