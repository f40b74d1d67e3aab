/**
 * Webhooks (decision 037), on each database: who may manage endpoints (visitor 401, readers,
 * writers, managers and organisation admins 403, API keys 403, platform admins 200), bad input
 * (400 naming the field), a publish seen by a receiver on localhost within a second with a valid
 * signature and no gated body, updates and archives, a receiver that answers 500 then 200 (the
 * retry after the clock moves), a hanging and a refused endpoint that do not slow the publish,
 * replay (same event id), secret rotation, comment and audit-fed events, and the audit rows.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createAuditRepo } from "../../server/modules/audit/audit.repo.ts";
import { verifyWebhook } from "../../server/modules/webhooks/webhook-signing.ts";
import { call, createReadKey, newAccount, signInCookie } from "../helpers/auth.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/webhooks";
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

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

/** A receiver on an OS-given port: `answer` decides each response (status), `hang` never answers. */
class Receiver {
  received: Received[] = [];
  answers: number[] = [];
  hang = false;
  server!: Server;
  waiters: (() => void)[] = [];
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        this.received.push({ at: Date.now(), headers: req.headers, body, json: JSON.parse(body) });
        for (const w of this.waiters.splice(0)) w();
        if (this.hang) return;
        const status = this.answers.shift() ?? 200;
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(status === 200 ? "ok" : `failure ${status}`);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  /** The first received event matching `match`, waiting up to `ms`. */
  async waitFor(match: (r: Received) => boolean, ms = 3000): Promise<Received> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("the receiver saw no matching event in time");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.each(DIALECTS)("webhooks (%s)", (dialect) => {
  let server: TestServer;
  // Real time plus what the test moved it (deliveries are due by the runtime's clock).
  const clock = {
    offset: 0,
    now: () => Date.now() + clock.offset,
    advance: (ms: number) => {
      clock.offset += ms;
    },
  };
  const cookies: Record<string, string> = {};
  let apiKey = "";
  const good = new Receiver();
  const flaky = new Receiver();
  const hanging = new Receiver();
  let goodUrl = "";
  let flakyUrl = "";
  let hangingUrl = "";
  let secret = "";
  let endpointId = "";
  let n = 0;

  const as = (
    who: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => call(server.url, path, body, { method, cookie: who ? cookies[who] : undefined, headers });
  const json = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(status);
    return (text ? JSON.parse(text) : null) as T;
  };
  const createEndpoint = async (url: string, events: string[]) =>
    json<{ endpoint: { id: string }; secret: string }>(await as("admin", "POST", API, { url, events }), 201);

  async function newItem(tier = "Free") {
    const slug = `hook-${dialect}-${Date.now().toString(36)}-${++n}`;
    const created = await json<{ item: { id: string; version: number } }>(
      await as("manager", "POST", "/api/content", {
        title: "Hooked item",
        slug,
        tier,
        body: "Secret body text.",
      }),
      201,
    );
    return { id: created.item.id, version: created.item.version, slug };
  }
  const transition = async (id: string, version: number, action: string) =>
    as("manager", "POST", `/api/content/${id}/transitions`, { action, version });

  beforeAll(async () => {
    goodUrl = await good.start();
    flakyUrl = await flaky.start();
    hanging.hang = true;
    hangingUrl = await hanging.start();
    server = await startTestServer(dialect, RAISED_RATE_LIMITS, { now: clock.now });
    for (const who of ACCOUNTS)
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    apiKey = await createReadKey(server.url, cookies.admin, "webhooks-test");
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await Promise.all([good.close(), flaky.close(), hanging.close()]);
  });

  it("lets only platform administrators manage endpoints (visitor 401, others 403, API key 403)", async () => {
    expect((await as(null, "GET", API)).status).toBe(401);
    expect((await as(null, "POST", API, { url: goodUrl, events: ["content.published"] })).status).toBe(401);
    for (const who of ACCOUNTS) {
      const list = await as(who, "GET", API);
      expect(list.status, `${who} GET`).toBe(ALLOWED.has(who) ? 200 : 403);
      if (!ALLOWED.has(who)) {
        const create = await as(who, "POST", API, { url: goodUrl, events: ["content.published"] });
        expect(create.status, `${who} POST`).toBe(403);
        expect((await as(who, "POST", `${API}/nope/test`)).status, `${who} test`).toBe(403);
        expect((await as(who, "POST", `${API}/deliveries/nope/replay`)).status, `${who} replay`).toBe(403);
      }
    }
    const byKey = await call(server.url, API, undefined, { headers: { "x-api-key": apiKey } });
    expect(byKey.status).toBe(403);
    const keyCreate = await call(
      server.url,
      API,
      { url: goodUrl, events: ["content.published"] },
      {
        headers: { "x-api-key": apiKey },
      },
    );
    expect(keyCreate.status).toBe(403);
    // Nothing was created by the refused calls.
    expect((await json<{ items: unknown[] }>(await as("admin", "GET", API))).items).toHaveLength(0);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ url: "http://example.com/hook", events: ["content.published"] }, "url"],
      [{ url: "ftp://example.com/hook", events: ["content.published"] }, "url"],
      [{ url: "not a url", events: ["content.published"] }, "url"],
      [{ url: "https://10.1.2.3/hook", events: ["content.published"] }, "url"],
      [{ url: "https://[fd00::1]/hook", events: ["content.published"] }, "url"],
      [{ url: "https://169.254.169.254/latest", events: ["content.published"] }, "url"],
      [{ url: "https://example.com/hook", events: ["content.nope"] }, "events"],
      [{ url: "https://example.com/hook", events: [] }, "events"],
      [{ url: "https://example.com/hook" }, "events"],
      [{ events: ["content.published"] }, "url"],
      [{ url: "https://example.com/hook", events: ["content.published"], secret: "mine" }, "secret"],
      [{ url: "https://example.com/hook", events: ["content.published"], enabled: "yes" }, "enabled"],
    ];
    for (const [body, field] of cases) {
      const res = await as("admin", "POST", API, body);
      const text = await res.text();
      expect(res.status, text).toBe(400);
      const error = (JSON.parse(text) as { error: { message: string; field?: Record<string, string> } })
        .error;
      expect(Object.keys(error.field ?? {}), text).toContain(field);
      expect(error.message).toContain(field);
    }
    const http = await as("admin", "POST", API, {
      url: "http://example.com/hook",
      events: ["content.published"],
    });
    expect(((await http.json()) as { error: { message: string } }).error.message).toMatch(/https/);
    expect((await as("admin", "POST", API, "{bad json")).status).toBe(400);
  });

  it("creates an endpoint, shows the secret once, and audits it", async () => {
    const created = await createEndpoint(goodUrl, [
      "content.published",
      "content.updated",
      "content.archived",
      "comment.posted",
      "user.signed_up",
      "subscription.changed",
    ]);
    secret = created.secret;
    endpointId = created.endpoint.id;
    expect(secret).toMatch(/^whsec_[\w-]{40,}$/);
    const listed = await as("admin", "GET", API);
    const text = await listed.text();
    expect(text).not.toContain(secret);
    expect(text).toContain(secret.slice(-4));
    const one = await json<{ url: string; enabled: boolean; events: string[] }>(
      await as("admin", "GET", `${API}/${endpointId}`),
    );
    expect(one).toMatchObject({ url: goodUrl, enabled: true });
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "webhook_endpoint_created")
      .where("targetId", "=", endpointId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details ?? "").not.toContain(secret);
  });

  it("delivers a publish to a localhost receiver within a second, signed, without the body", async () => {
    const item = await newItem("Pro");
    const started = Date.now();
    const res = await transition(item.id, item.version, "publish");
    expect(res.status, await res.clone().text()).toBe(200);
    const got = await good.waitFor(
      (r) => r.json.type === "content.published" && r.json.data.id === item.id,
      1000,
    );
    expect(got.at - started).toBeLessThan(1000);
    expect(got.headers["webhook-id"]).toBe(got.json.id);
    expect(got.headers["content-type"]).toMatch(/application\/json/);
    expect(
      verifyWebhook(
        secret,
        {
          timestamp: String(got.headers["webhook-timestamp"]),
          signature: String(got.headers["webhook-signature"]),
        },
        got.body,
        Math.floor(clock.now() / 1000),
      ),
    ).toBe(true);
    expect(
      verifyWebhook(
        "whsec_wrong",
        {
          timestamp: String(got.headers["webhook-timestamp"]),
          signature: String(got.headers["webhook-signature"]),
        },
        got.body,
        Math.floor(clock.now() / 1000),
      ),
    ).toBe(false);
    expect(String(got.headers["webhook-signature"])).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(got.json.data).toMatchObject({ id: item.id, slug: item.slug, tier: "Pro", status: "published" });
    expect(String(got.json.data.url)).toMatch(new RegExp(`/content/${item.slug}$`));
    expect(got.body).not.toContain("Secret body text");
    expect(Object.keys(got.json).sort()).toEqual(["createdAt", "data", "id", "type"]);

    // An edit of the live item is content.updated; archiving it is content.archived.
    const version = (
      await server.runtime.database.db
        .selectFrom("content")
        .select("version")
        .where("id", "=", item.id)
        .executeTakeFirstOrThrow()
    ).version;
    const patched = await as("manager", "PATCH", `/api/content/${item.id}`, {
      version,
      title: "Hooked item, edited",
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const updated = await good.waitFor(
      (r) => r.json.type === "content.updated" && r.json.data.id === item.id,
      2000,
    );
    expect(updated.json.data.title).toBe("Hooked item, edited");
    const v = (
      await server.runtime.database.db
        .selectFrom("content")
        .select("version")
        .where("id", "=", item.id)
        .executeTakeFirstOrThrow()
    ).version;
    expect((await transition(item.id, Number(v), "archive")).status).toBe(200);
    await good.waitFor((r) => r.json.type === "content.archived" && r.json.data.id === item.id, 2000);
    // One publish gave one content.published.
    expect(
      good.received.filter((r) => r.json.type === "content.published" && r.json.data.id === item.id),
    ).toHaveLength(1);
  });

  it("a hanging and a refused endpoint do not slow the publish", async () => {
    const closed = new Receiver();
    const closedUrl = await closed.start();
    await closed.close(); // connection refused from now on
    const hang = await createEndpoint(hangingUrl, ["content.published"]);
    const refused = await createEndpoint(closedUrl, ["content.published"]);
    const item = await newItem();
    const started = Date.now();
    const res = await transition(item.id, item.version, "publish");
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(took).toBeLessThan(1000);
    // The healthy receiver is not held up by the others either.
    const got = await good.waitFor(
      (r) => r.json.type === "content.published" && r.json.data.id === item.id,
      1000,
    );
    expect(got.at - started).toBeLessThan(1000);
    await hanging.waitFor((r) => r.json.data.id === item.id, 2000);
    // While the hanging attempt is still open, the next publish reaches the healthy receiver at once.
    const next = await newItem();
    const nextStarted = Date.now();
    expect((await transition(next.id, next.version, "publish")).status).toBe(200);
    const nextGot = await good.waitFor(
      (r) => r.json.type === "content.published" && r.json.data.id === next.id,
      1000,
    );
    expect(nextGot.at - nextStarted).toBeLessThan(1000);
    // The refused one has failed its first attempt and waits a minute for the next.
    const deadline = Date.now() + 3000;
    let log: {
      items: { status: string; attempts: number; error: string | null; nextAttemptAt: string | null }[];
    };
    for (;;) {
      log = await json(await as("admin", "GET", `${API}/${refused.endpoint.id}/deliveries`));
      if (log.items[0]?.attempts === 1 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log.items[0]).toMatchObject({ status: "pending", attempts: 1 });
    expect(log.items[0]!.error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(log.items[0]!.nextAttemptAt!) - clock.now()).toBeGreaterThan(55_000);
    for (const id of [hang.endpoint.id, refused.endpoint.id])
      expect((await as("admin", "DELETE", `${API}/${id}`)).status).toBe(204);
  });

  it("retries a receiver that answered 500, once the back-off has passed", async () => {
    const flakyEndpoint = await createEndpoint(flakyUrl, ["content.published"]);
    flaky.answers.push(500);
    const test = await json<{ id: string; eventId: string }>(
      await as("admin", "POST", `${API}/${flakyEndpoint.endpoint.id}/test`),
      202,
    );
    const first = await flaky.waitFor((r) => r.json.id === test.eventId, 2000);
    expect(first.json.type).toBe("webhook.test");
    let delivery: {
      status: string;
      attempts: number;
      responseStatus: number | null;
      responseExcerpt: string | null;
    };
    const deadline = Date.now() + 3000;
    for (;;) {
      delivery = await json(await as("admin", "GET", `${API}/deliveries/${test.id}`));
      if (delivery.attempts === 1 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500 });
    expect(delivery.responseExcerpt).toContain("failure 500");
    // Not before its time…
    await server.runtime.webhooks.sender.sweep();
    expect(flaky.received.filter((r) => r.json.id === test.eventId)).toHaveLength(1);
    // …and after a minute, the second attempt succeeds.
    clock.advance(61_000);
    await server.runtime.webhooks.sender.sweep();
    await server.runtime.webhooks.sender.idle();
    expect(flaky.received.filter((r) => r.json.id === test.eventId)).toHaveLength(2);
    const after = await json<{
      status: string;
      attempts: number;
      responseStatus: number;
      nextAttemptAt: string | null;
    }>(await as("admin", "GET", `${API}/deliveries/${test.id}`));
    expect(after).toMatchObject({
      status: "succeeded",
      attempts: 2,
      responseStatus: 200,
      nextAttemptAt: null,
    });
    expect((await as("admin", "DELETE", `${API}/${flakyEndpoint.endpoint.id}`)).status).toBe(204);
  });

  it("replays a delivery with the same event id, and signs with a rotated secret", async () => {
    const log = await json<{ items: { id: string; eventId: string; eventType: string; status: string }[] }>(
      await as("admin", "GET", `${API}/${endpointId}/deliveries?limit=100`),
    );
    const original = log.items.find((d) => d.eventType === "content.published" && d.status === "succeeded")!;
    expect(original).toBeDefined();
    const before = good.received.filter((r) => r.json.id === original.eventId).length;
    const rotated = await json<{ secret: string }>(
      await as("admin", "POST", `${API}/${endpointId}/rotate-secret`),
    );
    expect(rotated.secret).not.toBe(secret);
    const replay = await json<{ id: string; eventId: string; replayOf: string }>(
      await as("admin", "POST", `${API}/deliveries/${original.id}/replay`),
      202,
    );
    expect(replay).toMatchObject({ eventId: original.eventId, replayOf: original.id });
    expect(replay.id).not.toBe(original.id);
    const deadline = Date.now() + 2000;
    while (
      good.received.filter((r) => r.json.id === original.eventId).length === before &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 50));
    const copies = good.received.filter((r) => r.json.id === original.eventId);
    expect(copies).toHaveLength(before + 1);
    const last = copies[copies.length - 1]!;
    expect(last.body).toBe(copies[0]!.body);
    const sig = {
      timestamp: String(last.headers["webhook-timestamp"]),
      signature: String(last.headers["webhook-signature"]),
    };
    const nowS = Math.floor(clock.now() / 1000);
    expect(verifyWebhook(rotated.secret, sig, last.body, nowS)).toBe(true);
    expect(verifyWebhook(secret, sig, last.body, nowS)).toBe(false);
    secret = rotated.secret;
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("targetId", "=", endpointId)
      .execute();
    expect(audit.map((a) => a.action)).toContain("webhook_secret_rotated");
    expect((await as("admin", "POST", `${API}/deliveries/no-such-delivery/replay`)).status).toBe(404);
  });

  it("sends comment.posted, user.signed_up and subscription.changed events", async () => {
    const item = await newItem();
    expect((await transition(item.id, item.version, "publish")).status).toBe(200);
    const posted = await as("free", "POST", `/api/content/${item.slug}/comments`, {
      body: "A private remark.",
    });
    expect(posted.status, await posted.clone().text()).toBe(201);
    const comment = await good.waitFor((r) => r.json.type === "comment.posted", 2000);
    expect((comment.json.data.content as { id: string }).id).toBe(item.id);
    expect(comment.body).not.toContain("A private remark");

    // A real sign-up (Better Auth's hook writes the sign_up audit row).
    const account = newAccount("hook");
    const signUp = await call(server.url, "/api/auth/sign-up/email", account);
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const signed = await good.waitFor(
      (r) => r.json.type === "user.signed_up" && r.json.data.email === account.email,
      3000,
    );
    const user = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    expect(signed.json.data.userId).toBe(user.id);

    // An administrator's grant: the operation and the reader's change of access.
    const grant = await as("admin", "POST", "/api/admin/subscriptions", {
      email: "basic@demo.local",
      planId: "pro",
      days: 30,
      note: "webhook test",
    });
    expect(grant.status, await grant.clone().text()).toBeLessThan(300);
    const changed = await good.waitFor(
      (r) => r.json.type === "subscription.changed" && r.json.data.change === "entitlement_changed",
      3000,
    );
    expect(changed.json.data).toMatchObject({ email: "basic@demo.local", toTier: "pro" });
    await good.waitFor(
      (r) => r.json.type === "subscription.changed" && r.json.data.change === "subscription_granted",
      3000,
    );

    // Other audited actions are not events.
    await new Promise((r) => setTimeout(r, 300));
    const count = good.received.length;
    await createAuditRepo(server.runtime.database.db).append({
      action: "lockout",
      targetType: "user",
      targetId: user.id,
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(good.received.length).toBe(count);
  });

  it("stops sending to a disabled endpoint, and edits are validated and audited", async () => {
    const bad = await as("admin", "PATCH", `${API}/${endpointId}`, { events: ["content.published", "nope"] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: Record<string, string> } }).error.field).toHaveProperty(
      "events",
    );
    expect((await as("admin", "PATCH", `${API}/${endpointId}`, { url: "http://example.org/x" })).status).toBe(
      400,
    );
    const off = await json<{ enabled: boolean }>(
      await as("admin", "PATCH", `${API}/${endpointId}`, { enabled: false }),
    );
    expect(off.enabled).toBe(false);
    const count = good.received.length;
    const item = await newItem();
    expect((await transition(item.id, item.version, "publish")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect(good.received.length).toBe(count);
    expect((await as("admin", "POST", `${API}/${endpointId}/test`)).status).toBe(409);
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("targetId", "=", endpointId)
      .where("action", "=", "webhook_endpoint_updated")
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect((await as("admin", "DELETE", `${API}/${endpointId}`)).status).toBe(204);
    expect((await as("admin", "GET", `${API}/${endpointId}`)).status).toBe(404);
  });
});
