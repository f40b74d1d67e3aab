/**
 * The signed-in user's own profile (issue 3 item 11): display name and bio, avatar in object
 * storage (`private/<userId>/avatar.<ext>`), data export and account deletion.
 *
 * Avatars are readable by anyone signed in (they appear next to names in member lists and
 * comments), never by visitors; they are served with the sniffed type, nosniff and as attachments.
 */
import type { Kysely } from "kysely";
import { z } from "zod";
import { LOCKOUT_MESSAGE } from "../../../core/index.ts";
import { HashBusyError } from "../../auth/hash-limiter.ts";
import { verifyPassword } from "../../auth/password.ts";
import { accountKey, addressKey, type createLoginThrottle } from "../../auth/throttle.ts";
import type { Actor } from "../actor.ts";

type LoginThrottle = ReturnType<typeof createLoginThrottle>;

import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { toIso } from "../../db/values.ts";
import { ServiceError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { createEngagementRepo } from "../engagement/engagement.repo.ts";
import { adminGroup, createOrganizationsRepo } from "../organizations/organizations.repo.ts";
import { parseInput } from "../organizations/organizations.service.ts";
import { AVATAR_MAX_BYTES, avatarKey, avatarMimeOfKey, sniffImageType } from "./profile-image.ts";

/** A sign-in older than this cannot delete the account. */
export const FRESH_SIGN_IN_FOR_DELETE_MS = 15 * 60_000;
export const BIO_MAX = 500;
export const DELETE_CONFIRMATION = "DELETE";

export interface ProfileView {
  userId: string;
  name: string;
  displayName: string | null;
  bio: string | null;
  email: string;
  username: string | null;
  avatarUrl: string | null;
  createdAt: string;
}

export interface ProfileDeps {
  db: Kysely<DB>;
  storage: ObjectStore;
  now: () => number;
  /** The sign-in throttle: wrong passwords here count toward the same lockout as at sign-in. */
  throttle?: LoginThrottle;
}

export interface RequestInfo {
  ip?: string | null;
}

/** Control characters are refused in single-line fields. */
const noControl = (v: string) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

export const updateProfileSchema = z.strictObject(
  {
    displayName: z
      .string({ error: "The display name must be text." })
      .trim()
      .min(1, "Enter a display name.")
      .max(80, "The display name can have at most 80 characters.")
      .refine(noControl, "The display name cannot contain control characters.")
      .optional(),
    bio: z
      .string({ error: "The bio must be text." })
      .max(BIO_MAX, `The bio can have at most ${BIO_MAX} characters.`)
      .nullable()
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? "Only displayName and bio can be changed here." : undefined,
  },
);

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(512, "The password is too long."),
  confirm: z
    .string({ error: `Type ${DELETE_CONFIRMATION} to confirm.` })
    .refine((v) => v === DELETE_CONFIRMATION, `Type ${DELETE_CONFIRMATION} to confirm.`),
});

const avatarUrlOf = (userId: string, key: string | null, updatedAt: string) =>
  key ? `/api/account/avatar/${encodeURIComponent(userId)}?v=${Date.parse(updatedAt) || 0}` : null;

function requireUser(actor: Actor): string {
  if (actor.kind !== "user" || !actor.userId) throw new ServiceError("UNAUTHENTICATED", "Sign in first.");
  return actor.userId;
}

