/**
 * The signature of a webhook delivery (decision 037, README "Webhooks"), after the Standard
 * Webhooks convention:
 *
 *   Webhook-Id:        the event id (the same on every attempt and on a replay)
 *   Webhook-Timestamp: the attempt's time, in whole seconds since the epoch
 *   Webhook-Signature: v1=<hex HMAC-SHA256 of `${timestamp}.${body}` keyed with the secret>
 *
 * The key is the endpoint's whole secret string (`whsec_…`) as UTF-8. A receiver recomputes the
 * HMAC over the raw body, compares in constant time and refuses timestamps more than five
 * minutes away from its clock (replays of a captured request).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_VERSION = "v1";
/** How far a receiver should accept a timestamp from its own clock. */
export const SIGNATURE_TOLERANCE_S = 300;

/** A new endpoint secret: `whsec_` and 32 random bytes (base64url). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function signWebhook(secret: string, timestampS: number, body: string): string {
  const hex = createHmac("sha256", secret).update(`${timestampS}.${body}`).digest("hex");
  return `${SIGNATURE_VERSION}=${hex}`;
}

/**
 * Checks a received delivery (what a receiver does; the tests use it): the header may hold several
 * space-separated signatures, any matching `v1=` one passes.
 */
export function verifyWebhook(
  secret: string,
  headers: { timestamp: string | null; signature: string | null },
  body: string,
  nowS = Math.floor(Date.now() / 1000),
): boolean {
  if (!headers.timestamp || !headers.signature || !/^\d{1,12}$/.test(headers.timestamp)) return false;
  const timestamp = Number(headers.timestamp);
  if (Math.abs(nowS - timestamp) > SIGNATURE_TOLERANCE_S) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  return headers.signature.split(" ").some((candidate) => {
    const given = Buffer.from(candidate.trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
