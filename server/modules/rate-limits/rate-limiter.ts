/**
 * Fixed-window rate limiting shared by every server process through a `CounterStore` (the
 * database), in two modes (decision 014):
 *
 * - `exact` (writes, comments): every charge is one conditional upsert in the store, so the limit
 *   holds exactly across processes. Writes are rare and write to the database anyway.
 * - `batched` (reads, GraphQL cost): the hot path never waits for the store. Each process keeps,
 *   per key and window, the last global count it read (`known`), the units it is sending
 *   (`inflight`) and the units not yet sent (`pending`). A charge is refused when
 *   known + inflight + pending + cost > limit (every term is a lower bound of the true count, so
 *   a refusal is never wrong). Pending units are sent every `syncIntervalMs`, and at once (the
 *   request waits) when they would pass `syncFraction` of the limit; each send returns the new
 *   global count. So a process never holds more than max(syncFraction × limit, one request's
 *   cost) unsent units, and the global count can pass the limit by at most about that much per
 *   process (one process: exact).
 *
 * A store failure never fails a request (logged; the units are retried with the next send).
 */
import type { CounterStore } from "./counter-store.ts";

export interface RateRule {
  /** Short name, part of every key (`r` reads, `w` writes …). */
  name: string;
  /** Units per window. */
  limit: number;
  windowMs: number;
  mode: "exact" | "batched";
}

export interface RateCharge {
  rule: RateRule;
  /** The caller within the rule (`u:<userId>`, `a:<address>`). */
  subject: string;
  cost: number;
}

export type RateVerdict =
  | { ok: true; limit: number; remaining: number; resetS: number }
  | { ok: false; limit: number; retryAfterS: number; rule: string; subject: string };

/** Rounds of sending a charge may wait for under contention before it is counted anyway. */
const MAX_SEND_ROUNDS = 50;

interface Slot {
  windowStart: number;
  windowMs: number;
  known: number;
  inflight: number;
  pending: number;
  sending: Promise<void> | null;
}

export interface RateLimiterOptions {
  store: CounterStore;
  now?: () => number;
  /** How often pending units are sent (ms). */
  syncIntervalMs?: number;
  /** Pending units above this fraction of a limit are sent before the next charge. */
  syncFraction?: number;
  onError?: (error: unknown) => void;
}

