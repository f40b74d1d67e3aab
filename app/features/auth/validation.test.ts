import { describe, expect, it } from "vitest";
import { looksLikePhone, nextThrottle } from "./sign-in-client.ts";
import { cleanCode, isCode, normalizePhone, validateSignUp } from "./validation.ts";

const valid = {
  username: "nova_2026",
  password: "Fresh-Start-2026!",
  email: "nova@example.com",
  name: "Nova",
  phoneNumber: "",
  account: "personal" as const,
  organizationName: "",
};

describe("validateSignUp", () => {
  it("accepts a complete form (phone optional)", () => {
    expect(validateSignUp(valid)).toEqual({});
    expect(validateSignUp({ ...valid, phoneNumber: "+44 20 7946 0958" })).toEqual({});
  });
  it("explains each field", () => {
    const errors = validateSignUp({
      username: "a!",
      password: "short",
      email: "nope",
      name: " ",
      phoneNumber: "12",
      account: "personal",
      organizationName: "",
    });
    expect(Object.keys(errors).sort()).toEqual(["email", "name", "password", "phoneNumber", "username"]);
    expect(errors.password).toMatch(/at least 8 characters/);
    expect(validateSignUp({ ...valid, username: "bad name" }).username).toMatch(/letters, numbers/);
  });
  it("asks a business account for its organisation's name (2 to 100 characters)", () => {
    const business = { ...valid, account: "business" as const };
    expect(validateSignUp({ ...business, organizationName: "  " }).organizationName).toMatch(/organisation/);
    expect(validateSignUp({ ...business, organizationName: "A" }).organizationName).toMatch(/2 to 100/);
    expect(validateSignUp({ ...business, organizationName: "x".repeat(101) }).organizationName).toMatch(
      /2 to 100/,
    );
    expect(validateSignUp({ ...business, organizationName: "Acme Learning" })).toEqual({});
    // A personal account ignores the organisation field.
    expect(validateSignUp({ ...valid, organizationName: "A" })).toEqual({});
  });
});

describe("phone and code input", () => {
  it("normalises phone numbers to E.164", () => {
    expect(normalizePhone("+44 20 7946 0958")).toBe("+442079460958");
    expect(normalizePhone("0044 (20) 7946-0958")).toBe("+442079460958");
    expect(normalizePhone("020 7946 0958")).toBeNull();
    expect(normalizePhone("")).toBeNull();
  });
  it("tells phone numbers from usernames", () => {
    expect(looksLikePhone("+44 20 7946 0958")).toBe(true);
    expect(looksLikePhone("5551234567")).toBe(true);
    expect(looksLikePhone("nova_2026")).toBe(false);
    expect(looksLikePhone("pro@demo.local")).toBe(false);
  });
  it("keeps six digits from a pasted code", () => {
    expect(cleanCode("123 456")).toBe("123456");
    expect(cleanCode(" 12-34-56 7")).toBe("123456");
    expect(isCode("123456")).toBe(true);
    expect(isCode("12345")).toBe(false);
  });
});

describe("client sign-in throttle (spec §5)", () => {
  it("blocks for 5 minutes at the 5th failure in a row", () => {
    let state = { signInFailures: 0, blockedUntil: null as number | null };
    for (let i = 1; i <= 4; i++) {
      state = nextThrottle(state.signInFailures, state.blockedUntil, 1000);
      expect(state).toEqual({ signInFailures: i, blockedUntil: null });
    }
    state = nextThrottle(state.signInFailures, state.blockedUntil, 1000);
    expect(state).toEqual({ signInFailures: 5, blockedUntil: 1000 + 300_000 });
  });
  it("starts counting again once a block has passed", () => {
    expect(nextThrottle(5, 1000, 2000)).toEqual({ signInFailures: 1, blockedUntil: null });
  });
});
