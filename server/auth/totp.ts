/**
 * TOTP (RFC 6238, HMAC-SHA1) helpers with the exact key handling of Better Auth's two-factor
 * plugin, used to find WHICH time step a code matches so a step is accepted once (no replay).
 * Pure functions, no I/O.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
/** Steps accepted either side of the current one (Better Auth verifies ±1). */
export const TOTP_WINDOW = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Decodes RFC 4648 base32 (case-insensitive, padding and spaces ignored). */
export function base32Decode(input: string): Uint8Array {
  const clean = input.toUpperCase().replace(/[\s=]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error("invalid base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** The HOTP code of `counter` (RFC 4226). */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(buffer).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary =
    ((mac[offset]! & 0x7f) << 24) |
    ((mac[offset + 1]! & 0xff) << 16) |
    ((mac[offset + 2]! & 0xff) << 8) |
    (mac[offset + 3]! & 0xff);
  return (binary % 10 ** digits).toString().padStart(digits, "0");
}

export const totpStep = (nowMs: number, periodS = TOTP_PERIOD_S) => Math.floor(nowMs / (periodS * 1000));

/** The TOTP code for the time `nowMs`. */
export function totp(key: Uint8Array, nowMs: number, digits = TOTP_DIGITS, periodS = TOTP_PERIOD_S): string {
  return hotp(key, totpStep(nowMs, periodS), digits);
}

/**
 * The time step (within ±window of now) whose code equals `code`, or null. Every candidate is
 * compared in constant time; the latest matching step wins.
 */
export function matchTotpStep(
  key: Uint8Array,
  code: string,
  nowMs: number,
  options: { digits?: number; periodS?: number; window?: number } = {},
): number | null {
  const digits = options.digits ?? TOTP_DIGITS;
  const current = totpStep(nowMs, options.periodS ?? TOTP_PERIOD_S);
  const window = options.window ?? TOTP_WINDOW;
  const given = Buffer.from(code.padEnd(digits, " ").slice(0, Math.max(digits, code.length)));
  let matched: number | null = null;
  for (let step = current - window; step <= current + window; step++) {
    const expected = Buffer.from(hotp(key, step, digits));
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = step;
  }
  return /^\d+$/.test(code) ? matched : null;
}

/**
 * The HMAC key of a secret as Better Auth stores it (after decryption): generated secrets are
 * used as UTF-8 bytes; imported ones are `base32:<secret>`.
 */
export function totpKeyOf(decryptedSecret: string): Uint8Array {
  if (decryptedSecret.startsWith("base32:")) return base32Decode(decryptedSecret.slice(7));
  return new TextEncoder().encode(decryptedSecret);
}

/** The secret (as key bytes) of an `otpauth://totp/...` URI. */
export function keyFromOtpauthUri(uri: string): Uint8Array {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error("otpauth URI without a secret");
  return base32Decode(secret);
}
