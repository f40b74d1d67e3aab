/**
 * Helpers for the organisation and profile integration tests: an organisation written straight
 * to the database, the invitation token read from the outbox, the user context of a cookie.
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { UserContext } from "../../core/index.ts";
import type { DB } from "../../server/db/schema.ts";
import type { Runtime } from "../../server/runtime.ts";
import { mailsTo } from "./auth.ts";

/** An organisation with its two groups and a tenant subscription of `seats` held by `adminId`. */
export async function createOrganization(
  db: Kysely<DB>,
  opts: { slug: string; name: string; seats: number; adminId: string; tier?: string },
): Promise<string> {
  const id = uuidv7();
  const now = new Date().toISOString();
  await db
    .insertInto("organization")
    .values({ id, slug: opts.slug, name: opts.name, logo: null, metadata: null, createdAt: now })
    .execute();
  for (const name of [`org-${opts.slug}`, `org-${opts.slug}-admin`, "Business"]) {
    await db
      .insertInto("group")
      .values({ name, precedence: 20, description: null })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    await db
      .insertInto("user_group")
      .values({ userId: opts.adminId, groupName: name, createdAt: now })
      .execute();
  }
  await db.updateTable("user").set({ accountType: "business" }).where("id", "=", opts.adminId).execute();
  await db
    .insertInto("user_subscription")
    .values({
      id: uuidv7(),
      userId: opts.adminId,
      tier: opts.tier ?? "business",
      tenantId: id,
      status: "active",
      source: "test",
      startedAt: now,
      expiresAt: null,
      canceledAt: null,
      seats: opts.seats,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return id;
}

/** Decodes the quoted-printable soft breaks and `=3D` of an .eml body. */
function decodeQp(mail: string): string {
  return mail
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The invitation token of the newest invitation mailed to `to`, or null. */
export async function latestInviteToken(dataDir: string, to: string): Promise<string | null> {
  for (const mail of await mailsTo(dataDir, to)) {
    const match = /invite=([A-Za-z0-9_-]{20,100})/.exec(decodeQp(mail));
    if (match) return match[1]!;
  }
  return null;
}

/** The user context the next request with this cookie gets (the device headers node's fetch sends). */
export async function contextOf(runtime: Runtime, cookie: string): Promise<UserContext> {
  return runtime.resolveUser(new Headers({ cookie, "user-agent": "node", "accept-language": "*" }));
}

export async function userIdOf(db: Kysely<DB>, email: string): Promise<string> {
  const row = await db
    .selectFrom("user")
    .select("id")
    .where("email", "=", email.toLowerCase())
    .executeTakeFirstOrThrow();
  return row.id;
}
