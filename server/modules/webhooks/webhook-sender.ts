/**
 * The webhook sender (decision 037): POSTs due deliveries and records each attempt.
 *
 * - A due row (pending, its next attempt reached, not being sent) is claimed by one conditional
 *   UPDATE that moves its `leaseUntil` ahead, so an attempt runs on one process however many
 *   senders look at once; a process that dies mid-attempt leaves a lease that expires and the row
 *   is tried again.
 * - Each attempt has a timeout (5 s by default, connecting included); a 2xx answer is success;
 *   anything else (another status, a refused connection, a timeout, an address refused by
 *   `webhook-url.ts`) schedules the next attempt after 1 min, 5 min, 30 min, 2 h and 12 h, and
 *   after the sixth attempt the delivery has failed. Redirects are not followed.
 * - `kick` (after an event is recorded) runs passes at once and shortly after (the recording
 *   transaction may commit a moment later); the periodic sweep (every second, under a job lease)
 *   sends whatever is due and prunes deliveries older than 30 days.
 * The writer never waits for any of this.
 */

import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { adoptUnseenContent } from "./webhook-events.ts";
import { signWebhook } from "./webhook-signing.ts";
import { isLoopbackAddress, isPrivateAddress, webhookUrlProblem } from "./webhook-url.ts";

/** Delays after the 1st, 2nd, … failed attempt; after the last one the delivery has failed. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Deliveries older than this are deleted by the sweep. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
const EXCERPT_MAX = 500;
const MAINTENANCE_EVERY_MS = 10 * 60_000;
const BATCH = 20;
/** Attempts one process runs at once. */
const MAX_CONCURRENT = 50;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookSenderDeps {
  db: Kysely<DB>;
  now?: () => number;
  logger?: { warn(details: object, message: string): void };
  timeoutMs?: number;
  allowPrivateNetworks?: boolean;
  userAgent?: string;
}

export interface WebhookSender {
  /** Starts what is due now (at most a few batches); answers the number of attempts started. */
  runDue(): Promise<number>;
  /**
   * One sweep: `runDue`; then, every ten minutes (or when `maintenance` is true), prune old
   * deliveries and adopt content written without hooks.
   */
  sweep(options?: { maintenance?: boolean }): Promise<{ attempts: number; pruned: number }>;
  /** Runs passes now and shortly after (an event was just recorded). */
  kick(): void;
  /** Waits for the passes in flight (tests; shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One POST with the timeout; never throws. */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivateNetworks: boolean },
): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: took() });
    };
    const problem = webhookUrlProblem(target, options);
    if (problem) {
      finish({ ok: false, status: null, excerpt: null, error: `url ${problem}` });
      return;
    }
    const url = new URL(target);
    // Every resolved address is checked before connecting (a public name may point inward).
    const lookup = (
      hostname: string,
      lookupOptions: object,
      callback: (
        error: NodeJS.ErrnoException | null,
        address: string | LookupAddress[],
        family?: number,
      ) => void,
    ) => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error, "", 0);
        const list = addresses as LookupAddress[];
        const refused = list.find(
          (a) =>
            !isLoopbackAddress(a.address) && isPrivateAddress(a.address) && !options.allowPrivateNetworks,
        );
        if (refused) {
          const err = new Error(
            `${hostname} resolves to a private network address (${refused.address}); refused`,
          ) as NodeJS.ErrnoException;
          err.code = "EWEBHOOKPRIVATE";
          return callback(err, "", 0);
        }
        if ((lookupOptions as { all?: boolean }).all) return callback(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      });
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: lookup as never,
        agent: false,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = clip(Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_MAX), EXCERPT_MAX);
          finish({
            ok: status >= 200 && status < 300,
            status,
            excerpt: excerpt || null,
            error: status >= 200 && status < 300 ? null : `answered ${status}`,
          });
          res.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_MAX) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_MAX) done();
        });
        res.on("end", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, excerpt: null, error: `no answer within ${options.timeoutMs} ms` });
      req.destroy();
    }, options.timeoutMs);
    timer.unref();
    req.on("error", (error: NodeJS.ErrnoException) => {
      finish({
        ok: false,
        status: null,
        excerpt: null,
        error: clip(error.code ? `${error.code}: ${error.message}` : error.message, 300),
      });
    });
    req.end(body);
  });
}