export function createProfileService(deps: ProfileDeps) {
  const { db, storage, now } = deps;
  const audit = createAuditRepo(db);
  const nowIso = () => new Date(now()).toISOString();

  async function loadUser(userId: string) {
    const user = await db.selectFrom("user").selectAll().where("id", "=", userId).executeTakeFirst();
    if (!user) throw new ServiceError("UNAUTHENTICATED", "Sign in first.");
    return user;
  }

  function toView(user: Awaited<ReturnType<typeof loadUser>>): ProfileView {
    const updatedAt = toIso(user.updatedAt);
    return {
      userId: user.id,
      name: user.name,
      displayName: user.displayName,
      bio: user.bio,
      email: user.email,
      username: user.displayUsername ?? user.username,
      avatarUrl: avatarUrlOf(user.id, user.avatar, updatedAt),
      createdAt: toIso(user.createdAt),
    };
  }

  async function deleteAvatarObjects(userId: string) {
    for (const ext of ["png", "jpg", "webp"] as const) {
      await storage.delete(avatarKey(userId, ext)).catch(() => {});
    }
  }

  return {
    async get(actor: Actor): Promise<ProfileView> {
      return toView(await loadUser(requireUser(actor)));
    },

    async update(actor: Actor, input: unknown, info: RequestInfo = {}): Promise<ProfileView> {
      const userId = requireUser(actor);
      const body = parseInput(updateProfileSchema, input);
      const patch: { displayName?: string; bio?: string | null; updatedAt: string } = { updatedAt: nowIso() };
      if (body.displayName !== undefined) patch.displayName = body.displayName;
      if (body.bio !== undefined) patch.bio = body.bio === null || body.bio.trim() === "" ? null : body.bio;
      await db.updateTable("user").set(patch).where("id", "=", userId).execute();
      await audit.append({
        action: "profile_updated",
        actorId: userId,
        targetType: "user",
        targetId: userId,
        details: { fields: Object.keys(body).join(",") },
        ip: info.ip ?? null,
        at: patch.updatedAt,
      });
      return toView(await loadUser(userId));
    },

    /** Stores a PNG/JPEG/WebP (≤ 2 MiB, type from the bytes) as the user's avatar. */
    async setAvatar(actor: Actor, bytes: Uint8Array, info: RequestInfo = {}): Promise<ProfileView> {
      const userId = requireUser(actor);
      if (bytes.byteLength > AVATAR_MAX_BYTES) {
        throw new ServiceError("PAYLOAD_TOO_LARGE", "The image is larger than 2 MiB.");
      }
      const type = sniffImageType(bytes);
      if (!type) {
        throw new ServiceError("UNSUPPORTED_MEDIA_TYPE", "The file is not a PNG, JPEG or WebP image.", {
          avatar: "Choose a PNG, JPEG or WebP image.",
        });
      }
      await deleteAvatarObjects(userId);
      const key = avatarKey(userId, type.ext);
      await storage.put(key, bytes, { contentType: type.mime, metadata: { owner: userId } });
      const at = nowIso();
      await db.updateTable("user").set({ avatar: key, updatedAt: at }).where("id", "=", userId).execute();
      await audit.append({
        action: "avatar_updated",
        actorId: userId,
        targetType: "user",
        targetId: userId,
        details: { type: type.mime, size: bytes.byteLength },
        ip: info.ip ?? null,
        at,
      });
      return toView(await loadUser(userId));
    },

    async removeAvatar(actor: Actor): Promise<ProfileView> {
      const userId = requireUser(actor);
      await deleteAvatarObjects(userId);
      await db
        .updateTable("user")
        .set({ avatar: null, updatedAt: nowIso() })
        .where("id", "=", userId)
        .execute();
      return toView(await loadUser(userId));
    },

    /** Any signed-in user may read an avatar; visitors may not. */
    async readAvatar(actor: Actor, userId: string): Promise<{ body: Uint8Array; contentType: string }> {
      requireUser(actor);
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(userId)) throw new ServiceError("NOT_FOUND", "No avatar.");
      const user = await db.selectFrom("user").select(["avatar"]).where("id", "=", userId).executeTakeFirst();
      const key = user?.avatar ?? null;
      const mime = key ? avatarMimeOfKey(key) : null;
      if (!key || !mime || !key.startsWith(`private/${userId}/`))
        throw new ServiceError("NOT_FOUND", "No avatar.");
      const object = await storage.get(key);
      if (!object) throw new ServiceError("NOT_FOUND", "No avatar.");
      return { body: object.body, contentType: mime };
    },

    /** Everything stored about the user, without password hashes, tokens or secrets. */
    async exportData(actor: Actor, info: RequestInfo = {}) {
      const userId = requireUser(actor);
      const user = await loadUser(userId);
      const groups = await db
        .selectFrom("user_group")
        .select(["groupName", "createdAt"])
        .where("userId", "=", userId)
        .orderBy("groupName")
        .execute();
      const subscriptions = await db
        .selectFrom("user_subscription")
        .select([
          "id",
          "tier",
          "tenantId",
          "status",
          "source",
          "startedAt",
          "expiresAt",
          "canceledAt",
          "createdAt",
          "updatedAt",
        ])
        .where("userId", "=", userId)
        .execute();
      const sessions = await db
        .selectFrom("session")
        .select(["id", "createdAt", "expiresAt", "ipAddress", "userAgent", "issuedAt", "lastActiveAt"])
        .where("userId", "=", userId)
        .execute();
      const accounts = await db
        .selectFrom("account")
        .select(["providerId", "createdAt"])
        .where("userId", "=", userId)
        .execute();
      const auditRows = await db
        .selectFrom("audit_log")
        .select(["id", "at", "actorId", "action", "targetType", "targetId", "ip", "details"])
        .where((eb) => eb.or([eb("actorId", "=", userId), eb("targetId", "=", userId)]))
        .orderBy("at", "desc")
        .limit(1000)
        .execute();
      const at = nowIso();
      await audit.append({
        action: "data_exported",
        actorId: userId,
        targetType: "user",
        targetId: userId,
        ip: info.ip ?? null,
        at,
      });
      const epochIso = (v: unknown) =>
        v === null || v === undefined ? null : new Date(Number(v)).toISOString();
      return {
        exportedAt: at,
        profile: {
          id: user.id,
          name: user.name,
          email: user.email,
          emailVerified: Boolean(user.emailVerified),
          username: user.username,
          displayUsername: user.displayUsername,
          displayName: user.displayName,
          bio: user.bio,
          avatar: user.avatar,
          accountType: user.accountType,
          isActive: Boolean(user.isActive),
          phoneNumber: user.phoneNumber,
          phoneNumberVerified: user.phoneNumberVerified === true || user.phoneNumberVerified === 1,
          unverifiedPhoneNumber: user.unverifiedPhoneNumber,
          lastLoginAt: user.lastLoginAt,
          createdAt: toIso(user.createdAt),
          updatedAt: toIso(user.updatedAt),
        },
        signInMethods: accounts.map((a) => ({ provider: a.providerId, createdAt: toIso(a.createdAt) })),
        groups: groups.map((g) => ({ name: g.groupName, since: g.createdAt })),
        subscriptions,
        sessions: sessions.map((s) => ({
          id: s.id,
          createdAt: epochIso(s.issuedAt) ?? toIso(s.createdAt),
          lastActiveAt: epochIso(s.lastActiveAt),
          expiresAt: toIso(s.expiresAt),
          ipAddress: s.ipAddress,
          userAgent: s.userAgent,
        })),
        auditEvents: auditRows.map((r) => {
          let details: unknown = null;
          try {
            details = r.details ? JSON.parse(r.details) : null;
          } catch {
            details = null;
          }
          return { ...r, details };
        }),
      };
    },

    /**
     * Deletes the account: needs the password and a sign-in within 15 minutes. Sessions,
     * memberships, subscriptions, the avatar and the user go; the audit row stays (actor id).
     * The last administrator of an organisation must hand over first.
     */
    async deleteAccount(actor: Actor, input: unknown, info: RequestInfo = {}): Promise<void> {
      const userId = requireUser(actor);
      const body = parseInput(deleteAccountSchema, input);
      const issuedAt = actor.context.session?.issuedAt ?? 0;
      if (now() - issuedAt >= FRESH_SIGN_IN_FOR_DELETE_MS) {
        throw new ServiceError(
          "SESSION_NOT_FRESH",
          "For your security, deleting your account needs a recent sign-in (within the last 15 minutes). Sign in again, then come back here.",
        );
      }
      const keys = [accountKey(userId), ...(info.ip ? [addressKey(info.ip)] : [])];
      // The attempt is counted before the password is checked, so parallel guesses cannot pass the limit.
      const reservation = deps.throttle ? await deps.throttle.reserve(keys) : null;
      if (reservation && !reservation.ok) throw new ServiceError("TOO_MANY_ATTEMPTS", LOCKOUT_MESSAGE);
      const credential = await db
        .selectFrom("account")
        .select("password")
        .where("userId", "=", userId)
        .where("providerId", "=", "credential")
        .executeTakeFirst();
      let ok = false;
      try {
        ok = credential?.password
          ? await verifyPassword({ hash: credential.password, password: body.password })
          : false;
      } catch (error) {
        await deps.throttle?.release(keys);
        if (error instanceof HashBusyError) throw new ServiceError("TOO_MANY_ATTEMPTS", error.message);
        throw error;
      }
      if (!ok) {
        await deps.throttle?.fail(keys);
        throw new ServiceError("INVALID_PASSWORD", "The password is not correct.", {
          password: "The password is not correct.",
        });
      }
      await deps.throttle?.release(keys);
      await inTransaction(db, async (trx) => {
        const orgs = createOrganizationsRepo(trx);
        const groups = await orgs.groupsOf(userId);
        for (const slug of groups
          .filter((g) => g.startsWith("org-") && !g.endsWith("-admin"))
          .map((g) => g.slice(4))) {
          if (!groups.includes(adminGroup(slug))) continue;
          const members = await orgs.listMembers(slug);
          const heir = members.find((m) => m.isAdmin && m.userId !== userId);
          if (!heir) {
            throw new ServiceError(
              "CONFLICT",
              "You are the last administrator of your organisation: make someone else an administrator before deleting your account.",
            );
          }
          const org = await orgs.getBySlug(slug);
          if (org) await orgs.reassignTenantSubscriptions(org.id, userId, heir.userId);
        }
        await trx.deleteFrom("session").where("userId", "=", userId).execute();
        await trx.deleteFrom("user_group").where("userId", "=", userId).execute();
        await trx.deleteFrom("user_subscription").where("userId", "=", userId).execute();
        await createEngagementRepo(trx).forgetUserLikes(userId);
        await trx.deleteFrom("user").where("id", "=", userId).execute();
        await createAuditRepo(trx).append({
          action: "account_deleted",
          actorId: userId,
          targetType: "user",
          targetId: userId,
          ip: info.ip ?? null,
          at: nowIso(),
        });
      });
      await deleteAvatarObjects(userId);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
