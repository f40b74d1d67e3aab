/**
 * The personas of the admin API suites (issue 14): a signed-in cookie for each demo account and
 * an API key (made by admin@, scoped content:read), for the unauthorized-access tests every
 * admin API carries. Staff accounts pass their second factor inside `signInCookie`.
 */
import { expect } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call, signInCookie } from "./auth.ts";

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
  /** An API key of admin@ (content:read): API keys are refused by the admin APIs. */
  apiKey: string;
}

/** Signs `accounts` in (every demo account by default) and makes admin@'s API key. */
export async function signInAdminPersonas(
  baseUrl: string,
  accounts: readonly DemoAccount[] = DEMO_ACCOUNTS,
): Promise<AdminPersonas> {
  const cookies: Record<string, string> = {};
  for (const who of new Set<DemoAccount>([...accounts, "admin"])) {
    cookies[who] = await signInCookie(baseUrl, `${who}@demo.local`, DEMO_PASSWORD);
  }
  const key = await call(
    baseUrl,
    "/api/account/api-keys",
    { name: "CI", scopes: ["content:read"] },
    { cookie: cookies.admin },
  );
  expect(key.status).toBe(201);
  return { cookies, apiKey: ((await key.json()) as { key: string }).key };
}
