/**
 * Service credentials (the spec's IAM mode): an admin creates a client id + client secret for a
 * trusted server; the server exchanges them (client_credentials) for a 15-minute service token
 * (`token_use: "service"`) that carries the credential's scopes. The secret is shown once and
 * stored as an HMAC (keyed from AUTH_SECRET).
 *
 * Service credentials are platform-wide (decision 009): only platform administrators (app-admin,
 * app-owner) list, create and revoke them, the platform owner rotates their secrets — `adminAccess` decides, here in the operation — and a
 * credential works only while its creator is still an active platform administrator, so a token
 * never carries more than the person who made it (a credential left by a demoted or deleted
 * admin, or made by anyone else, stops working).
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { type AdminOperationName, APP_ADMIN_GROUP, APP_OWNER_GROUP, adminAccess } from "../../core/index.ts";
import type { DB } from "../db/schema.ts";
import { ForbiddenError, UnauthenticatedError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
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
  /** When the secret was last rotated (null = never). */
  rotatedAt: string | null;
}

/** The admin's user id when `operation` is allowed; UnauthenticatedError / ForbiddenError otherwise. */
function authorise(actor: Actor, operation: AdminOperationName): string {
  const decision = adminAccess(operation, actor.access);
  if (decision.kind === "denied") {
    throw decision.reason === "auth"
      ? new UnauthenticatedError(decision.message)
      : new ForbiddenError(decision.message);
  }
  if (!actor.userId) throw new UnauthenticatedError("Sign in first.");
  return actor.userId;
}

export function createServiceCredentials(options: { db: Kysely<DB>; secret: string; now: () => number }) {
  const { db, now } = options;
  const hash = (value: string) => credentialHash(options.secret, "service-secret", value);

  /** The credential's creator is an active account in app-admin or app-owner (else it stops). */
  async function creatorIsPlatformAdmin(createdBy: string | null): Promise<boolean> {
    if (!createdBy) return false;
    const row = await db
      .selectFrom("user")
      .innerJoin("user_group", "user_group.userId", "user.id")
      .select(["user.isActive"])
      .where("user.id", "=", createdBy)
      .where("user_group.groupName", "in", [APP_ADMIN_GROUP, APP_OWNER_GROUP])
      .executeTakeFirst();
    return !!row && row.isActive !== false && (row.isActive as unknown) !== 0;
  }

  return {
    async list(actor: Actor): Promise<ServiceCredentialInfo[]> {
      authorise(actor, "service-credentials.list");
      const rows = await db
        .selectFrom("service_credential")
        .select([
          "id",
          "clientId",
          "name",
          "scopes",
          "createdBy",
          "createdAt",
          "revokedAt",
          "lastUsedAt",
          "rotatedAt",
        ])
        .orderBy("createdAt", "desc")
        .execute();
      return rows.map((r) => ({ ...r, scopes: parseScopes(r.scopes) }));
    },

    async create(
      actor: Actor,
      input: { name: string; scopes: string[] },
    ): Promise<ServiceCredentialInfo & { clientSecret: string }> {
      const createdBy = authorise(actor, "service-credentials.create");
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
        rotatedAt: null,
      };
    },

    async revoke(actor: Actor, id: string): Promise<boolean> {
      authorise(actor, "service-credentials.revoke");
      const result = await db
        .updateTable("service_credential")
        .set({ revokedAt: new Date(now()).toISOString() })
        .where("id", "=", id)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * A new secret for an active credential (admin operation `service-credentials.rotate`, the
     * platform owner): the old secret is refused at once, and so are service tokens issued before
     * the rotation (`isActive` with the token's `iat`). The client id, name and scopes stay. null
     * when there is no active credential with this id. The new secret is in the answer only.
     */
    async rotate(
      actor: Actor,
      id: string,
    ): Promise<(ServiceCredentialInfo & { clientSecret: string }) | null> {
      authorise(actor, "service-credentials.rotate");
      const row = await db
        .selectFrom("service_credential")
        .select(["id", "clientId", "name", "scopes", "createdBy", "createdAt", "revokedAt", "lastUsedAt"])
        .where("id", "=", id)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      if (!row) return null;
      const clientSecret = `lhs_${randomBytes(32).toString("base64url")}`;
      const rotatedAt = new Date(now()).toISOString();
      const result = await db
        .updateTable("service_credential")
        .set({ secretHash: hash(`${row.clientId}:${clientSecret}`), rotatedAt })
        .where("id", "=", id)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      return { ...row, scopes: parseScopes(row.scopes), rotatedAt, clientSecret };
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
        .select(["id", "secretHash", "scopes", "revokedAt", "createdBy"])
        .where("clientId", "=", clientId)
        .executeTakeFirst();
      if (!row || !sameHash(row.secretHash, hash(`${clientId}:${clientSecret}`))) return null;
      if (row.revokedAt !== null) return null;
      if (!(await creatorIsPlatformAdmin(row.createdBy))) return null;
      await db
        .updateTable("service_credential")
        .set({ lastUsedAt: new Date(now()).toISOString() })
        .where("id", "=", row.id)
        .execute();
      return { clientId, scopes: parseScopes(row.scopes) };
    },

    /**
     * True while the credential exists and is not revoked (checked for every service token). With
     * `issuedAtS` (a token's `iat`), a token issued before the secret's last rotation is refused.
     */
    async isActive(clientId: string, issuedAtS?: number): Promise<boolean> {
      const row = await db
        .selectFrom("service_credential")
        .select(["revokedAt", "createdBy", "rotatedAt"])
        .where("clientId", "=", clientId)
        .executeTakeFirst();
      if (!row || row.revokedAt !== null) return false;
      if (issuedAtS !== undefined && row.rotatedAt) {
        const rotatedS = Math.floor(Date.parse(row.rotatedAt) / 1000);
        if (!(issuedAtS >= rotatedS)) return false;
      }
      return creatorIsPlatformAdmin(row.createdBy);
    },
  };
}

export type ServiceCredentials = ReturnType<typeof createServiceCredentials>;
