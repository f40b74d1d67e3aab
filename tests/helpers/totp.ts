/**
 * TOTP codes for tests (RFC 6238, HMAC-SHA1 with node:crypto) from the secret of an otpauth URI,
 * independent of the server's implementation.
 */
import { createHmac } from "node:crypto";

function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of input.toUpperCase().replace(/=+$/, "")) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error(`invalid base32 character ${ch}`);
    bits += i.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The base32 secret of an `otpauth://` URI. */
export function secretOf(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error("no secret in the otpauth URI");
  return secret;
}

/** The 6-digit code of a base32 secret at `atMs` (default now), 30 s steps. */
export function totpCode(base32Secret: string, atMs = Date.now(), periodS = 30, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / periodS)));
  const mac = createHmac("sha1", base32Decode(base32Secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, "0");
}

/** Milliseconds until the next 30 s step starts. */
export function msUntilNextStep(atMs = Date.now(), periodS = 30): number {
  return periodS * 1000 - (atMs % (periodS * 1000));
}
