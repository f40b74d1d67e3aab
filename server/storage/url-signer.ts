import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

/** Where the app serves signed object links (server/http/objects-api.ts). */
export const OBJECTS_PATH = "/api/objects/";

export type SignedMethod = "GET" | "PUT";

export interface SignedParams {
  /** Expiry, epoch seconds. */
  exp: number;
  /** Content-Disposition to serve with (GET), part of the signature. */
  rcd?: string;
  /** Content type to store with (PUT), part of the signature. */
  ct?: string;
}

export type VerifyResult =
  | { ok: true; method: SignedMethod; exp: number; rcd?: string; ct?: string }
  | { ok: false; reason: "missing" | "malformed" | "signature" | "expired"; message: string };

/**
 * HMAC-SHA256 signatures for the local store's links. The signing key is derived from AUTH_SECRET
 * (HMAC of a fixed label), so the secret itself never signs anything else's data. The signature
 * covers method, key, expiry and the optional disposition / content type; HEAD uses GET's links.
 */
export class UrlSigner {
  readonly #key: KeyObject;

  constructor(secret: string) {
    if (typeof secret !== "string" || secret.length < 16) {
      throw new Error("The URL signer needs a secret of at least 16 characters");
    }
    this.#key = createSecretKey(createHmac("sha256", secret).update("lumen-hub/object-url/v1").digest());
  }

  signature(method: SignedMethod, key: string, params: SignedParams): string {
    const payload = [method, key, String(params.exp), params.rcd ?? "", params.ct ?? ""].join("\n");
    return createHmac("sha256", this.#key).update(payload).digest("base64url");
  }

  /** The query string (without "?") of a signed link. */
  query(method: SignedMethod, key: string, params: SignedParams): string {
    const q = new URLSearchParams();
    q.set("exp", String(params.exp));
    if (params.rcd !== undefined) q.set("rcd", params.rcd);
    if (params.ct !== undefined) q.set("ct", params.ct);
    q.set("sig", this.signature(method, key, params));
    return q.toString();
  }

  /** Checks a link's query for `method` and `key` at `nowMs`: signature first, then expiry. */
  verify(method: SignedMethod, key: string, query: URLSearchParams, nowMs: number): VerifyResult {
    const expRaw = query.get("exp");
    const sig = query.get("sig");
    if (expRaw === null || sig === null) {
      return { ok: false, reason: "missing", message: "This link is not signed (exp and sig are required)." };
    }
    if (!/^[0-9]{1,12}$/.test(expRaw) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) {
      return { ok: false, reason: "malformed", message: "This link's signature is malformed." };
    }
    const exp = Number(expRaw);
    const rcd = query.get("rcd") ?? undefined;
    const ct = query.get("ct") ?? undefined;
    const expected = Buffer.from(this.signature(method, key, { exp, rcd, ct }), "utf8");
    const given = Buffer.from(sig, "utf8");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return { ok: false, reason: "signature", message: "This link's signature is not valid." };
    }
    if (nowMs >= exp * 1000) {
      return { ok: false, reason: "expired", message: "This link has expired." };
    }
    return { ok: true, method, exp, rcd, ct };
  }
}

/**
 * The object key of a request path under /api/objects/, decoded; null when it is not a valid key
 * (traversal with "..", encoded forms such as %2e%2e or %2f, backslashes, absolute paths, empty segments).
 */
export function keyFromObjectsPath(rawPathname: string, isValidKey: (key: string) => boolean): string | null {
  if (!rawPathname.startsWith(OBJECTS_PATH)) return null;
  const encoded = rawPathname.slice(OBJECTS_PATH.length);
  let key: string;
  try {
    key = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  // Each raw segment must decode to itself: no encoded slash, dot segment or backslash hides in one.
  if (encoded !== key) return null;
  return isValidKey(key) ? key : null;
}
