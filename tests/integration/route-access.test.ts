/**
 * Every route of spec §2 answered over real HTTP for a visitor and for each demo account,
 * on each database dialect. The expectations are written out per the spec's role table,
 * not computed by the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERSONA_NAMES, type PersonaName } from "../../core/test-personas.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CATEGORIES, DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Persona = PersonaName;
const PERSONAS: readonly Persona[] = PERSONA_NAMES;
type Outcome = 200 | 302 | 403 | 404;

const freeArticle = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article")!;
const collection = DEMO_CONTENT.find((c) => c.type === "collection")!;
const category = DEMO_CATEGORIES[0]!;

const everyone = (code: Outcome): Record<Persona, Outcome> =>
  Object.fromEntries(PERSONAS.map((p) => [p, code])) as Record<Persona, Outcome>;
/** Signed-in users listed get 200, other signed-in users 403, visitors are sent to sign-in. */
const only = (...allowed: Persona[]): Record<Persona, Outcome> =>
  Object.fromEntries(
    PERSONAS.map((p) => [p, p === "visitor" ? 302 : allowed.includes(p) ? 200 : 403]),
  ) as Record<Persona, Outcome>;
const SIGNED_IN: Persona[] = [
  "free",
  "basic",
  "pro",
  "enterprise",
  "business",
  "manager",
  "admin",
  "owner",
  "writer",
];
// The business demo account administers its organisation (org-acme-admin), which the spec maps to Admin.
const MANAGERS: Persona[] = ["business", "manager", "admin", "owner"];
const ADMINS: Persona[] = ["business", "admin", "owner"];
// The studio's screens open to every content writer (decision 018); moderation stays with managers.
const WRITERS: Persona[] = [...MANAGERS, "writer"];
// Platform-scoped admin screens refuse organisation admins (decision 009).
const PLATFORM_ADMINS: Persona[] = ["admin", "owner"];

const EXPECTED: Array<[string, Record<Persona, Outcome>]> = [
  ["/", everyone(200)],
  ["/pricing", everyone(200)],
  ["/auth/signin", everyone(200)],
  ["/auth/signup", everyone(200)],
  ["/auth/confirm", everyone(200)],
  ["/ai-education", everyone(200)],
  ["/workforce-tools", everyone(200)],
  ["/resources", everyone(200)],
  ["/resources/no-such-repository", everyone(404)],
  ["/ai-news", everyone(200)],
  ["/documentation", everyone(200)],
  ["/section/ai-education", everyone(200)],
  [`/category/${category.slug}`, everyone(200)],
  [`/content/${freeArticle.slug}`, everyone(200)],
  ["/content/no-such-item", everyone(404)],
  ["/content/nested/no-such-item", everyone(404)],
  [`/collection/${collection.slug}`, everyone(200)],
  ["/certificates/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", everyone(404)],
  ["/admin-debug", everyone(200)],
  ["/health-check", everyone(200)],
  ["/no/such/page", everyone(404)],
  ["/403", everyone(403)],
  ["/404", everyone(404)],
  ["/subscription", only(...SIGNED_IN)],
  ["/dashboard", only(...SIGNED_IN)],
  ["/profile", only(...SIGNED_IN)],
  ["/settings", only(...SIGNED_IN)],
  ["/individual/dashboard", only(...SIGNED_IN)],
  // Readers below Basic (free, writer) get the reports teaser (no data, an upgrade call to action).
  ["/dashboard/reports", only(...SIGNED_IN)],
  ["/business/dashboard", only("business")],
  ["/business/profile", only("business")],
  // Signed-in individuals create an organisation here; a member of one is sent to its dashboard.
  ["/business/start", { ...only(...SIGNED_IN), business: 302 }],
  ["/content", only(...WRITERS)],
  ["/create", only(...WRITERS)],
  ["/review", only(...WRITERS)],
  // Platform-wide moderation: an organisation admin (business) is refused (admin scope "moderation").
  ["/moderate", only("manager", "admin", "owner")],
  ["/admin", only(...ADMINS)],
  ["/admin/overview", only(...PLATFORM_ADMINS)],
  ["/admin/users", only(...ADMINS)],
  ["/admin/content", only(...PLATFORM_ADMINS)],
  ["/admin/subscriptions", only(...PLATFORM_ADMINS)],
  ["/admin/analytics", only(...PLATFORM_ADMINS)],
  ["/admin/logs", only(...PLATFORM_ADMINS)],
  ["/super-admin", only("owner")],
  ["/super-admin/system-config", only("owner")],
  ["/super-admin/security", only("owner")],
  ["/super-admin/infrastructure", only("owner")],
  ["/super-admin/database", only("owner")],
];

describe.each(DIALECTS)("route access over HTTP (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Persona, string>> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const account of DEMO_ACCOUNTS) {
      cookies[account.key] = await signIn(server.url, account.email, DEMO_PASSWORD);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string, persona: Persona) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      headers: persona === "visitor" ? {} : { cookie: cookies[persona]! },
    });

  for (const persona of PERSONAS) {
    it(`answers every route for ${persona} per the spec`, async () => {
      const failures: string[] = [];
      for (const [path, expected] of EXPECTED) {
        const res = await get(path, persona);
        const want = expected[persona];
        if (res.status !== want) failures.push(`${path}: expected ${want}, got ${res.status}`);
        if (want === 302) {
          const location = res.headers.get("location");
          // A member of an organisation is sent from /business/start to its dashboard.
          const expectedLocation =
            persona !== "visitor" && path === "/business/start"
              ? "/business/dashboard"
              : `/auth/signin?redirect=${encodeURIComponent(path)}`;
          if (location !== expectedLocation) {
            failures.push(`${path}: redirect to ${location}`);
          }
        }
        await res.arrayBuffer();
      }
      expect(failures).toEqual([]);
    });
  }

  it("remembers the query string in the sign-in redirect", async () => {
    const res = await get("/dashboard/reports?range=30d", "visitor");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(
      `/auth/signin?redirect=${encodeURIComponent("/dashboard/reports?range=30d")}`,
    );
  });

  it("guards client-side data requests the same way as documents", async () => {
    const visitor = await get("/admin/users.data", "visitor");
    const body = await visitor.text();
    expect(visitor.status).not.toBe(200);
    expect(body).not.toContain("admin:read");
    const free = await get("/super-admin.data", "free");
    expect(free.status).toBe(403);
    const owner = await get("/super-admin.data", "owner");
    expect(owner.status).toBe(200);
  });

  it("renders the 403 screen with the reason, and the not-found screen", async () => {
    const forbidden = await get("/super-admin", "admin");
    expect(forbidden.status).toBe(403);
    expect(await forbidden.text()).toMatch(/<html/);
    const missing = await get("/definitely/not/here", "visitor");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/not found/i);
  });
});
