/**
 * Helpers for the API credential tests: forged and hand-made tokens signed with the server's own
 * key (read from the database and opened with the known AUTH_SECRET), content tier checks.
 */
import { importPKCS8, SignJWT } from "jose";
import { openSecret } from "../../server/auth/tokens.ts";
import type { RunningServer } from "../../server/server.ts";

export const TEST_AUTH_SECRET = "integration-test-secret-0123456789-abcdefghij";

export const TIER_LEVEL = { Free: 0, Basic: 1, Pro: 2, Enterprise: 3 } as const;

/** Signs a token with the server's signing key: anything the test wants in header and claims. */
export async function signWithServerKey(
  server: RunningServer,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const row = await server.runtime.database.db
    .selectFrom("signing_key")
    .selectAll()
    .orderBy("createdAt")
    .executeTakeFirstOrThrow();
  const key = await importPKCS8(openSecret(TEST_AUTH_SECRET, row.privateKeyEnc), "EdDSA");
  return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid: row.kid, ...header }).sign(key);
}

/** A compact JWT with alg "none" (no signature). */
export function unsignedToken(header: Record<string, unknown>, claims: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  return `${b64({ alg: "none", ...header })}.${b64(claims)}.`;
}

export function authHeaders(kind: "bearer" | "key", value: string): Record<string, string> {
  return kind === "bearer" ? { authorization: `Bearer ${value}` } : { "x-api-key": value };
}
