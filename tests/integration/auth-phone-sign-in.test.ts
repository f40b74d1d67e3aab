/** Sign-in with a verified phone number and password (spec §5: login names are e-mail or phone). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCKOUT_MESSAGE } from "../../core/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("phone sign-in (%s)", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const db = server.runtime.database.db;
    await db
      .updateTable("user")
      .set({ phoneNumber: "+15550101", phoneNumberVerified: true })
      .where("email", "=", "basic@demo.local")
      .execute();
    await db
      .updateTable("user")
      .set({ phoneNumber: "+15550102", phoneNumberVerified: false })
      .where("email", "=", "pro@demo.local")
      .execute();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify(body),
    });

  it("signs in with a verified number and the password", async () => {
    const res = await post("/api/auth/sign-in/phone", {
      phoneNumber: "+1 (555) 0101",
      password: DEMO_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.includes("session_token"))).toBe(true);
    expect(JSON.stringify(await res.json())).not.toMatch(/token/i);
  });

  it("answers a wrong password, an unknown number and an unverified number the same way", async () => {
    const answers = await Promise.all([
      post("/api/auth/sign-in/phone", { phoneNumber: "+15550101", password: "Wrong-Passw0rd!" }),
      post("/api/auth/sign-in/phone", { phoneNumber: "+15559999", password: DEMO_PASSWORD }),
      post("/api/auth/sign-in/phone", { phoneNumber: "+15550102", password: DEMO_PASSWORD }),
    ]);
    const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.json() })));
    expect(bodies.map((b) => b.status)).toEqual([401, 401, 401]);
    expect(new Set(bodies.map((b) => JSON.stringify(b.body))).size).toBe(1);
  });

  it("refuses a malformed number with a clear 400", async () => {
    const res = await post("/api/auth/sign-in/phone", { phoneNumber: "call me", password: DEMO_PASSWORD });
    expect(res.status).toBe(400);
    expect((await res.json()).message ?? "").toMatch(/phone number/i);
  });

  it("counts phone failures toward the account's lockout", async () => {
    await server.runtime.database.db
      .updateTable("user")
      .set({ phoneNumber: "+15550103", phoneNumberVerified: true })
      .where("email", "=", "enterprise@demo.local")
      .execute();
    for (let i = 0; i < 5; i++) {
      await post("/api/auth/sign-in/phone", { phoneNumber: "+15550103", password: `Wrong-${i}-Passw0rd!` });
    }
    const locked = await post("/api/auth/sign-in/email", {
      email: "enterprise@demo.local",
      password: DEMO_PASSWORD,
    });
    expect(locked.status).toBe(429);
    expect((await locked.json()).message).toBe(LOCKOUT_MESSAGE);
  });
});
