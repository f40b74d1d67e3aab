/**
 * The one password policy (spec §5, SECURITY.md §4) for every path that sets a password
 * (sign-up, change, reset, any administrative set): the composition rules of `checkPassword`,
 * then a look-up in a list of common and breached passwords. Pure: the server injects the list
 * (`isCommon`); the UI explains the same rules as it types and leaves the list to the server.
 */
import { checkPassword, PASSWORD_RULE_TEXT } from "./constants.ts";

export const COMMON_PASSWORD_MESSAGE =
  "This password is too common or has appeared in data breaches; choose another.";

/** What the UI says about the list before the server is asked. */
export const COMMON_PASSWORD_HINT = "Common or breached passwords (such as Password123!) are refused.";

/** Leet spellings undone before the look-up ("P@ssw0rd" → "password"). */
const LEET: Readonly<Record<string, string>> = Object.freeze({
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
  "!": "i",
});
/** A stripped remainder shorter than this is not looked up (too many short words are on lists). */
const MIN_STRIPPED_LENGTH = 4;

/**
 * The spellings of `password` to look up, lower case: the password itself, without the symbols at
 * either end ("Qwerty123!" → "qwerty123"), without the digits and symbols people add at either
 * end to meet the rules ("Summer2024!" → "summer"), and each with leet spellings undone (1 read
 * as "i" and as "l").
 */
export function commonPasswordCandidates(password: string): string[] {
  const lower = password.normalize("NFKC").toLowerCase();
  const stripped = lower.replace(/^[^\p{L}]+/u, "").replace(/[^\p{L}]+$/u, "");
  const symbolsOff = lower.replace(/^[^\p{L}\p{N}]+/u, "").replace(/[^\p{L}\p{N}]+$/u, "");
  const bases = [lower, symbolsOff];
  if ([...stripped].length >= MIN_STRIPPED_LENGTH) bases.push(stripped);
  const out = new Set<string>();
  for (const base of bases) {
    out.add(base);
    for (const one of ["i", "l"]) {
      const plain = [...base].map((c) => (c === "1" ? one : (LEET[c] ?? c))).join("");
      out.add(plain);
      const plainStripped = plain.replace(/^[^\p{L}]+/u, "").replace(/[^\p{L}]+$/u, "");
      if ([...plainStripped].length >= MIN_STRIPPED_LENGTH) out.add(plainStripped);
    }
  }
  return [...out];
}

/** The rule message of a password that fails the composition rules, or null. */
export function passwordRulesMessage(password: unknown): string | null {
  const result = checkPassword(password);
  if (result.ok) return null;
  return `Password needs: ${result.failures.map((f) => PASSWORD_RULE_TEXT[f].toLowerCase()).join(", ")}.`;
}

/**
 * What is wrong with a new password, as one message for its field, or null when it may be used.
 * `isCommon` answers whether a lower-case spelling is on the list of common passwords.
 */
export function passwordProblem(
  password: unknown,
  isCommon: (candidate: string) => boolean = () => false,
): string | null {
  const rules = passwordRulesMessage(password);
  if (rules) return rules;
  return commonPasswordCandidates(password as string).some(isCommon) ? COMMON_PASSWORD_MESSAGE : null;
}
