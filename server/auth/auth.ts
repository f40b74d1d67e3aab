import { betterAuth } from "better-auth";
import { username } from "better-auth/plugins/username";
import type { Kysely } from "kysely";
import { PASSWORD_MIN_LENGTH, SESSION_ABSOLUTE_MS } from "../../core/index.ts";

/** The header the HTTP layer sets from the socket address on every auth request (overwriting any incoming value). */
export const CLIENT_IP_HEADER = "x-lumen-client-ip";

export interface AuthOptions {
  // biome-ignore lint/suspicious/noExplicitAny: Better Auth accepts any Kysely database
  db: Kysely<any>;
  dialect: "sqlite" | "postgres";
  secret: string;
  baseURL: string;
  trustedOrigins?: string[];
}

/**
 * Better Auth, configured for this product. The identity features (confirmation codes,
 * MFA, lockout, session security) grow here; the user table also holds the spec's User
 * fields, declared below so Better Auth reads and writes them.
 */
export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: "Lumen Hub",
    secret: options.secret,
    baseURL: options.baseURL,
    trustedOrigins: options.trustedOrigins,
    database: { db: options.db, type: options.dialect },
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 256,
    },
    user: {
      additionalFields: {
        displayName: { type: "string", required: false, input: false },
        bio: { type: "string", required: false, input: false },
        avatar: { type: "string", required: false, input: false },
        role: { type: "string", required: false, input: false },
        isActive: { type: "boolean", required: false, input: false, defaultValue: true },
        accountType: { type: "string", required: false, input: false, defaultValue: "individual" },
      },
    },
    session: {
      expiresIn: SESSION_ABSOLUTE_MS / 1000,
      updateAge: 60 * 60,
      cookieCache: { enabled: false },
    },
    rateLimit: { enabled: false },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: "lumen",
      useSecureCookies: options.baseURL.startsWith("https://"),
      // Random ids for accounts: time-ordered ids share their first characters, which the status overlay shows.
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [username()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
