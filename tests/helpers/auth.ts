/**
 * Helpers for the identity integration tests: a controllable clock, JSON calls with an Origin,
 * cookies, and codes read from the outbox.
 */

import path from "node:path";
import { expect } from "vitest";
import { readOutbox } from "../../server/mail/mailer.ts";
import { signInThroughSecondFactor } from "./second-factor.ts";

/** A clock the runtime reads (`createRuntime(env, { now })`); tests move it forward. */
export class TestClock {
  t = Date.now();
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface CallOptions {
  cookie?: string;
  headers?: Record<string, string>;
  origin?: string | null;
  method?: string;
}

/** A JSON request as the browser sends it (Origin of the app unless told otherwise). */
export async function call(baseUrl: string, urlPath: string, body?: unknown, options: CallOptions = {}) {
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (method !== "GET") {
    headers["content-type"] ??= "application/json";
    if (options.origin !== null) headers.origin ??= options.origin ?? baseUrl;
  }
  if (options.cookie) headers.cookie = options.cookie;
  return fetch(`${baseUrl}${urlPath}`, {
    method,
    headers,
    body: method === "GET" ? undefined : typeof body === "string" ? body : JSON.stringify(body ?? {}),
  });
}

/** Makes an API key scoped content:read for the signed-in `cookie`; returns the key. */
export async function createReadKey(
  baseUrl: string,
  cookie: string | undefined,
  name: string,
): Promise<string> {
  const res = await call(
    baseUrl,
    "/api/account/api-keys",
    { name, scopes: ["content:read"] },
    cookie ? { cookie } : {},
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** The Cookie header for the cookies a response sets (expired ones dropped). */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .filter((c) => !/max-age=0/i.test(c))
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Merges the cookies a response sets into a Cookie header (expired ones removed). */
export function withCookies(previous: string, res: Response): string {
  const jar = new Map(
    previous
      .split(";")
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf("=")), p] as const),
  );
  for (const set of res.headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0/i.test(set)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The newest 6-digit code mailed to `to`, or null. */
export async function latestCode(dataDir: string, to: string): Promise<string | null> {
  const mails = await readOutbox(path.join(dataDir, "outbox"));
  for (const mail of mails) {
    if (!mail.toLowerCase().includes(`to: ${to.toLowerCase()}`)) continue;
    const code = /code is (\d{6})/.exec(mail);
    if (code) return code[1]!;
  }
  return null;
}

/** Every mail to `to`, newest first. */
export async function mailsTo(dataDir: string, to: string): Promise<string[]> {
  const mails = await readOutbox(path.join(dataDir, "outbox"));
  return mails.filter((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`));
}

export const STRONG_PASSWORD = "Str0ng-Passw0rd!";

let counter = 0;
/** A fresh, valid sign-up body. */
export function newAccount(prefix = "user") {
  counter += 1;
  const tag = `${prefix}${Date.now().toString(36)}${counter}`;
  return { username: tag, email: `${tag}@example.test`, name: "Test Person", password: STRONG_PASSWORD };
}

/** Signs up, reads the code from the outbox and confirms it; returns the account. */
export async function createConfirmedAccount(baseUrl: string, dataDir: string, prefix = "user") {
  const account = newAccount(prefix);
  const res = await call(baseUrl, "/api/auth/sign-up/email", account);
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const otp = await latestCode(dataDir, account.email);
  if (!otp) throw new Error("no confirmation code in the outbox");
  const verify = await call(baseUrl, "/api/auth/email-otp/verify-email", { email: account.email, otp });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${await verify.text()}`);
  return account;
}

/** Signs in by e-mail (demo staff answer their second factor, see second-factor.ts); returns the Cookie header. */
export async function signInCookie(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await signInThroughSecondFactor(baseUrl, email, password, headers);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookiesOf(res);
}
