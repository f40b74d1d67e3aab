import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildUserContext, visitorContext } from "../../../core/index.ts";
import { actorOf } from "../../../tests/factories/actors.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { type AccountService, createAccountService } from "./account.service.ts";
import { createUsersRepo } from "./users.repo.ts";

const tag = randomUUID().slice(0, 8);
const ids = { member: `member-${tag}`, outsider: `outsider-${tag}`, orgAdmin: `org-admin-${tag}` };
const org = `acme${tag}`;
const NOW = Date.UTC(2026, 0, 10, 12);

/** A signed-in user's context with these groups. */
const userContext = (userId: string, groups: string[]) =>
  buildUserContext({ sub: userId, email: `${userId}@demo.local`, "cognito:groups": groups });

describe.each(testDialects())("account operations on %s", (dialect) => {
  let t: TestDatabase;
  let accounts: AccountService;
  const audit = { record: vi.fn(async () => {}) };
  const unlockAccount = vi.fn(async (_userId: string) => true);

  /** A signed-in member's actor whose request came with session `sessionId`. */
  const sessionActor = (userId: string, sessionId: string) =>
    actorOf(
      buildUserContext(
        { sub: userId, email: `${userId}@demo.local` },
        {
          session: {
            sessionId,
            issuedAt: NOW - 60_000,
            expiresAt: NOW + 3_600_000,
            idleTimeoutMs: 1_800_000,
            absoluteTimeoutMs: 86_400_000,
            lastRotatedAt: NOW - 60_000,
            rotationIntervalMs: 21_600_000,
          },
        },
      ),
    );

  const addSession = async (userId: string, id: string, lastActiveAt: number) => {
    const at = new Date(NOW).toISOString();
    await t.db
      .insertInto("session")
      .values({
        id,
        token: `tok-${id}`,
        userId,
        expiresAt: at,
        createdAt: at,
        updatedAt: at,
        issuedAt: NOW - 60_000,
        lastActiveAt,
      })
      .execute();
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    accounts = createAccountService({ db: t.db, now: () => NOW, audit, unlockAccount });
    const repo = createUsersRepo(t.db);
    for (const [key, id] of Object.entries(ids)) {
      await repo.create({ id, name: key, email: `${id}@demo.local`, username: `u${key}${tag}` });
    }
    await repo.ensureGroups([{ name: `org-${org}` }, { name: `org-${org}-admin` }]);
    await repo.addAll(ids.member, [`org-${org}`]);
    await repo.addAll(ids.orgAdmin, [`org-${org}`, `org-${org}-admin`]);
    await t.db
      .updateTable("user")
      .set({ phoneNumber: "+15550100", phoneNumberVerified: true })
      .where("id", "=", ids.member)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists the caller's sessions, most recently active first, marking the current one", async () => {
    await addSession(ids.member, `a-${tag}`, NOW - 5_000);
    await addSession(ids.member, `b-${tag}`, NOW - 1_000);
    await addSession(ids.outsider, `c-${tag}`, NOW);
    const list = await accounts.listSessions(sessionActor(ids.member, `a-${tag}`));
    expect(list.map((s) => [s.id, s.current])).toEqual([
      [`b-${tag}`, false],
      [`a-${tag}`, true],
    ]);
    expect(list[0]!.lastActiveAt).toBe(new Date(NOW - 1_000).toISOString());
    expect(list[0]).not.toHaveProperty("token");
  });

  it("revokes only the caller's own sessions (NOT_FOUND otherwise), audited", async () => {
    const owner = sessionActor(ids.member, `a-${tag}`);
    const meta = { ip: "203.0.113.5" };
    await expect(accounts.revokeSession(owner, `c-${tag}`, meta)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No such session on your account.",
    });
    await accounts.revokeSession(owner, `b-${tag}`, meta);
    expect(audit.record).toHaveBeenLastCalledWith("session_revoked", {
      actorId: ids.member,
      ip: "203.0.113.5",
      targetType: "session",
      targetId: `b-${tag}`,
      details: { scope: "one" },
    });
    await accounts.revokeAllSessions(owner, meta);
    expect(await accounts.listSessions(owner)).toEqual([]);
    expect(await accounts.sessionUserId(`tok-c-${tag}`)).toBe(ids.outsider);
  });

  it("unlock: refuses visitors and members, keeps an organisation admin to its members", async () => {
    const meta = { ip: null };
    await expect(accounts.unlock(actorOf(visitorContext()), ids.member, meta)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    const member = userContext(ids.member, [`org-${org}`]);
    await expect(accounts.unlock(actorOf(member), ids.outsider, meta)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const orgAdmin = userContext(ids.orgAdmin, [`org-${org}`, `org-${org}-admin`]);
    await expect(accounts.unlock(actorOf(orgAdmin), ids.outsider, meta)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No such user.",
    });
    expect(unlockAccount).not.toHaveBeenCalled();
    expect(await accounts.unlock(actorOf(orgAdmin), ids.member, meta)).toEqual({
      userId: ids.member,
      unlocked: true,
    });
    expect(unlockAccount).toHaveBeenCalledWith(ids.member);
    expect(audit.record).toHaveBeenLastCalledWith(
      "admin_unlock",
      expect.objectContaining({ targetId: ids.member }),
    );
    const platform = userContext(`admin-${tag}`, ["app-admin"]);
    expect(await accounts.unlock(actorOf(platform), ids.outsider, meta)).toEqual({
      userId: ids.outsider,
      unlocked: true,
    });
    await expect(accounts.unlock(actorOf(platform), `nobody-${tag}`, meta)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("finds the e-mail of a username or a verified phone; an unknown one gets an address no account has", async () => {
    expect(await accounts.emailForUsername(` Umember${tag} `)).toBe(`${ids.member}@demo.local`);
    expect(await accounts.emailForVerifiedPhone("+1 (555) 0100")).toBe(`${ids.member}@demo.local`);
    const unknown = await accounts.emailForUsername(`nobody${tag}`);
    expect(unknown).toMatch(/^no-account-[0-9a-f]{32}@invalid\.local$/);
    expect(await accounts.emailForUsername(`nobody${tag}`)).not.toBe(unknown);
    expect(await accounts.emailForVerifiedPhone("+15550199")).toMatch(/@invalid\.local$/);
  });
});
