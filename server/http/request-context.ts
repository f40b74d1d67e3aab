/**
 * Every request the app handles gets an id: the `X-Request-Id` a trusted proxy sent (only with
 * `TRUST_PROXY=1`, and only an id of 1–128 letters, digits and `._:-`), else a new one. The id goes
 * back in the response's `X-Request-Id` and into every log line written while the request runs
 * (the runtime's logger reads it through `currentRequestId`, an AsyncLocalStorage), so one request
 * can be followed through the proxy and whichever process answered it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

export const REQUEST_ID_HEADER = "X-Request-Id";

interface RequestStore {
  requestId: string;
}

const store = new AsyncLocalStorage<RequestStore>();
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** A process prefix and a counter: unique across processes without a random draw per request. */
const prefix = randomBytes(6).toString("base64url");
let counter = 0;

export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}-${counter.toString(36)}`;
}

/** The id for a request: the proxy's when trusted and well formed, else a new one. */
export function requestIdFor(given: string | undefined | null, trustProxy: boolean): string {
  return trustProxy && given && ACCEPTED.test(given) ? given : newRequestId();
}

/** Runs `fn` with `requestId` as the current request's id (for the logger). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return store.run({ requestId }, fn);
}

/** The id of the request whose work is running now, if any. */
export function currentRequestId(): string | undefined {
  return store.getStore()?.requestId;
}

/** pino's `mixin`: adds `reqId` to every line logged while a request runs. */
export function requestLogMixin(): Record<string, string> {
  const requestId = store.getStore()?.requestId;
  return requestId ? { reqId: requestId } : {};
}
