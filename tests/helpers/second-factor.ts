/**
 * The second sign-in step for the demo staff accounts, whose TOTP secrets and backup codes are
 * published (server/db/seed/accounts.ts, decision 012), so test helpers sign them in like any
 * other account.
 *
 * A TOTP code is accepted once per account (the server keeps the last accepted time step and
 * refuses older or equal ones), and the server accepts the steps next to the current one. So per
 * server and account we remember the last step used and take the next acceptable one; when none
 * is left we use a published backup code, and only when those are gone too we wait for the next
 * step. Helpers in other processes do not share this memory: a refused code is skipped and the
 * next one tried.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { demoAccountByEmail } from "../../server/db/seed/accounts.ts";
import { msUntilNextStep, secretOf, totpCode } from "./totp.ts";

const STEP_MS = 30_000;
/** Steps used (the last one) and backup codes used, per server URL and account. */
const lastStep = new Map<string, number>();

/**
 * A file that keeps `lastStep` across processes (the browser tests restart their worker after a
 * failed test, which would otherwise forget the steps used and offer a refused code).
 */
let stepsFile: string | null = null;
export function rememberTotpStepsIn(file: string): void {
  stepsFile = file;
}
function loadSteps(): void {
  if (!stepsFile || !existsSync(stepsFile)) return;
  for (const [key, step] of Object.entries(
    JSON.parse(readFileSync(stepsFile, "utf8")) as Record<string, number>,
  )) {
    lastStep.set(key, Math.max(step, lastStep.get(key) ?? step));
  }
}
function saveSteps(): void {
  if (stepsFile) writeFileSync(stepsFile, JSON.stringify(Object.fromEntries(lastStep)));
}
const usedBackupCodes = new Map<string, Set<string>>();

const keyOf = (baseUrl: string, email: string) => `${new URL(baseUrl).origin}|${email.trim().toLowerCase()}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The next TOTP step to use for the account on this server, or null when none of the steps the
 * server accepts now is unused. The previous step is skipped in the last 3 s of the current one
 * (it would be too old by the time it arrives).
 */
export function nextTotpStep(key: string, nowMs = Date.now()): number | null {
  loadSteps();
  const current = Math.floor(nowMs / STEP_MS);
  let candidate = Math.max((lastStep.get(key) ?? Number.NEGATIVE_INFINITY) + 1, current - 1);
  if (candidate === current - 1 && msUntilNextStep(nowMs) < 3000) candidate = current;
  if (candidate > current + 1) return null;
  lastStep.set(key, candidate);
  saveSteps();
  return candidate;
}

/** The next unused published backup code of the account on this server, or null. */
function nextBackupCode(key: string, codes: readonly string[]): string | null {
  const used = usedBackupCodes.get(key) ?? new Set<string>();
  usedBackupCodes.set(key, used);
  const code = codes.find((c) => !used.has(c)) ?? null;
  if (code) used.add(code);
  return code;
}

/** Merges the cookies a response sets into a Cookie header (expired ones dropped). */
function mergeCookies(previous: string, res: Response): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(";").map((p) => p.trim())) {
    if (pair) jar.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  for (const set of res.headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0/i.test(set)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/**
 * Signs in by e-mail and, when the account asks for a second factor and is a demo staff account,
 * answers it. Returns the final response (its Set-Cookie carries the session) — or the first
 * response when it failed or needed no second factor.
 */
export async function signInThroughSecondFactor(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const send = (path: string, body: unknown, cookie?: string) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: baseUrl,
        ...headers,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    });
  const first = await send("/api/auth/sign-in/email", { email, password });
  if (first.status !== 200) return first;
  const body = (await first.clone().json()) as { twoFactorRedirect?: boolean };
  if (body.twoFactorRedirect !== true) return first;

  const account = demoAccountByEmail(email);
  if (!account?.totpSecret) {
    throw new Error(`sign-in for ${email} asks for a second factor and the account has no published secret`);
  }
  const challenge = mergeCookies("", first);
  const key = keyOf(baseUrl, email);
  let last: Response = first;
  for (let attempt = 0; attempt < 6; attempt++) {
    const step = nextTotpStep(key);
    if (step === null && attempt < 3) {
      const backup = nextBackupCode(key, account.backupCodes ?? []);
      if (backup) {
        last = await send("/api/auth/two-factor/verify-backup-code", { code: backup }, challenge);
        if (last.status === 200) return last;
        continue;
      }
    }
    if (step === null) {
      await sleep(msUntilNextStep() + 200);
      continue;
    }
    last = await send(
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(account.totpSecret, step * STEP_MS) },
      challenge,
    );
    if (last.status === 200) return last;
    // Refused (a step used by another process, or a step boundary passed): try the next one.
  }
  return last;
}

/**
 * The next unused TOTP code of a demo staff account on the server at `baseUrl` (waits for the next
 * time step when every acceptable one was used). For browser tests that type the code.
 */
export async function nextDemoTotpCode(baseUrl: string, email: string): Promise<string> {
  const account = demoAccountByEmail(email);
  if (!account?.totpSecret) throw new Error(`${email} has no published TOTP secret`);
  const key = keyOf(baseUrl, email);
  for (;;) {
    const step = nextTotpStep(key);
    if (step !== null) return totpCode(account.totpSecret, step * STEP_MS);
    await sleep(msUntilNextStep() + 200);
  }
}

/** The Cookie header of the session a sign-in response set (expired cookies dropped). */
export function sessionCookieOf(res: Response): string {
  return mergeCookies("", res);
}

/**
 * Enrols an authenticator app for the signed-in account (password → secret → a code verified in
 * this session), as a staff account must before its staff rights apply (decision 012). Returns
 * the Cookie header of the session after enrolment and the base32 secret.
 */
export async function enrolTotp(
  baseUrl: string,
  cookie: string,
  password: string,
): Promise<{ cookie: string; secret: string }> {
  const send = (path: string, body: unknown, jar: string) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl, cookie: jar },
      body: JSON.stringify(body),
    });
  const enable = await send("/api/auth/two-factor/enable", { password }, cookie);
  if (enable.status !== 200) throw new Error(`enabling TOTP failed: ${enable.status} ${await enable.text()}`);
  let jar = mergeCookies(cookie, enable);
  const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
  const verify = await send("/api/auth/two-factor/verify-totp", { code: totpCode(secret) }, jar);
  if (verify.status !== 200)
    throw new Error(`verifying TOTP failed: ${verify.status} ${await verify.text()}`);
  jar = mergeCookies(jar, verify);
  return { cookie: jar, secret };
}
