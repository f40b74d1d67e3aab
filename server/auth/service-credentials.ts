/**
 * Service credentials (the spec's IAM mode): an admin creates a client id + client secret for a
 * trusted server; the server exchanges them (client_credentials) for a 15-minute service token
 * (`token_use: "service"`) that carries the credential's scopes. The secret is shown once and
 * stored as an HMAC (keyed from AUTH_SECRET).
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { DB } from "../db/schema.ts";
import { credentialHash, parseScopes, sameHash } from "./api-keys.ts";

/**
 * - content:read — public reads (lists and metadata, as a visitor);
 * - content:read:all — reads every item as an entitled reader (no tier or role lock);
 * - repositories:read — public repository reads (for the data API).
 */
export const SERVICE_SCOPES = ["content:read", "content:read:all", "repositories:read"] as const;
export type ServiceScope = (typeof SERVICE_SCOPES)[number];

const CLIENT_ID_PATTERN = /^svc_[0-9a-f]{24}$/;
const SECRET_PATTERN = /^lhs_[A-Za-z0-9_-]{43}$/;

export interface ServiceCredentialInfo {
  id: string;
  clientId: string;
  name: string;
  scopes: string[];
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export function createServiceCredentials(options: { db: Kysely<DB>; secret: string; now: () => number }) {
  const { db, now } = options;
  const hash = (value: string) => credentialHash(options.secret, "service-secret", value);

  return {
    async list(): Promise<ServiceCredentialInfo[]> {
      const rows = await db
        .selectFrom("service_credential")
        .select(["id", "clientId", "name", "scopes", "createdBy", "createdAt", "revokedAt", "lastUsedAt"])
        .orderBy("createdAt", "desc")
        .execute();
      return rows.map((r) => ({ ...r, scopes: parseScopes(r.scopes) }));
    },

    async create(
      createdBy: string,
      input: { name: string; scopes: string[] },
    ): Promise<ServiceCredentialInfo & { clientSecret: string }> {
      const clientId = `svc_${randomBytes(12).toString("hex")}`;
      const clientSecret = `lhs_${randomBytes(32).toString("base64url")}`;
      const id = uuidv7();
      const createdAt = new Date(now()).toISOString();
      await db
        .insertInto("service_credential")
        .values({
          id,
          clientId,
          name: input.name,
          secretHash: hash(`${clientId}:${clientSecret}`),
          scopes: JSON.stringify(input.scopes),
          createdBy,
          createdAt,
          revokedAt: null,
          lastUsedAt: null,
        })
        .execute();
      return {
        id,
        clientId,
        clientSecret,
        name: input.name,
        scopes: input.scopes,
        createdBy,
        createdAt,
        revokedAt: null,
        lastUsedAt: null,
      };
    },

    async revoke(id: string): Promise<boolean> {
      const result = await db
        .updateTable("service_credential")
        .set({ revokedAt: new Date(now()).toISOString() })
        .where("id", "=", id)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The credential's scopes when the pair is valid and not revoked; otherwise null. */
    async authenticate(
      clientId: unknown,
      clientSecret: unknown,
    ): Promise<{ clientId: string; scopes: string[] } | null> {
      if (typeof clientId !== "string" || typeof clientSecret !== "string") return null;
      if (!CLIENT_ID_PATTERN.test(clientId) || !SECRET_PATTERN.test(clientSecret)) return null;
      const row = await db
        .selectFrom("service_credential")
        .select(["id", "secretHash", "scopes", "revokedAt"])
        .where("clientId", "=", clientId)
        .executeTakeFirst();
      if (!row || !sameHash(row.secretHash, hash(`${clientId}:${clientSecret}`))) return null;
      if (row.revokedAt !== null) return null;
      await db
        .updateTable("service_credential")
        .set({ lastUsedAt: new Date(now()).toISOString() })
        .where("id", "=", row.id)
        .execute();
      return { clientId, scopes: parseScopes(row.scopes) };
    },

    /** True while the credential exists and is not revoked (checked for every service token). */
    async isActive(clientId: string): Promise<boolean> {
      const row = await db
        .selectFrom("service_credential")
        .select("revokedAt")
        .where("clientId", "=", clientId)
        .executeTakeFirst();
      return !!row && row.revokedAt === null;
    },
  };
}

export type ServiceCredentials = ReturnType<typeof createServiceCredentials>;
