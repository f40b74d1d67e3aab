import { describe, expect, it } from "vitest";
import { fieldForError, formatCountdown, secondsUntil } from "./form-helpers.ts";

describe("countdown", () => {
  it("formats minutes and seconds", () => {
    expect(formatCountdown(0)).toBe("0:00");
    expect(formatCountdown(45)).toBe("0:45");
    expect(formatCountdown(60)).toBe("1:00");
    expect(formatCountdown(299)).toBe("4:59");
    expect(formatCountdown(3600)).toBe("1:00:00");
    expect(formatCountdown(-3)).toBe("0:00");
    expect(formatCountdown(Number.NaN)).toBe("0:00");
    expect(formatCountdown(0.2)).toBe("0:01");
  });
  it("counts whole seconds up to a deadline", () => {
    expect(secondsUntil(null, 0)).toBe(0);
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 9_001)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 20_000)).toBe(0);
  });
});

describe("fieldForError", () => {
  it("maps server messages and codes to the field they name", () => {
    expect(fieldForError("USERNAME_IS_ALREADY_TAKEN", "Username is already taken")).toBe("username");
    expect(fieldForError("INVALID_USERNAME", null)).toBe("username");
    expect(fieldForError("INVALID_EMAIL", "Invalid email")).toBe("email");
    expect(fieldForError(null, "Enter a valid e-mail address")).toBe("email");
    expect(fieldForError("PASSWORD_TOO_SHORT", "Password too short")).toBe("password");
    expect(fieldForError("VALIDATION_ERROR", "Name is required")).toBe("name");
    expect(fieldForError(null, "Given name is too long")).toBe("name");
    expect(fieldForError("INVALID_PHONE_NUMBER", "Invalid phone number")).toBe("phoneNumber");
    expect(fieldForError("VALIDATION_ERROR", "The organisation's name needs at least 2 characters.")).toBe(
      "organizationName",
    );
  });
  it("is null for form-level errors", () => {
    expect(fieldForError("INTERNAL", "Something failed")).toBeNull();
    expect(fieldForError(null, null)).toBeNull();
  });
});
