/**
 * Pluggable bearer ID-token verifiers for `identity.resolveActor`:
 * - `localIdTokenVerifier`: this app's own ID tokens (`tokens.ts`);
 * - `createOidcVerifier`: an external OIDC provider (e.g. Cognito) whose ID tokens carry
 *   Cognito-style claims (`cognito:groups`, `custom:tier`, …). The claims then go through the same
 *   core mapping (`buildUserContext`) as ours.
 *
 * Both allow only the configured algorithms, check issuer, audience and expiry, require
 * `token_use: "id"` when the claim is present (ours always carry it), and accept a token only
 * with more than 60 s left (core `tokenUsable`; an unreadable `exp` counts as 1 h).
 */
import { decodeProtectedHeader, type JWTVerifyGetKey, jwtVerify } from "jose";
import { tokenUsable } from "../../core/index.ts";
import type { BearerVerification, BearerVerifier } from "./identity.ts";
import { MAX_TOKEN_LENGTH, type TokenService } from "./tokens.ts";

export function localIdTokenVerifier(tokens: TokenService): BearerVerifier {
  return {
    async verify(token: string): Promise<BearerVerification | null> {
      const payload = await tokens.verify(token, "id");
      return payload ? { claims: { ...payload }, source: "local" } : null;
    },
  };
}

export interface OidcVerifierOptions {
  issuer: string;
  audience: string | string[];
  /** The provider's keys, e.g. jose `createRemoteJWKSet(new URL(".../jwks.json"))`. */
  keys: JWTVerifyGetKey;
  /** Allowed algorithms (default RS256, what Cognito signs with). Never "none" or HS*. */
  algorithms?: string[];
  now?: () => number;
}

export function createOidcVerifier(options: OidcVerifierOptions): BearerVerifier {
  const algorithms = (options.algorithms ?? ["RS256"]).filter((a) => a !== "none" && !a.startsWith("HS"));
  if (algorithms.length === 0) throw new Error("an OIDC verifier needs an asymmetric algorithm");
  const now = options.now ?? Date.now;
  return {
    async verify(token: string): Promise<BearerVerification | null> {
      if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
      try {
        const header = decodeProtectedHeader(token);
        if (typeof header.alg !== "string" || !algorithms.includes(header.alg)) return null;
        const { payload } = await jwtVerify(token, options.keys, {
          algorithms,
          issuer: options.issuer,
          audience: options.audience,
          currentDate: new Date(now()),
          requiredClaims: ["sub"],
        });
        if (payload.token_use !== undefined && payload.token_use !== "id") return null;
        if (!tokenUsable(payload.exp, now())) return null;
        return { claims: { ...payload }, source: "external" };
      } catch {
        return null;
      }
    },
  };
}
