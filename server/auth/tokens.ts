/**
 * Signed JWTs for API clients (SECURITY.md §13):
 * - ID tokens (`token_use: "id"`, 1 h) for a signed-in user, carrying the Cognito-style claims of
 *   `claimsForUser` (groups, `custom:tier`, `custom:account_type`, …) at the time of issue, and
 *   the sign-in they were minted from (`sid`, the session family id). The claims are informative:
 *   on every use the verifier (`tokens-verifiers.ts`) checks that the sign-in is still live and
 *   reads the user's claims again from the rows (decision 013);
 * - service tokens (`token_use: "service"`, 15 min) for service credentials, carrying scopes.
 *
 * Signed with Ed25519 (`EdDSA`). The key pair is generated once and stored in the database
 * (`signing_key`) so that every server process signs and verifies with the same keys; the private
 * key is encrypted with AES-256-GCM under a key derived (HKDF) from AUTH_SECRET and never leaves
 * the server. Public keys are published as a JWKS.
 *
 * Verification allows only EdDSA, checks the key id, issuer, audience, expiry and the token kind
 * (`token_use`), and accepts a token only with more than 60 s left (core `tokenUsable`).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import {
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import type { Kysely } from "kysely";
import { type Claims, tokenUsable } from "../../core/index.ts";
import type { DB } from "../db/schema.ts";

export const TOKEN_ALG = "EdDSA";
export const TOKEN_AUDIENCE = "lumen-hub";
export const ID_TOKEN_TTL_S = 3600;
export const SERVICE_TOKEN_TTL_S = 900;
/** Longest compact JWT we look at (anything longer is refused unread). */
export const MAX_TOKEN_LENGTH = 8192;
/** A session family id as it may appear in the `sid` claim (and in a body link's credential). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export type TokenUse = "id" | "service";

export interface IssuedToken {
  token: string;
  /** epoch ms */
  expiresAt: number;
}

/** The claims copied from `claimsForUser` into an ID token (anything else is left out). */
export function idTokenClaims(claims: Claims): Claims {
  const out: Claims = {};
  for (const [key, value] of Object.entries(claims)) {
    if (value === undefined || value === null) continue;
    if (
      key.startsWith("custom:") ||
      [
        "email",
        "name",
        "given_name",
        "family_name",
        "phone_number",
        "phone_number_verified",
        "preferred_username",
      ].includes(key) ||
      key === "cognito:groups"
    ) {
      out[key] = value;
    }
  }
  return out;
}

/** AES-256-GCM under a key derived from the app secret: iv.tag.ciphertext, base64url. */
export function sealSecret(secret: string, plaintext: string): string {
  const key = deriveKey(secret);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
}

export function openSecret(secret: string, sealed: string): string {
  const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !data) throw new Error("sealed value is malformed");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secret), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "lumen-hub", "token-signing-key/v1", 32));
}

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: CryptoKey;
  privateKeyEnc: string;
}

export interface TokenServiceOptions {
  db: Kysely<DB>;
  /** AUTH_SECRET: the private keys are encrypted under a key derived from it. */
  secret: string;
  /** The app's base URL (the `iss` of every token). */
  issuer: string;
  now: () => number;
}

