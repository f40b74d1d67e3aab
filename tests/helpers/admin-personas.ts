/**
 * The personas of the admin API suites (issue 14): a signed-in cookie for each demo account and
 * an API key (made by admin@, scoped content:read), for the unauthorized-access tests every
 * admin API carries. Staff accounts pass their second factor inside `signInCookie`.
 */
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createReadKey, signInCookie } from "./auth.ts";

/** Every demo account (visitor aside), as in the brief of every admin API suite. */
export const DEMO_ACCOUNTS = [
  "free",
  "basic",
  "pro",
  "enterprise",
  "business",
  "manager",
  "admin",
  "owner",
  "writer",
] as const;
export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

export interface AdminPersonas {
  /** Cookie header per signed-in account. */
  cookies: Record<string, string>;
  /** An API key (content:read) of the key owner, admin@ unless told: API keys are refused by the admin APIs. */
  apiKey: string;
}

/** Signs `accounts` in (every demo account by default) and makes `keyOwner`'s (admin@'s) API key. */
export async function signInAdminPersonas(
  baseUrl: string,
  accounts: readonly DemoAccount[] = DEMO_ACCOUNTS,
  keyOwner: DemoAccount = "admin",
): Promise<AdminPersonas> {
  const cookies: Record<string, string> = {};
  for (const who of new Set<DemoAccount>([...accounts, keyOwner])) {
    cookies[who] = await signInCookie(baseUrl, `${who}@demo.local`, DEMO_PASSWORD);
  }
  return { cookies, apiKey: await createReadKey(baseUrl, cookies[keyOwner], "CI") };
}
