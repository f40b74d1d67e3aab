/**
 * Password hashing (SECURITY.md §4): scrypt at OWASP strength (N=2^17, r=8, p=1, 64-byte key,
 * 16-byte salt), compared in constant time. Stored as `scrypt$17$8$1$<salt b64url>$<key b64url>`.
 * Hashes in Better Auth's default format (`salt:key`, from before this scheme) still verify.
 * Every hash and verification waits for a slot of the process-wide `hashLimiter`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { verifyPassword as verifyLegacy } from "better-auth/crypto";
import { hashLimiter } from "./hash-limiter.ts";

const LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
// 128 · N · r bytes = 128 MiB for N=2^17, r=8; allow headroom.
const MAXMEM = 256 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N: 2 ** logN, r, p, maxmem: MAXMEM },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/**
 * Within `withHashMemo`, hashing the same password again reuses the first hash (same salt).
 * Only the demo seed uses it: its accounts share the published demo password anyway, and one
 * scrypt instead of eight keeps start-up fast.
 */
const memo = new AsyncLocalStorage<Map<string, Promise<string>>>();

export function withHashMemo<T>(fn: () => Promise<T>): Promise<T> {
  return memo.run(new Map(), fn);
}

export async function hashPassword(password: string): Promise<string> {
  const cache = memo.getStore();
  const cached = cache?.get(password);
  if (cached) return cached;
  const work = hashLimiter.run(async () => {
    const salt = randomBytes(16);
    const key = await scrypt(password, salt, LOG_N, R, P);
    return `scrypt$${LOG_N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
  });
  cache?.set(password, work);
  return work;
}

export function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  return hashLimiter.run(() => verify(data.hash, data.password));
}

async function verify(hash: string, password: string): Promise<boolean> {
  if (!hash.startsWith("scrypt$")) {
    try {
      return await verifyLegacy({ hash, password });
    } catch {
      return false;
    }
  }
  const parts = hash.split("$");
  if (parts.length !== 6) return false;
  const [, logN, r, p, saltText, keyText] = parts;
  const nums = [Number(logN), Number(r), Number(p)];
  if (!nums.every((n) => Number.isInteger(n) && n > 0 && n < 32)) return false;
  const expected = Buffer.from(keyText!, "base64url");
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scrypt(password, Buffer.from(saltText!, "base64url"), nums[0]!, nums[1]!, nums[2]!);
  return timingSafeEqual(actual, expected);
}
