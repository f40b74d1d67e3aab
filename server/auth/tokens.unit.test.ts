import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { buildUserContext, toAccessContext, visitorContext } from "../../core/index.ts";
import { actorForCredential, hasReadScope } from "../modules/actor.ts";
import { credentialHash, generateApiKey, parseApiKey, parseScopes, sameHash } from "./api-keys.ts";
import { bearerToken } from "./identity.ts";
import { idTokenClaims, openSecret, sealSecret } from "./tokens.ts";
import { createOidcVerifier } from "./tokens-verifiers.ts";

describe("API key helpers", () => {
  it("generates keys that parse back, and refuses anything else", () => {
    const { prefix, key } = generateApiKey();
    expect(key.startsWith(`lh_${prefix}_`)).toBe(true);
    expect(parseApiKey(key)).toEqual({ prefix, key });
    for (const bad of [
      null,
      42,
      "",
      "lh_short_x",
      `lh_${prefix}_`,
      `xx_${prefix}_${"a".repeat(43)}`,
      `${key}x`,
    ])
      expect(parseApiKey(bad)).toBeNull();
  });

  it("hashes with a keyed HMAC per purpose", () => {
    const a = credentialHash("s".repeat(32), "api-key", "value");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(credentialHash("s".repeat(32), "api-key", "value")).toBe(a);
    expect(credentialHash("s".repeat(32), "service-secret", "value")).not.toBe(a);
    expect(credentialHash("t".repeat(32), "api-key", "value")).not.toBe(a);
    expect(sameHash(a, a)).toBe(true);
    expect(sameHash(a, a.slice(1))).toBe(false);
  });

  it("reads stored scopes tolerantly", () => {
    expect(parseScopes('["content:read",1]')).toEqual(["content:read"]);
    expect(parseScopes("not json")).toEqual([]);
    expect(parseScopes(null)).toEqual([]);
  });
});

describe("token helpers", () => {
  it("seals and opens the private key; another secret cannot open it", () => {
    const sealed = sealSecret("a".repeat(40), "private pem");
    expect(sealed).not.toContain("private");
    expect(openSecret("a".repeat(40), sealed)).toBe("private pem");
    expect(() => openSecret("b".repeat(40), sealed)).toThrow();
  });

  it("copies only identity claims into an ID token", () => {
    const out = idTokenClaims({
      sub: "u1",
      email: "a@b.c",
      given_name: "A",
      "cognito:groups": ["Pro"],
      "custom:tier": "pro",
      "custom:account_type": "individual",
      exp: 1,
      token_use: "access",
      password: "x",
    });
    expect(out).toEqual({
      email: "a@b.c",
      given_name: "A",
      "cognito:groups": ["Pro"],
      "custom:tier": "pro",
      "custom:account_type": "individual",
    });
  });

  it("reads Bearer headers strictly", () => {
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken("Bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBe("");
    expect(bearerToken("Bearer")).toBe("");
    expect(bearerToken("Bearer a b")).toBe("");
  });

  it("checks scopes of key and service actors only", () => {
    const context = visitorContext();
    const session = actorForCredential({ kind: "session", context, scopes: null });
    const key = actorForCredential({ kind: "api-key", context, scopes: ["repositories:read"] });
    const service = actorForCredential({ kind: "service", context, scopes: ["content:read:all"] });
    expect(hasReadScope(session, "content:read")).toBe(true);
    expect(hasReadScope(key, "content:read")).toBe(false);
    expect(hasReadScope(key, "repositories:read")).toBe(true);
    expect(hasReadScope(service, "content:read")).toBe(true);
    expect(hasReadScope(service, "repositories:read")).toBe(false);
  });
});

describe("external OIDC verifier (Cognito-style claims)", async () => {
  const issuer = "https://cognito-idp.eu-west-1.amazonaws.com/pool";
  const audience = "client-123";
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256" };
  const now = 1_800_000_000_000;
  const verifier = createOidcVerifier({
    issuer,
    audience,
    keys: createLocalJWKSet({ keys: [jwk] }),
    now: () => now,
  });
  const cognitoClaims = {
    email: "pat@example.com",
    given_name: "Pat",
    phone_number: "+441234567890",
    "cognito:groups": ["Business", "org-acme"],
    "custom:tier": "pro",
    "custom:account_type": "business",
    "custom:tenantId": "t-1",
    token_use: "id",
  };
  const sign = (
    claims: Record<string, unknown>,
    opts: { exp?: number | null; aud?: string; iss?: string } = {},
  ) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setSubject("ext-user-1")
      .setIssuer(opts.iss ?? issuer)
      .setAudience(opts.aud ?? audience)
      .setIssuedAt(Math.floor(now / 1000));
    if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? Math.floor(now / 1000) + 3600);
    return jwt.sign(privateKey);
  };

  it("maps the claims through the same core mapping as our own tokens", async () => {
    const verified = await verifier.verify(await sign(cognitoClaims));
    expect(verified?.source).toBe("external");
    const ctx = buildUserContext(verified!.claims);
    const direct = buildUserContext({ sub: "ext-user-1", ...cognitoClaims });
    expect(ctx.pricingTier).toBe("Pro");
    expect(ctx.accountType).toBe("business");
    expect(ctx.groups).toEqual(direct.groups);
    expect(ctx.roles).toEqual(direct.roles);
    expect(ctx.phoneNumber).toBe("+441234567890");
    expect(ctx.customAttributes.tenantId).toBe("t-1");
    expect(toAccessContext(ctx).tier).toBe("Pro");
  });

  it("refuses wrong audience, issuer, kind, near expiry, HS256 and none", async () => {
    const nowS = Math.floor(now / 1000);
    expect(await verifier.verify(await sign(cognitoClaims, { aud: "other" }))).toBeNull();
    expect(await verifier.verify(await sign(cognitoClaims, { iss: "https://evil.example" }))).toBeNull();
    expect(await verifier.verify(await sign({ ...cognitoClaims, token_use: "access" }))).toBeNull();
    expect(await verifier.verify(await sign(cognitoClaims, { exp: nowS + 60 }))).toBeNull();
    expect(await verifier.verify(await sign(cognitoClaims, { exp: nowS + 61 }))).not.toBeNull();
    const hs = await new SignJWT(cognitoClaims)
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setSubject("x")
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime(nowS + 3600)
      .sign(new TextEncoder().encode("a-shared-secret-of-enough-length!"));
    expect(await verifier.verify(hs)).toBeNull();
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const none = `${b64({ alg: "none" })}.${b64({ ...cognitoClaims, sub: "x", iss: issuer, aud: audience })}.`;
    expect(await verifier.verify(none)).toBeNull();
    expect(await verifier.verify("garbage")).toBeNull();
  });

  it("counts a token without exp as valid for an hour (spec default)", async () => {
    expect(await verifier.verify(await sign(cognitoClaims, { exp: null }))).not.toBeNull();
  });
});
