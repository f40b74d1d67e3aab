/**
 * Server-side validation of identity input (spec §5, SECURITY.md §10), one clear message per field.
 */
import { z } from "zod";
import { PASSWORD_MIN_LENGTH, passwordRulesMessage } from "../../core/index.ts";

export const PASSWORD_MAX_LENGTH = 256;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;

export const EMAIL_NOT_VERIFIED_MESSAGE =
  "Confirm your e-mail address before signing in. Enter the code we sent you at /auth/confirm.";

/** Fields a client may never set on its own account (mass assignment). */
export const FORBIDDEN_INPUT_FIELDS = new Set([
  "role",
  "roles",
  "tier",
  "groups",
  "emailVerified",
  "accountType",
  "isActive",
  "userId",
  "id",
  "displayName",
  "version",
]);

const passwordSchema = z
  .string({ message: "Password is required." })
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)
  .superRefine((value, ctx) => {
    // The composition rules; the list of common passwords is checked after (password-policy.ts).
    const message = passwordRulesMessage(value);
    if (message) ctx.addIssue({ code: "custom", message });
  });

export const signUpSchema = z
  .object({
    email: z
      .string({ message: "E-mail address is required." })
      .trim()
      .toLowerCase()
      .max(254, "E-mail address must be at most 254 characters.")
      .pipe(z.email({ message: "Enter a valid e-mail address." })),
    name: z
      .string({ message: "Name is required." })
      .trim()
      .min(1, "Name is required.")
      .max(100, "Name must be at most 100 characters."),
    username: z
      .string({ message: "Username is required." })
      .trim()
      .min(USERNAME_MIN_LENGTH, `Username must be at least ${USERNAME_MIN_LENGTH} characters.`)
      .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters.`)
      .regex(/^[A-Za-z0-9_.]+$/, "Username may contain only letters, digits, underscores and dots.")
      .transform((v) => v.toLowerCase()),
    password: passwordSchema,
    phoneNumber: z
      .string({ message: "Phone number must be text." })
      .regex(/^\+[1-9]\d{6,14}$/, "Phone number must be in international format, e.g. +14155550123.")
      .optional(),
    /** "business": the account is for an organisation, created with it (`organizationName`). */
    account: z
      .enum(["personal", "business"], { message: "Account must be personal or business." })
      .optional(),
    organizationName: z
      .string({ message: "The organisation's name must be text." })
      .trim()
      .min(2, "The organisation's name needs at least 2 characters.")
      .max(100, "The organisation's name can have at most 100 characters.")
      .optional(),
    callbackURL: z.string().max(2048).optional(),
    rememberMe: z.boolean().optional(),
    image: z.string().max(2048).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.account === "business" && value.organizationName === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["organizationName"],
        message: "Enter your organisation's name (2 to 100 characters).",
      });
    }
  });

/** The message of a field's first issue (zod's own messages are already per field). */
export function fieldErrorMessage(field: string, issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.input === undefined && field !== "organizationName") {
    return `${field === "email" ? "E-mail address" : field[0]!.toUpperCase() + field.slice(1)} is required.`;
  }
  return issue.message;
}

export { PASSWORD_MIN_LENGTH };
