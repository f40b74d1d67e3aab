/**
 * API keys (the API-key auth mode; SECURITY.md §13, §18).
 *
 * A key looks like `lh_<prefix>_<secret>`: the prefix (12 hex characters) finds the row, the row
 * holds an HMAC-SHA256 of the whole key (keyed from AUTH_SECRET), never the key. The key is
 * shown once, at creation. Keys are named, scoped, may expire, can be revoked, record when they
 * were last used and are rate limited per key (a per-minute window stored in the row, so the
 * limit holds across server processes). A key acts for public reads only: what a visitor sees.
 */
import {
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { DB } from "../db/schema.ts";

/** Scopes an API key may carry. */
export const API_KEY_SCOPES = ["content:read", "repositories:read"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const API_KEY_DEFAULT_RATE_LIMIT = 600;
export const API_KEY_MAX_PER_USER = 25;
export const API_KEY_MAX_EXPIRY_DAYS = 365;
const RATE_WINDOW_MS = 60_000;

const KEY_PATTERN = /^lh_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** The prefix and the whole key of `lh_<prefix>_<secret>`, or null when it is not shaped like one. */
export function parseApiKey(value: unknown): { prefix: string; key: string } | null {
  if (typeof value !== "string") return null;
  const key = value.trim();
  const m = KEY_PATTERN.exec(key);
  return m ? { prefix: m[1]!, key } : null;
}

/** A new random key (prefix 12 hex characters, secret 32 random bytes base64url). */
export function generateApiKey(): { prefix: string; key: string } {
  const prefix = randomBytes(6).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  return { prefix, key: `lh_${prefix}_${secret}` };
}

/** HMAC-SHA256 (hex) of a credential under a key derived from the app secret for `purpose`. */
export function credentialHash(appSecret: string, purpose: string, value: string): string {
  const cacheKey = `${purpose}\n${appSecret}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    // Derived once per secret and purpose, as a KeyObject (HKDF and raw-key HMAC are slow per call).
    key = createSecretKey(
      Buffer.from(hkdfSync("sha256", appSecret, "lumen-hub", `credential-hash/${purpose}`, 32)),
    );
    if (derivedKeys.size > 16) derivedKeys.clear();
    derivedKeys.set(cacheKey, key);
  }
  return createHmac("sha256", key).update(value, "utf8").digest("hex");
}

const derivedKeys = new Map<string, KeyObject>();

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Scopes as stored (a JSON list), tolerant of bad data (→ no scopes). */
export function parseScopes(text: string | null | undefined): string[] {
  try {
    const v = JSON.parse(text ?? "[]") as unknown;
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  rateLimitPerMinute: number;
}

export type ApiKeyCheck =
  | { ok: true; keyId: string; userId: string; scopes: string[]; expiresAtMs: number | null }
  | { ok: false; reason: "unknown" | "revoked" | "expired" | "inactive-user" }
  | { ok: false; reason: "rate-limited"; retryAfterS: number };

export interface ApiKeyServiceOptions {
  db: Kysely<DB>;
  secret: string;
  now: () => number;
}

export function createApiKeyService(options: ApiKeyServiceOptions) {
  const { db, now } = options;
  const hash = (key: string) => credentialHash(options.secret, "api-key", key);

  return {
    async list(userId: string): Promise<ApiKeyInfo[]> {
      const rows = await db
        .selectFrom("api_key")
        .select([
          "id",
          "name",
          "prefix",
          "scopes",
          "createdAt",
          "expiresAt",
          "lastUsedAt",
          "revokedAt",
          "rateLimitPerMinute",
        ])
        .where("userId", "=", userId)
        .where("revokedAt", "is", null)
        .orderBy("createdAt", "desc")
        .execute();
      return rows.map((r) => ({
        ...r,
        scopes: parseScopes(r.scopes),
        rateLimitPerMinute: Number(r.rateLimitPerMinute),
      }));
    },

    async countActive(userId: string): Promise<number> {
      const row = await db
        .selectFrom("api_key")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("userId", "=", userId)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Creates a key; the answer holds the key itself, the only time it is ever available. */
    async create(
      userId: string,
      input: { name: string; scopes: string[]; expiresInDays?: number },
    ): Promise<ApiKeyInfo & { key: string }> {
      const { prefix, key } = generateApiKey();
      const createdAt = new Date(now()).toISOString();
      const expiresAt =
        input.expiresInDays === undefined
          ? null
          : new Date(now() + input.expiresInDays * 86_400_000).toISOString();
      const id = uuidv7();
      await db
        .insertInto("api_key")
        .values({
          id,
          userId,
          name: input.name,
          prefix,
          keyHash: hash(key),
          scopes: JSON.stringify(input.scopes),
          createdAt,
          expiresAt,
          revokedAt: null,
          lastUsedAt: null,
          rateLimitPerMinute: API_KEY_DEFAULT_RATE_LIMIT,
        })
        .execute();
      return {
        id,
        key,
        name: input.name,
        prefix,
        scopes: input.scopes,
        createdAt,
        expiresAt,
        lastUsedAt: null,
        revokedAt: null,
        rateLimitPerMinute: API_KEY_DEFAULT_RATE_LIMIT,
      };
    },

    /** Revokes one of the user's own keys; false when there is no such active key. */
    async revoke(userId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable("api_key")
        .set({ revokedAt: new Date(now()).toISOString() })
        .where("id", "=", id)
        .where("userId", "=", userId)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Checks a presented key and counts the request against its per-minute limit. */
    async authenticate(presented: string): Promise<ApiKeyCheck> {
      const parsed = parseApiKey(presented);
      if (!parsed) return { ok: false, reason: "unknown" };
      const row = await db
        .selectFrom("api_key")
        .innerJoin("user", "user.id", "api_key.userId")
        .select([
          "api_key.id",
          "api_key.userId",
          "api_key.keyHash",
          "api_key.scopes",
          "api_key.expiresAt",
          "api_key.revokedAt",
          "api_key.rateLimitPerMinute",
          "user.isActive",
        ])
        .where("api_key.prefix", "=", parsed.prefix)
        .executeTakeFirst();
      if (!row || !sameHash(row.keyHash, hash(parsed.key))) return { ok: false, reason: "unknown" };
      if (row.revokedAt !== null) return { ok: false, reason: "revoked" };
      const t = now();
      if (row.expiresAt !== null && Date.parse(row.expiresAt) <= t) return { ok: false, reason: "expired" };
      if (row.isActive === false || row.isActive === 0) return { ok: false, reason: "inactive-user" };

      const windowStart = t - (t % RATE_WINDOW_MS);
      const updated = await db
        .updateTable("api_key")
        .set((eb) => ({
          windowCount: eb
            .case()
            .when("windowStart", "=", windowStart)
            .then(eb("windowCount", "+", 1))
            .else(1)
            .end(),
          windowStart,
          lastUsedAt: new Date(t).toISOString(),
        }))
        .where("id", "=", row.id)
        .returning(["windowCount"])
        .executeTakeFirst();
      const count = Number(updated?.windowCount ?? 1);
      if (count > Number(row.rateLimitPerMinute)) {
        return {
          ok: false,
          reason: "rate-limited",
          retryAfterS: Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - t) / 1000)),
        };
      }
      return {
        ok: true,
        keyId: row.id,
        userId: row.userId,
        scopes: parseScopes(row.scopes),
        expiresAtMs: row.expiresAt === null ? null : Date.parse(row.expiresAt),
      };
    },

    /** Whether a key is still usable (not revoked or expired, owner active); no rate counting. */
    async isActive(keyId: string): Promise<boolean> {
      const row = await db
        .selectFrom("api_key")
        .innerJoin("user", "user.id", "api_key.userId")
        .select(["api_key.expiresAt", "api_key.revokedAt", "user.isActive"])
        .where("api_key.id", "=", keyId)
        .executeTakeFirst();
      if (!row || row.revokedAt !== null) return false;
      if (row.expiresAt !== null && Date.parse(row.expiresAt) <= now()) return false;
      return row.isActive !== false && row.isActive !== 0;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