export function createWebhookSender(deps: WebhookSenderDeps): WebhookSender {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? 5000;
  const leaseMs = timeoutMs + 30_000;
  const inFlight = new Set<Promise<unknown>>();
  /** Attempts under way (their POST and the row's update). */
  const attempts = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let lastMaintenance = 0;

  async function claimDue(limit: number): Promise<
    {
      id: string;
      endpointId: string;
      eventId: string;
      payload: string;
      attempts: number;
      url: string;
      secret: string;
    }[]
  > {
    const at = now();
    const due = await db
      .selectFrom("webhook_delivery as d")
      .innerJoin("webhook_endpoint as e", "e.id", "d.endpointId")
      .select([
        "d.id",
        "d.endpointId",
        "d.eventId",
        "d.payload",
        "d.attempts",
        "e.url",
        "e.secret",
        "e.enabled",
      ])
      .where("d.status", "=", "pending")
      .where("d.nextAttemptEpoch", "<=", at)
      .where("d.leaseUntil", "<=", at)
      .orderBy("d.nextAttemptEpoch")
      .limit(limit)
      .execute();
    const claimed = [];
    for (const row of due) {
      if (!(row.enabled === true || row.enabled === 1)) continue;
      const result = await db
        .updateTable("webhook_delivery")
        .set({ leaseUntil: at + leaseMs })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .where("leaseUntil", "<=", at)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push({ ...row, attempts: Number(row.attempts) });
    }
    return claimed;
  }

  async function attempt(row: Awaited<ReturnType<typeof claimDue>>[number]): Promise<void> {
    const timestamp = Math.floor(now() / 1000);
    const result = await postWebhook(
      row.url,
      {
        "Content-Type": "application/json",
        "User-Agent": deps.userAgent ?? "LumenHub-Webhooks/1",
        "Webhook-Id": row.eventId,
        "Webhook-Timestamp": String(timestamp),
        "Webhook-Signature": signWebhook(row.secret, timestamp, row.payload),
      },
      row.payload,
      { timeoutMs, allowPrivateNetworks: deps.allowPrivateNetworks ?? false },
    );
    const attempts = row.attempts + 1;
    const at = now();
    const retry = !result.ok && attempts < MAX_ATTEMPTS;
    await db
      .updateTable("webhook_delivery")
      .set({
        status: result.ok ? "succeeded" : retry ? "pending" : "failed",
        attempts,
        nextAttemptEpoch: retry ? at + RETRY_DELAYS_MS[attempts - 1]! : null,
        leaseUntil: 0,
        lastAttemptAt: new Date(at).toISOString(),
        responseStatus: result.status,
        responseExcerpt: result.excerpt,
        durationMs: result.durationMs,
        error: result.error,
      })
      .where("id", "=", row.id)
      .execute();
  }

  /**
   * Claims what is due and starts the attempts without waiting for them (a slow receiver never
   * holds up the next pass), at most MAX_CONCURRENT at a time; answers the attempts started.
   */
  async function runDue(): Promise<number> {
    let started = 0;
    for (let round = 0; round < 5 && !stopped; round++) {
      const room = MAX_CONCURRENT - attempts.size;
      if (room <= 0) break;
      const claimed = await claimDue(Math.min(BATCH, room));
      for (const row of claimed) {
        const running: Promise<void> = attempt(row)
          .catch((error: unknown) =>
            deps.logger?.warn({ err: error }, "webhooks: an attempt could not be recorded"),
          )
          .finally(() => attempts.delete(running));
        attempts.add(running);
      }
      started += claimed.length;
      if (claimed.length < BATCH) break;
    }
    return started;
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  let kickRunning: Promise<number> | null = null;
  let kickAgain = false;
  function kickPass(): void {
    if (stopped) return;
    if (kickRunning) {
      kickAgain = true;
      return;
    }
    kickRunning = track(
      runDue().catch((error: unknown) => {
        deps.logger?.warn({ err: error }, "webhooks: a delivery pass failed");
        return 0;
      }),
    );
    void kickRunning.finally(() => {
      kickRunning = null;
      if (kickAgain) {
        kickAgain = false;
        kickPass();
      }
    });
  }

  return {
    runDue: () => track(runDue()),
    async sweep(options = {}) {
      const attempts = await track(runDue());
      const due = options.maintenance ?? now() - lastMaintenance >= MAINTENANCE_EVERY_MS;
      if (!due) return { attempts, pruned: 0 };
      lastMaintenance = now();
      const cutoff = now() - DELIVERY_RETENTION_MS;
      const pruned = await db
        .deleteFrom("webhook_delivery")
        .where("createdEpoch", "<", cutoff)
        .executeTakeFirst();
      await adoptUnseenContent(db);
      return { attempts, pruned: Number(pruned.numDeletedRows) };
    },
    kick() {
      if (stopped) return;
      // At once, and again shortly after: a recording transaction commits a moment after its kick.
      for (const delay of [0, 150, 600]) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          kickPass();
        }, delay);
        timer.unref();
        timers.add(timer);
      }
    },
    async idle() {
      while (inFlight.size > 0 || attempts.size > 0) await Promise.allSettled([...inFlight, ...attempts]);
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      while (inFlight.size > 0 || attempts.size > 0) await Promise.allSettled([...inFlight, ...attempts]);
    },
  };
}
