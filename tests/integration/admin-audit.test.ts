/**
 * The audit log for platform administrators (issue 14, /admin/logs and GET /api/admin/audit*):
 * who may read it (every demo account, a visitor and an API key), each filter, keyset paging both
 * ways, bad parameters (400 naming the parameter), the CSV/JSON export (attachment, contents,
 * formula-injection escaping) and the screen's server-rendered rows.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createAuditRepo } from "../../server/modules/audit/audit.repo.ts";
import type { AuditLogItem } from "../../server/modules/audit/audit-log.service.ts";
import { call, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/audit";
const EXPORT = "/api/admin/audit/export";
const ACCOUNTS = [
  "free",
  "basic",
  "pro",
  "enterprise",
  "business",
  "manager",
  "admin",
  "owner",
  "writer",
] as const;
const ALLOWED = new Set(["admin", "owner"]);

interface Page {
  items: AuditLogItem[];
  nextCursor: string | null;
}

describe.each(DIALECTS)("audit log API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";
  let adminId = "";
  const marker = `mk${randomUUID().replace(/-/g, "")}`;
  const target = `t-${randomUUID()}`;
  const ids: Record<"lock" | "unlock" | "custom", string> = { lock: "", unlock: "", custom: "" };

  const get = (path: string, who: string | null = "admin", headers: Record<string, string> = {}) =>
    call(server.url, path, undefined, { cookie: who ? cookies[who] : undefined, headers });
  const list = async (query: string): Promise<Page> => {
    const res = await get(`${API}?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Page;
  };
  const idsOf = (page: Page) => page.items.map((i) => i.id);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const who of ACCOUNTS)
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    const key = await call(
      server.url,
      "/api/account/api-keys",
      { name: "CI", scopes: ["content:read"] },
      { cookie: cookies.admin },
    );
    expect(key.status).toBe(201);
    apiKey = ((await key.json()) as { key: string }).key;
    const admin = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "admin@demo.local")
      .executeTakeFirstOrThrow();
    adminId = admin.id;
    const repo = createAuditRepo(server.runtime.database.db);
    ids.lock = (
      await repo.append({
        action: "lockout",
        at: "2031-01-01T10:00:00.000Z",
        targetType: "user",
        targetId: target,
        ip: "203.0.113.7",
        details: { reason: "too many failures", marker },
      })
    ).id;
    ids.unlock = (
      await repo.append({
        action: "admin_unlock",
        actorId: adminId,
        at: "2031-01-02T10:00:00.000Z",
        targetType: "user",
        targetId: target,
        details: { note: `=HYPERLINK("http://evil") ${marker}` },
      })
    ).id;
    ids.custom = (
      await repo.append({
        action: "custom.thing",
        actorId: adminId,
        at: "2031-01-03T10:00:00.000Z",
        targetType: "@evil",
        targetId: "=SUM(1+1)",
        ip: "-10.0.0.1",
        details: { marker, text: 'needle_%, with "quotes"' },
      })
    ).id;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const paths = [API, `${EXPORT}?format=csv`, `${EXPORT}?format=json`];

    it("refuses visitors (401)", async () => {
      for (const path of paths) {
        const res = await get(path, null);
        expect(res.status, path).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("lets only platform administrators in: every demo account", async () => {
      for (const who of ACCOUNTS) {
        for (const path of paths) {
          const res = await get(path, who);
          expect(res.status, `${who} ${path}`).toBe(ALLOWED.has(who) ? 200 : 403);
          if (!ALLOWED.has(who)) expect((await res.json()).error.code).toBe("FORBIDDEN");
          else await res.arrayBuffer();
        }
      }
    });

    it("refuses API keys (403), alone or next to an admin's cookie", async () => {
      for (const path of paths) {
        const res = await get(path, null, { "x-api-key": apiKey });
        expect(res.status, path).toBe(403);
        const both = await get(path, "admin", { "x-api-key": apiKey });
        expect(both.status, path).toBe(403);
      }
    });

    it("answers the screen to platform admins only (organisation admin 403)", async () => {
      for (const who of ACCOUNTS) {
        const res = await get(`/admin/logs?q=${marker}`, who);
        expect(res.status, who).toBe(ALLOWED.has(who) ? 200 : 403);
        const html = await res.text();
        expect(html.includes("Account unlocked by an admin"), who).toBe(ALLOWED.has(who));
      }
      const visitor = await fetch(`${server.url}/admin/logs`, { redirect: "manual" });
      expect([302, 303]).toContain(visitor.status);
    });
  });

  describe("filters", () => {
    it("searches the details text, newest first, with actor, label and category", async () => {
      const page = await list(`q=${marker}`);
      expect(idsOf(page)).toEqual([ids.custom, ids.unlock, ids.lock]);
      const [custom, unlock, lock] = page.items;
      expect(unlock).toMatchObject({
        action: "admin_unlock",
        label: "Account unlocked by an admin",
        category: "admin",
        actor: { id: adminId, email: "admin@demo.local" },
        targetType: "user",
        targetId: target,
      });
      expect(lock).toMatchObject({ actor: null, category: "security", ip: "203.0.113.7" });
      expect(lock?.details).toEqual({ reason: "too many failures", marker });
      expect(custom).toMatchObject({ category: "other", label: "Custom thing" });
    });

    it("searches the actor's e-mail and the target id, case-insensitively; % and _ are literal", async () => {
      const byEmail = idsOf(await list("q=ADMIN%40DEMO.LOCAL&limit=100"));
      expect(byEmail).toContain(ids.unlock);
      expect(byEmail).not.toContain(ids.lock);
      expect(idsOf(await list(`q=${target.toUpperCase()}`))).toEqual([ids.unlock, ids.lock]);
      expect(idsOf(await list(`q=${encodeURIComponent("needle_%")}`))).toEqual([ids.custom]);
      expect(idsOf(await list(`q=${encodeURIComponent("needle%_")}`))).toEqual([]);
    });

    it("filters by actor: e-mail, user id or system", async () => {
      expect(idsOf(await list(`q=${marker}&actor=Admin%40demo.local`))).toEqual([ids.custom, ids.unlock]);
      expect(idsOf(await list(`q=${marker}&actor=${adminId}`))).toEqual([ids.custom, ids.unlock]);
      expect(idsOf(await list(`q=${marker}&actor=system`))).toEqual([ids.lock]);
      expect(idsOf(await list(`q=${marker}&actor=nobody%40demo.local`))).toEqual([]);
    });

    it("filters by one or several actions and by kind", async () => {
      expect(idsOf(await list(`q=${marker}&action=lockout`))).toEqual([ids.lock]);
      expect(idsOf(await list(`q=${marker}&action=lockout,admin_unlock`))).toEqual([ids.unlock, ids.lock]);
      expect(idsOf(await list(`q=${marker}&action=lockout&action=custom.thing`))).toEqual([
        ids.custom,
        ids.lock,
      ]);
      expect(idsOf(await list(`q=${marker}&kind=security`))).toEqual([ids.lock]);
      expect(idsOf(await list(`q=${marker}&kind=admin`))).toEqual([ids.unlock]);
      expect(idsOf(await list(`q=${marker}&kind=other`))).toEqual([ids.custom]);
      expect(idsOf(await list(`q=${marker}&kind=billing`))).toEqual([]);
    });

    it("filters by target type and id", async () => {
      expect(idsOf(await list(`targetType=user&targetId=${target}`))).toEqual([ids.unlock, ids.lock]);
      expect(idsOf(await list(`targetId=${encodeURIComponent("=SUM(1+1)")}`))).toEqual([ids.custom]);
      expect(idsOf(await list(`targetType=plan&targetId=${target}`))).toEqual([]);
    });

    it("filters by time: a date covers its whole day, a date-time is exact", async () => {
      expect(idsOf(await list(`q=${marker}&from=2031-01-02&to=2031-01-02`))).toEqual([ids.unlock]);
      expect(idsOf(await list(`q=${marker}&from=2031-01-02T10:00:00Z`))).toEqual([ids.custom, ids.unlock]);
      expect(idsOf(await list(`q=${marker}&to=2031-01-02T10:00:00.000Z`))).toEqual([ids.unlock, ids.lock]);
      expect(idsOf(await list(`q=${marker}&to=2031-01-01T09:59:59Z`))).toEqual([]);
    });

    it("sorts oldest first on request", async () => {
      expect(idsOf(await list(`q=${marker}&sort=oldest`))).toEqual([ids.lock, ids.unlock, ids.custom]);
    });
  });

  describe("paging", () => {
    for (const [sort, order] of [
      ["newest", ["custom", "unlock", "lock"]],
      ["oldest", ["lock", "unlock", "custom"]],
    ] as const) {
      it(`walks every row once, ${sort} first`, async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: Page = await list(
            `q=${marker}&sort=${sort}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          );
          seen.push(...idsOf(page));
          cursor = page.nextCursor;
          pages += 1;
        } while (cursor && pages < 10);
        expect(seen).toEqual(order.map((k) => ids[k]));
      });
    }
  });

  describe("bad parameters", () => {
    const cases: Array<[string, string]> = [
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["limit=101", "limit"],
      ["from=yesterday", "from"],
      ["to=2031-02-30", "to"],
      ["from=2031-01-03&to=2031-01-01", "to"],
      ["kind=nonsense", "kind"],
      ["sort=random", "sort"],
      ["cursor=%21%21", "cursor"],
      ["cursor=eyJ4IjoxfQ", "cursor"],
      ["actor=a&actor=b", "actor"],
      ["color=red", "color"],
      [`q=${"x".repeat(201)}`, "q"],
      ["format=csv", "format"],
    ];
    for (const [query, field] of cases) {
      it(`${query.slice(0, 40)} → 400 naming ${field}`, async () => {
        const res = await get(`${API}?${query}`);
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: { code: string; field?: Record<string, string> } };
        expect(body.error.code).toBe("BAD_USER_INPUT");
        expect(Object.keys(body.error.field ?? {})).toEqual([field]);
      });
    }

    it("export: a bad format or filter is 400 before any row is sent", async () => {
      for (const [query, field] of [
        ["format=xml", "format"],
        ["format=csv&kind=x", "kind"],
        ["format=csv&limit=5", "limit"],
      ]) {
        const res = await get(`${EXPORT}?${query}`);
        expect(res.status, query).toBe(400);
        const body = (await res.json()) as { error: { field?: Record<string, string> } };
        expect(Object.keys(body.error.field ?? {})).toEqual([field]);
      }
    });
  });

  describe("export", () => {
    it("CSV: an attachment with the filtered rows, formula-looking cells prefixed with '", async () => {
      const res = await get(`${EXPORT}?q=${marker}&format=csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/csv");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-.*\.csv"$/);
      const text = await res.text();
      const lines = text.trimEnd().split("\r\n");
      expect(lines[0]).toBe(
        "at,actorId,actorEmail,actorName,action,label,category,targetType,targetId,ip,details",
      );
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain("2031-01-03T10:00:00.000Z");
      expect(lines[1]).toContain(",custom.thing,Custom thing,other,'@evil,'=SUM(1+1),'-10.0.0.1,");
      expect(lines[1]).toContain('"{""marker"":');
      expect(lines[1]).toContain('needle_%, with \\""quotes\\""');
      expect(lines[2]).toContain(`${adminId},admin@demo.local,`);
      expect(lines[3]).toMatch(/^2031-01-01T10:00:00.000Z,,,,lockout,Account locked out,security,user,/);
      // No cell of the file starts with a formula character unescaped.
      for (const line of lines.slice(1)) {
        for (const cell of line.split(",")) expect(cell).not.toMatch(/^[=+\-@]/);
      }
    });

    it("JSON: the same rows in the same order, oldest first on request", async () => {
      const res = await get(`${EXPORT}?q=${marker}&format=json&sort=oldest`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-.*\.json"$/);
      const rows = (await res.json()) as AuditLogItem[];
      expect(rows.map((r) => r.id)).toEqual([ids.lock, ids.unlock, ids.custom]);
      expect(rows[1]?.details).toEqual({ note: `=HYPERLINK("http://evil") ${marker}` });
    });

    it("an export with no match is a header (CSV) or an empty array (JSON)", async () => {
      const csv = await get(`${EXPORT}?q=nothing-${marker}&format=csv`);
      expect((await csv.text()).trimEnd().split("\r\n")).toHaveLength(1);
      const json = await get(`${EXPORT}?q=nothing-${marker}&format=json`);
      expect(await json.json()).toEqual([]);
    });
  });
});
