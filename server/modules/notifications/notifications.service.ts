/**
 * E-mail notification settings (issue 15): each signed-in reader's opt-ins (all off until turned
 * on) and followed sections, and the signed one-click unsubscribe. Own rows only: every operation
 * reads the user from the actor; API keys and service credentials have no person to act for.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { BadInputError, ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import {
  type FollowableSection,
  isFollowableSection,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type PreferencesPatch,
  preferencesPatchSchema,
} from "./notifications.schemas.ts";
import type { UnsubscribeLinks } from "./unsubscribe-links.ts";

export type NotificationPreferences = Record<NotificationKind, boolean>;

export interface SectionFollow {
  section: FollowableSection;
  createdAt: string;
}

export interface NotificationsService {
  getPreferences(actor: Actor): Promise<NotificationPreferences>;
  /** Sets the given kinds; answers every kind's state. */
  setPreferences(actor: Actor, patch: unknown): Promise<NotificationPreferences>;
  listFollows(actor: Actor): Promise<SectionFollow[]>;
  /** Idempotent. */
  follow(actor: Actor, section: string): Promise<SectionFollow[]>;
  /** Idempotent. */
  unfollow(actor: Actor, section: string): Promise<SectionFollow[]>;
  /** Checks a signed unsubscribe link's values (no sign-in); null when invalid or tampered. */
  checkUnsubscribe(query: {
    u?: unknown;
    k?: unknown;
    sig?: unknown;
  }): { userId: string; kind: NotificationKind } | null;
  /** Turns the linked kind off (idempotent); false when the signature is invalid. */
  unsubscribe(query: {
    u?: unknown;
    k?: unknown;
    sig?: unknown;
  }): Promise<{ userId: string; kind: NotificationKind } | null>;
}

function personOf(actor: Actor): string {
  if (actor.kind === "api-key" || actor.kind === "service")
    throw new ForbiddenError("Notification settings belong to a person: sign in to change them.");
  if (!actor.userId) throw new UnauthenticatedError("Sign in to manage your e-mail notifications.");
  return actor.userId;
}

function sectionOf(section: string): FollowableSection {
  if (!isFollowableSection(section))
    throw new BadInputError(`Unknown section: ${section.slice(0, 60)}`, {
      field: { section: "unknown section" },
    });
  return section;
}

export function createNotificationsService(deps: {
  db: Kysely<DB>;
  links: UnsubscribeLinks;
  now?: () => number;
}): NotificationsService {
  const { db } = deps;
  const nowIso = () => new Date((deps.now ?? Date.now)()).toISOString();

  const read = async (userId: string): Promise<NotificationPreferences> => {
    const rows = await db
      .selectFrom("notification_preference")
      .select(["kind", "enabled"])
      .where("userId", "=", userId)
      .execute();
    const prefs = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, false])) as NotificationPreferences;
    for (const row of rows) if (row.kind in prefs) prefs[row.kind as NotificationKind] = Boolean(row.enabled);
    return prefs;
  };

  const write = async (userId: string, patch: PreferencesPatch) => {
    const at = nowIso();
    for (const kind of NOTIFICATION_KINDS) {
      const enabled = patch[kind];
      if (enabled === undefined) continue;
      await db
        .insertInto("notification_preference")
        .values({ userId, kind, enabled, updatedAt: at })
        .onConflict((oc) => oc.columns(["userId", "kind"]).doUpdateSet({ enabled, updatedAt: at }))
        .execute();
    }
  };

  const follows = async (userId: string): Promise<SectionFollow[]> =>
    (
      await db
        .selectFrom("section_follow")
        .select(["section", "createdAt"])
        .where("userId", "=", userId)
        .orderBy("section")
        .execute()
    ).filter((r): r is SectionFollow => isFollowableSection(r.section));

  return {
    async getPreferences(actor) {
      return read(personOf(actor));
    },
    async setPreferences(actor, patch) {
      const userId = personOf(actor);
      const parsed = preferencesPatchSchema.safeParse(patch);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field =
          issue.code === "unrecognized_keys" ? String(issue.keys[0]) : String(issue.path[0] ?? "body");
        const problem =
          issue.code === "unrecognized_keys"
            ? `unknown notification kind (expected ${NOTIFICATION_KINDS.join(", ")})`
            : "must be true or false";
        throw new BadInputError(`Invalid ${field}: ${problem}`, { field: { [field]: problem } });
      }
      await write(userId, parsed.data);
      return read(userId);
    },
    async listFollows(actor) {
      return follows(personOf(actor));
    },
    async follow(actor, section) {
      const userId = personOf(actor);
      const slug = sectionOf(section);
      await db
        .insertInto("section_follow")
        .values({ userId, section: slug, createdAt: nowIso() })
        .onConflict((oc) => oc.columns(["userId", "section"]).doNothing())
        .execute();
      return follows(userId);
    },
    async unfollow(actor, section) {
      const userId = personOf(actor);
      const slug = sectionOf(section);
      await db
        .deleteFrom("section_follow")
        .where("userId", "=", userId)
        .where("section", "=", slug)
        .execute();
      return follows(userId);
    },
    checkUnsubscribe(query) {
      return deps.links.verify(query);
    },
    async unsubscribe(query) {
      const target = deps.links.verify(query);
      if (!target) return null;
      const exists = await db
        .selectFrom("user")
        .select("id")
        .where("id", "=", target.userId)
        .executeTakeFirst();
      if (exists) await write(target.userId, { [target.kind]: false });
      return target;
    },
  };
}
