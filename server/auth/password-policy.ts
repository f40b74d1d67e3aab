/**
 * The password policy on the server: the core rules (`passwordProblem`) with the list of common
 * and breached passwords shipped with the project (no network). The list is the "passwords"
 * dictionary of `@zxcvbn-ts/language-common` (MIT; about 49,000 passwords ranked by frequency in
 * leaked password sets), loaded once, on first use, into a lower-case Set.
 */
import { APIError } from "better-auth/api";
import { passwordProblem } from "../../core/index.ts";

let common: Promise<ReadonlySet<string>> | null = null;

/** The list of common passwords, lower case (loaded on first call, then shared). */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => {
    const words = dictionary["passwords-common"] as unknown as readonly (string | number)[];
    return new Set(words.map((w) => String(w).toLowerCase()));
  });
  return common;
}

/** What is wrong with a new password (one message for its field), or null. */
export async function newPasswordProblem(password: unknown): Promise<string | null> {
  const list = await commonPasswords();
  return passwordProblem(password, (candidate) => list.has(candidate));
}

/**
 * The Better Auth endpoints that set a password and the body field that carries it. Paths that
 * are disabled or not mounted are listed too, so the policy holds if one is ever turned on.
 */
export const PASSWORD_SETTING_PATHS: ReadonlyMap<string, string> = new Map([
  ["/sign-up/email", "password"],
  ["/change-password", "newPassword"],
  ["/email-otp/reset-password", "password"],
  ["/reset-password", "newPassword"],
  ["/set-password", "newPassword"],
  ["/phone-number/reset-password", "newPassword"],
  ["/admin/set-user-password", "newPassword"],
  ["/admin/create-user", "password"],
]);

/** Refuses (400, message on the field) a new password the policy does not accept. */
export async function enforcePasswordPolicy(path: string, body: Record<string, unknown>): Promise<void> {
  const field = PASSWORD_SETTING_PATHS.get(path);
  if (!field) return;
  const problem = await newPasswordProblem(body[field]);
  if (!problem) return;
  throw new APIError("BAD_REQUEST", {
    code: "WEAK_PASSWORD",
    message: problem,
    fields: { [field]: problem },
  });
}
