/**
 * Signed unsubscribe links: `/unsubscribe?u=<userId>&k=<kind>&sig=<HMAC>`. The key is derived from
 * the server secret with its own label, so the link works without signing in and cannot be forged
 * for another user or kind. Links do not expire: turning a notification off is always safe.
 */
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import { isNotificationKind, type NotificationKind } from "./notifications.schemas.ts";

export interface UnsubscribeLinks {
  /** The absolute (or path-only without a base URL) unsubscribe link for a user and kind. */
  url(userId: string, kind: NotificationKind): string;
  /** The user and kind of a signed link's query values, or null when anything is wrong. */
  verify(query: {
    u?: unknown;
    k?: unknown;
    sig?: unknown;
  }): { userId: string; kind: NotificationKind } | null;
}

export function createUnsubscribeLinks(options: { secret: string; baseUrl?: string }): UnsubscribeLinks {
  if (typeof options.secret !== "string" || options.secret.length < 16) {
    throw new Error("Unsubscribe links need a secret of at least 16 characters");
  }
  const key = createSecretKey(
    createHmac("sha256", options.secret).update("lumen-hub/unsubscribe/v1").digest(),
  );
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const sign = (userId: string, kind: string) =>
    createHmac("sha256", key).update(`${userId}\n${kind}`).digest("base64url");
  return {
    url(userId, kind) {
      const query = new URLSearchParams({ u: userId, k: kind, sig: sign(userId, kind) });
      return `${baseUrl}/unsubscribe?${query}`;
    },
    verify(query) {
      const { u, k, sig } = query;
      if (typeof u !== "string" || typeof k !== "string" || typeof sig !== "string") return null;
      if (u.length === 0 || u.length > 200 || sig.length > 100 || !isNotificationKind(k)) return null;
      const expected = Buffer.from(sign(u, k));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return { userId: u, kind: k };
    },
  };
}