export function createTokenService(options: TokenServiceOptions) {
  const { db, issuer, now } = options;
  const keys = new Map<string, LoadedKey>();
  let signing: { kid: string; key: CryptoKey } | null = null;
  let creating: Promise<void> | null = null;

  async function loadKeys(): Promise<void> {
    const rows = await db
      .selectFrom("signing_key")
      .selectAll()
      .where("alg", "=", TOKEN_ALG)
      .orderBy("createdAt")
      .orderBy("kid")
      .execute();
    for (const row of rows) {
      if (keys.has(row.kid)) continue;
      const publicJwk = JSON.parse(row.publicJwk) as JWK;
      const publicKey = (await importJWK(publicJwk, TOKEN_ALG)) as CryptoKey;
      keys.set(row.kid, { kid: row.kid, publicJwk, publicKey, privateKeyEnc: row.privateKeyEnc });
    }
    const active = rows.find((r) => r.retiredAt === null);
    if (active && signing?.kid !== active.kid) {
      const pem = openSecret(options.secret, active.privateKeyEnc);
      signing = { kid: active.kid, key: (await importPKCS8(pem, TOKEN_ALG)) as CryptoKey };
    }
  }

  /** The signing key: the oldest active one in the database, created once when there is none. */
  async function signingKey(): Promise<{ kid: string; key: CryptoKey }> {
    if (signing) return signing;
    await loadKeys();
    if (signing) return signing;
    creating ??= (async () => {
      const pair = await generateKeyPair(TOKEN_ALG, { crv: "Ed25519", extractable: true });
      const kid = randomUUID();
      const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: TOKEN_ALG, use: "sig" };
      const pem = await exportPKCS8(pair.privateKey);
      await db
        .insertInto("signing_key")
        .values({
          kid,
          alg: TOKEN_ALG,
          publicJwk: JSON.stringify(publicJwk),
          privateKeyEnc: sealSecret(options.secret, pem),
          createdAt: new Date(now()).toISOString(),
          retiredAt: null,
        })
        .execute();
      // Another process may have created one at the same time: everyone uses the oldest.
      await loadKeys();
    })().finally(() => {
      creating = null;
    });
    await creating;
    if (!signing) throw new Error("no token signing key");
    return signing;
  }

  async function publicKeyFor(kid: string): Promise<CryptoKey | null> {
    if (!keys.has(kid)) await loadKeys();
    return keys.get(kid)?.publicKey ?? null;
  }

  async function sign(
    payload: JWTPayload,
    use: TokenUse,
    subject: string,
    ttlS: number,
  ): Promise<IssuedToken> {
    const { kid, key } = await signingKey();
    const iat = Math.floor(now() / 1000);
    const exp = iat + ttlS;
    const token = await new SignJWT({ ...payload, token_use: use })
      .setProtectedHeader({ alg: TOKEN_ALG, kid, typ: "JWT" })
      .setIssuer(issuer)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(key);
    return { token, expiresAt: exp * 1000 };
  }

  /** The verified payload of a token of the given kind, or null (never throws). */
  async function verify(token: string, use: TokenUse): Promise<JWTPayload | null> {
    if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== TOKEN_ALG || typeof header.kid !== "string") return null;
      const key = await publicKeyFor(header.kid);
      if (!key) return null;
      const { payload } = await jwtVerify(token, key, {
        algorithms: [TOKEN_ALG],
        issuer,
        audience: TOKEN_AUDIENCE,
        currentDate: new Date(now()),
        requiredClaims: ["sub", "iat"],
      });
      if (payload.token_use !== use) return null;
      if (!tokenUsable(payload.exp, now())) return null;
      return payload;
    } catch {
      return null;
    }
  }

  return {
    issuer,
    audience: TOKEN_AUDIENCE,
    /**
     * An ID token for a user: `claims` from `claimsForUser` (filtered by `idTokenClaims`), bound to
     * the sign-in it is minted from (`sessionFamilyId` → the `sid` claim).
     */
    issueIdToken(claims: Claims, sessionFamilyId: string): Promise<IssuedToken> {
      const sub = claims.sub;
      if (typeof sub !== "string" || sub === "") throw new Error("claims without sub");
      if (!SESSION_ID_PATTERN.test(sessionFamilyId)) throw new Error("an ID token needs its session");
      return sign({ ...idTokenClaims(claims), sid: sessionFamilyId }, "id", sub, ID_TOKEN_TTL_S);
    },
    /** A service token for a service credential (subject `svc:<clientId>`). */
    issueServiceToken(clientId: string, scopes: readonly string[]): Promise<IssuedToken> {
      return sign(
        { scope: scopes.join(" "), client_id: clientId },
        "service",
        `svc:${clientId}`,
        SERVICE_TOKEN_TTL_S,
      );
    },
    verify,
    /** The public keys as a JWKS (no private parts). */
    async jwks(): Promise<{ keys: JWK[] }> {
      await signingKey();
      await loadKeys();
      return {
        keys: [...keys.values()].map(({ publicJwk }) => {
          const { kty, crv, x, kid, alg, use } = publicJwk;
          return { kty, crv, x, kid, alg, use };
        }),
      };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
