import { checkPassword, PASSWORD_RULE_TEXT } from "../../../core/index.ts";
import type { SignUpField } from "./form-helpers.ts";

/**
 * Client-side checks that mirror the server's rules. They only explain: the server validates
 * every field again and its answer wins.
 */

export interface SignUpInput {
  username: string;
  password: string;
  email: string;
  name: string;
  phoneNumber: string;
  /** "business": an account for an organisation, created with it (named by `organizationName`). */
  account: "personal" | "business";
  organizationName: string;
}

export type FieldErrors = Partial<Record<SignUpField, string>>;

/** The order fields appear in the form (first invalid one gets focus). */
export const SIGN_UP_FIELDS: readonly SignUpField[] = [
  "username",
  "password",
  "email",
  "name",
  "phoneNumber",
  "organizationName",
];

const USERNAME = /^[a-zA-Z0-9_.]{3,30}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** A phone number as typed → E.164 (+ and digits), or null when it cannot be one. */
export function normalizePhone(value: string): string | null {
  const compact = value.trim().replace(/[\s().-]/g, "");
  if (!compact) return null;
  const e164 = compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
  return /^\+[1-9]\d{6,14}$/.test(e164) ? e164 : null;
}

export function validateSignUp(input: SignUpInput): FieldErrors {
  const errors: FieldErrors = {};
  const username = input.username.trim();
  if (!username) errors.username = "Choose a username.";
  else if (username.length < 3 || username.length > 30)
    errors.username = "Use 3 to 30 characters for your username.";
  else if (!USERNAME.test(username))
    errors.username = "Use only letters, numbers, dots and underscores in your username.";

  const policy = checkPassword(input.password);
  if (!input.password) errors.password = "Choose a password.";
  else if (!policy.ok)
    errors.password = `Your password needs: ${policy.failures
      .map((f) => PASSWORD_RULE_TEXT[f].toLowerCase())
      .join(", ")}.`;

  if (!input.email.trim()) errors.email = "Enter your e-mail address.";
  else if (!isEmail(input.email)) errors.email = "Enter a valid e-mail address, like name@example.com.";

  const name = input.name.trim();
  if (!name) errors.name = "Enter your given name.";
  else if (name.length > 100) errors.name = "Keep your given name under 100 characters.";

  if (input.phoneNumber.trim() && !normalizePhone(input.phoneNumber))
    errors.phoneNumber = "Enter the number in international format, for example +44 20 7946 0958.";

  if (input.account === "business") {
    const org = input.organizationName.trim();
    if (!org) errors.organizationName = "Enter your organisation's name.";
    else if (org.length < 2 || org.length > 100)
      errors.organizationName = "Use 2 to 100 characters for your organisation's name.";
  }
  return errors;
}

/** Up to 6 digits from whatever was typed or pasted ("123 456", "123-456" → "123456"). */
export function cleanCode(value: string): string {
  return value.replace(/\D/g, "").slice(0, 6);
}

export function isCode(value: string): boolean {
  return /^\d{6}$/.test(value);
}
