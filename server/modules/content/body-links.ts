import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import { toAccessContext } from "../../../core/index.ts";
import type { Credential } from "../../auth/identity.ts";
import { type PresignOptions, resolveLinkExpiry } from "../../storage/object-store.ts";
import { bodyAreaAllows } from "./body-key.ts";

/** Where a content body link points: `/api/content/<id>/body?exp=…&cred=…&sig=…`. */
export const bodyPath = (contentId: string) => `/api/content/${encodeURIComponent(contentId)}/body`;

export interface BodyLink {
  url: string;
  expiresAt: Date;
}

export type BodyLinkCheck =
  | { ok: true; credential: string; exp: number }
  | { ok: false; reason: "missing" | "malformed" | "signature" | "expired"; message: string };

export interface BodyLinkOptions {
  /** AUTH_SECRET; the signing key is derived from it with its own label. */
  secret: string;
  /** Absolute origin for links (PUBLIC_URL); without it links are paths. */
  baseUrl?: string;
  now: () => number;
}

const CRED = /^[A-Za-z0-9._-]{1,210}$/;

/**
 * Signed, expiring links to a content item's body, bound to the credential that asked for them
 * (a session, a token's user, an API key, a service client, or a visitor). Unlike a raw storage
 * link, the app checks such a link when it is used: the credential must still be live (signed-out
 * sessions and revoked keys are refused) and its current context must still pass the item's rule,
 * so a downgrade takes effect at once. Expiry: 3600 s by default, at most 7 days, never past the
 * credential's own end (`notAfterMs`).
 */
export function createBodyLinks(options: BodyLinkOptions) {
  if (typeof options.secret !== "string" || options.secret.length < 16) {
    throw new Error("Body links need a secret of at least 16 characters");
  }
  // A KeyObject, made once: HMAC with a raw Buffer key rebuilds one per call (several times slower).
  const key = createSecretKey(
    createHmac("sha256", options.secret).update("lumen-hub/content-body/v1").digest(),
  );
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const sign = (contentId: string, credential: string, exp: number) =>
    createHmac("sha256", key).update(`${contentId}\n${credential}\n${exp}`).digest("base64url");

  return {
    /** A link to `contentId`'s body for `credential`; throws on an invalid expiry (over 7 days…). */
    issue(
      contentId: string,
      credential: string,
      expiry: Pick<PresignOptions, "expiresInS" | "notAfterMs"> = {},
    ): BodyLink {
      if (!CRED.test(credential)) throw new Error("Invalid credential reference for a body link");
      const { expiresAt } = resolveLinkExpiry(expiry, options.now());
      const exp = Math.floor(expiresAt.getTime() / 1000);
      const query = new URLSearchParams({ exp: String(exp), cred: credential });
      query.set("sig", sign(contentId, credential, exp));
      return { url: `${baseUrl}${bodyPath(contentId)}?${query}`, expiresAt: new Date(exp * 1000) };
    },

    /** Checks a link's query for `contentId`: signature first, then expiry. */
    verify(contentId: string, query: URLSearchParams): BodyLinkCheck {
      const expRaw = query.get("exp");
      const credential = query.get("cred");
      const sig = query.get("sig");
      if (expRaw === null || credential === null || sig === null) {
        return {
          ok: false,
          reason: "missing",
          message: "This link is not signed (exp, cred and sig are required).",
        };
      }
      if (!/^[0-9]{1,12}$/.test(expRaw) || !CRED.test(credential) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) {
        return { ok: false, reason: "malformed", message: "This link's signature is malformed." };
      }
      const exp = Number(expRaw);
      const expected = Buffer.from(sign(contentId, credential, exp));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        return { ok: false, reason: "signature", message: "This link's signature is not valid." };
      }
      if (options.now() >= exp * 1000) {
        return { ok: false, reason: "expired", message: "This link has expired." };
      }
      return { ok: true, credential, exp };
    },
  };
}

export type BodyLinks = ReturnType<typeof createBodyLinks>;

/** What issuing a reader's body link needs (the runtime has all three). */
export interface BodyLinkIssuer {
  identity: { credentialRef(credential: Credential): string | null };
  bodyLinks: BodyLinks;
  logger: { warn(details: object, message: string): void };
}

/**
 * The body link of an item for the actor that asked (REST `presignedUrl`/`url`, GraphQL fields
 * of the same names), or null: when the actor may not read it (`locked`), when it has no body, or
 * when the link cannot be signed (logged; the item goes out without one, spec §8). 3600 s, never
 * past the credential's end. `contentId` names the content record whose body it opens (a
 * ContentItem's `contentId`); the body endpoint applies that record's rule again when used.
 * Before signing, the body's key must lie in a `content/<tier>/` area the reader's plan reaches
 * (deny by default: any other key gets no link, decision 011).
 */
export function readableBodyLink(
  deps: BodyLinkIssuer,
  actor: Credential,
  item: { id: string; locked: boolean; bodyS3Key: string | null },
  contentId: string = item.id,
): string | null {
  if (item.locked || !item.bodyS3Key) return null;
  if (!bodyAreaAllows(item.bodyS3Key, toAccessContext(actor.context).tier)) {
    deps.logger.warn(
      { contentId, actor: actor.kind },
      "body link refused: the body's storage path is above the reader's plan",
    );
    return null;
  }
  try {
    const credential = deps.identity.credentialRef(actor);
    if (credential === null) throw new Error(`no credential reference for a ${actor.kind} actor`);
    return deps.bodyLinks.issue(contentId, credential, { notAfterMs: actor.expiresAtMs ?? undefined }).url;
  } catch (error) {
    deps.logger.warn(
      { contentId, actor: actor.kind, err: error instanceof Error ? error.message : String(error) },
      "presigned link generation failed; item returned without url",
    );
    return null;
  }
}