export function createRateLimiter(options: RateLimiterOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  const syncFraction = options.syncFraction ?? 0.1;
  const slots = new Map<string, Slot>();
  const onError = options.onError ?? (() => {});

  const keyOf = (c: RateCharge) => `${c.rule.name}:${c.subject}`;
  const windowOf = (rule: RateRule, t: number) => t - (t % rule.windowMs);
  const secondsLeft = (rule: RateRule, t: number) =>
    Math.max(1, Math.ceil((windowOf(rule, t) + rule.windowMs - t) / 1000));

  function slotFor(key: string, rule: RateRule, t: number): Slot {
    const windowStart = windowOf(rule, t);
    let slot = slots.get(key);
    if (!slot || slot.windowStart !== windowStart) {
      slot = { windowStart, windowMs: rule.windowMs, known: 0, inflight: 0, pending: 0, sending: null };
      slots.set(key, slot);
    }
    return slot;
  }

  /** Sends the slot's pending units and reads back the global count; false when the store failed. */
  async function send(key: string, slot: Slot): Promise<boolean> {
    if (slot.sending) {
      // Another request is sending this slot: wait for the new count, then the caller checks again.
      await slot.sending;
      return true;
    }
    if (slot.pending === 0) return true;
    const amount = slot.pending;
    slot.pending = 0;
    slot.inflight = amount;
    let ok = true;
    slot.sending = store
      .add(key, slot.windowStart, amount)
      .then((total) => {
        slot.known = Math.max(slot.known, total);
      })
      .catch((error) => {
        ok = false;
        slot.pending += amount;
        onError(error);
      })
      .finally(() => {
        slot.inflight = 0;
        slot.sending = null;
      });
    await slot.sending;
    return ok;
  }

  const used = (slot: Slot) => slot.known + slot.inflight + slot.pending;

  /** Whether the charge would leave more than the sync threshold unsent (then it sends first). */
  const sendDue = (charge: RateCharge, t: number) => {
    const slot = slotFor(keyOf(charge), charge.rule, t);
    const threshold = Math.max(1, Math.floor(charge.rule.limit * syncFraction));
    return slot.pending > 0 && slot.pending + charge.cost > threshold;
  };

  const refusal = (charge: RateCharge, t: number): RateVerdict => ({
    ok: false,
    limit: charge.rule.limit,
    retryAfterS: secondsLeft(charge.rule, t),
    rule: charge.rule.name,
    subject: charge.subject,
  });

  return {
    /**
     * Charges the request to every key, or to none: refused when any key is over its limit.
     * The verdict of an accepted charge describes the key with the fewest units left.
     */
    async charge(charges: RateCharge[]): Promise<RateVerdict> {
      const t = now();
      const batched = charges.filter((c) => c.rule.mode === "batched" && c.cost > 0);
      const exact = charges.filter((c) => c.rule.mode === "exact" && c.cost > 0);
      // Check, send where due, check again…; the last check and the reservation are one
      // synchronous step, so no other request slips in between.
      for (let round = 0; ; round++) {
        for (const charge of batched) {
          if (used(slotFor(keyOf(charge), charge.rule, t)) + charge.cost > charge.rule.limit) {
            return refusal(charge, t);
          }
        }
        const due = batched.filter((charge) => sendDue(charge, t));
        if (due.length === 0 || round >= MAX_SEND_ROUNDS) break;
        const sent = await Promise.all(
          due.map((charge) => send(keyOf(charge), slotFor(keyOf(charge), charge.rule, t))),
        );
        if (sent.includes(false)) break; // the store is failing: keep serving
      }
      for (const charge of batched) slotFor(keyOf(charge), charge.rule, t).pending += charge.cost;

      const done: RateCharge[] = [];
      let tightest: RateVerdict = { ok: true, limit: 0, remaining: Number.POSITIVE_INFINITY, resetS: 0 };
      const note = (charge: RateCharge, total: number) => {
        const remaining = Math.max(0, charge.rule.limit - total);
        if (tightest.ok && remaining < tightest.remaining) {
          tightest = { ok: true, limit: charge.rule.limit, remaining, resetS: secondsLeft(charge.rule, t) };
        }
      };
      for (const charge of exact) {
        const windowStart = windowOf(charge.rule, t);
        let total: number | null;
        try {
          total = await store.addWithin(keyOf(charge), windowStart, charge.cost, charge.rule.limit);
        } catch (error) {
          onError(error);
          continue;
        }
        if (total === null) {
          // Give back what this request already took from the other keys.
          for (const previous of batched) {
            const slot = slotFor(keyOf(previous), previous.rule, t);
            slot.pending = Math.max(0, slot.pending - previous.cost);
          }
          for (const previous of done) {
            await store.subtract(keyOf(previous), windowOf(previous.rule, t), previous.cost).catch(onError);
          }
          return refusal(charge, t);
        }
        done.push(charge);
        note(charge, total);
      }
      for (const charge of batched) note(charge, used(slotFor(keyOf(charge), charge.rule, t)));
      const result = tightest as RateVerdict;
      return result.ok && result.remaining === Number.POSITIVE_INFINITY
        ? { ok: true, limit: 0, remaining: 0, resetS: 0 }
        : result;
    },

    /** Sends every pending unit and forgets the slots of windows that are over. */
    async flush(): Promise<void> {
      const t = now();
      const sends: Promise<boolean>[] = [];
      for (const [key, slot] of slots) {
        if (slot.pending > 0) sends.push(send(key, slot));
        else if (!slot.sending && slot.windowStart + slot.windowMs <= t) slots.delete(key);
      }
      await Promise.all(sends);
    },

    /** Deletes stored counters of windows that ended long ago. */
    purge(olderThanMs: number): Promise<void> {
      return store.purge(now() - olderThanMs);
    },

    /** Keys held in memory (tests). */
    get size(): number {
      return slots.size;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
