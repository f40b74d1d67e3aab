/**
 * Pluggable bearer ID-token verifiers for `identity.resolveActor`:
 * - `localIdTokenVerifier`: this app's own ID tokens (`tokens.ts`). A token names the sign-in it
 *   was minted from (`sid`); on every use that sign-in must still be live (session row of the
 *   family present, within its idle and absolute time-outs, account active) and the claims are
 *   read again from the rows, never taken from the token (decision 013). Sign-out (one or all
 *   sessions), password change or reset, deactivation and time-outs therefore end the token on
 *   the next request on every process; a downgrade or a lost group applies at once;
 * - `createOidcVerifier`: an external OIDC provider (e.g. Cognito) whose ID tokens carry
 *   Cognito-style claims (`cognito:groups`, `custom:tier`, …). The claims then go through the same
 *   core mapping (`buildUserContext`) as ours.
 *
 * Both allow only the configured algorithms, check issuer, audience and expiry, require
 * `token_use: "id"` when the claim is present (ours always carry it), and accept a token only
 * with more than 60 s left (core `tokenUsable`; an unreadable `exp` counts as 1 h).
 */
import { decodeProtectedHeader, type JWTVerifyGetKey, jwtVerify } from "jose";
import { type Claims, tokenUsable } from "../../core/index.ts";
import type { BearerVerification, BearerVerifier, IdentityUser } from "./identity.ts";
import { MAX_TOKEN_LENGTH, SESSION_ID_PATTERN, type TokenService } from "./tokens.ts";

/** What the local verifier reads on every use (the runtime wires the session guard and the rows). */
export interface LocalTokenState {
  /** The user of a live sign-in (session family), or null when it has ended. */
  sessionUser(sessionFamilyId: string): Promise<IdentityUser | null>;
  /** The user's claims now (`claimsForUser`). */
  currentClaims(user: IdentityUser): Promise<Claims>;
}

/** Claims of the token itself that stay (who, when, which sign-in); everything else is re-read. */
const TOKEN_OWN_CLAIMS = ["sub", "iss", "aud", "iat", "exp", "jti", "sid", "token_use"] as const;

export function localIdTokenVerifier(tokens: TokenService, state: LocalTokenState): BearerVerifier {
  return {
    async verify(token: string): Promise<BearerVerification | null> {
      const payload = await tokens.verify(token, "id");
      if (!payload) return null;
      const { sub, sid } = payload;
      // Tokens without a sign-in (minted before tokens were bound to one) are refused.
      if (typeof sub !== "string" || typeof sid !== "string" || !SESSION_ID_PATTERN.test(sid)) return null;
      const user = await state.sessionUser(sid);
      if (!user || user.id !== sub) return null;
      const claims: Claims = { ...(await state.currentClaims(user)) };
      for (const key of TOKEN_OWN_CLAIMS) claims[key] = payload[key];
      return { claims, source: "local", sessionFamilyId: sid };
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
