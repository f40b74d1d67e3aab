/**
 * Sessions and claims read once per couple of seconds instead of once per request (decision 023).
 *
 * - Entries live at most `ttlMs` (2 s): whatever no signal reaches (a subscription that runs out
 *   with nobody writing, a write made while a read was in flight) is current again within that.
 * - Any write to an identity table through this process's Kysely instance (Better Auth, the
 *   services, tests) drops every entry before the statement runs and again once it returned
 *   (`plugin`), so sign-out, revocation, a ban, a role or a subscription change made here take
 *   effect on the very next request. Recording session activity is not such a write.
 * - Writes from other processes, replicas or an operator's SQL move `identity_revision` (database
 *   triggers, migration 037); `revalidate` reads it before a request uses an entry (one
 *   primary-key read, shared by the requests that arrived while the previous one ran) and drops
 *   every entry when it moved, so they count on this process's next request too.
 * - A read that started before an invalidation is not stored (the generation moved meanwhile).
 * Keys are SHA-256 hashes of session tokens and user ids; the raw token is never kept.
 */
import { createHash } from "node:crypto";
import type {
  Kysely,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import type { DB } from "../db/schema.ts";

/** The tables whose writes change a session's validity or a user's claims (as the triggers). */
export const IDENTITY_TABLES: ReadonlySet<string> = new Set([
  "session",
  "user",
  "user_group",
  "user_subscription",
  "organization",
  "twoFactor",
]);

/** Session columns whose update does not invalidate (activity bookkeeping; see migration 037). */
const SESSION_ACTIVITY_COLUMNS: ReadonlySet<string> = new Set(["lastActiveAt", "updatedAt"]);

const RAW_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+(?:"?\w+"?\.)?"?(\w+)"?/gi;

interface Entry<T> {
  value: T;
  at: number;
}

export interface IdentityCacheStats {
  sessions: number;
  claims: number;
  hits: number;
  misses: number;
  invalidations: number;
  maxEntries: number;
  ttlMs: number;
}

export interface IdentityCacheOptions {
  /** How long an entry is used without a new read (ms). Default 2000. */
  ttlMs?: number;
  /** Entries per map (sessions, claims); the oldest go first. Default 10,000. */
  maxEntries?: number;
  /** Monotonic clock for entry ages (ms). Default `performance.now`. */
  clock?: () => number;
  /**
   * Reads `identity_revision`. With it, `revalidate` checks the revision before a cached entry is
   * used, so writes of other processes count on the next request here too.
   */
  readRevision?: () => Promise<number>;
}

function tableOf(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (node.kind === "TableNode") {
    return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  }
  if (node.kind === "AliasNode") return tableOf((node as unknown as { node: OperationNode }).node);
  return null;
}

/** Whether a statement writes an identity table in a way that may change a session or claims. */
export function writesIdentity(node: RootOperationNode): boolean {
  switch (node.kind) {
    case "InsertQueryNode":
      return IDENTITY_TABLES.has(tableOf(node.into) ?? "");
    case "DeleteQueryNode":
      return node.from.froms.some((f) => IDENTITY_TABLES.has(tableOf(f) ?? ""));
    case "UpdateQueryNode": {
      const table = tableOf(node.table);
      if (!table || !IDENTITY_TABLES.has(table)) return false;
      if (table !== "session") return true;
      const columns = (node.updates ?? []).map(
        (u) => (u.column as unknown as { column?: { name?: string } }).column?.name ?? "",
      );
      return columns.length === 0 || columns.some((c) => !SESSION_ACTIVITY_COLUMNS.has(c));
    }
    case "RawNode": {
      const text = node.sqlFragments.join(" ");
      for (const m of text.matchAll(RAW_WRITE)) if (IDENTITY_TABLES.has(m[1]!)) return true;
      return false;
    }
    default:
      return false;
  }
}

export function createIdentityCache<Session, Claims>(options: IdentityCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? 2000;
  const maxEntries = options.maxEntries ?? 10_000;
  const clock = options.clock ?? (() => performance.now());
  const sessions = new Map<string, Entry<Session>>();
  const claims = new Map<string, Entry<Claims>>();
  let generation = 0;
  let hits = 0;
  let misses = 0;
  let invalidations = 0;

  function read<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (entry && clock() - entry.at <= ttlMs) {
      hits++;
      return entry.value;
    }
    if (entry) map.delete(key);
    misses++;
    return undefined;
  }

  function write<T>(map: Map<string, Entry<T>>, key: string, value: T, readAt: number): void {
    // Read before the last invalidation: possibly stale, not kept.
    if (readAt !== generation) return;
    map.delete(key);
    if (map.size >= maxEntries) map.delete(map.keys().next().value!);
    map.set(key, { value, at: clock() });
  }

  function invalidate(): void {
    generation++;
    invalidations++;
    sessions.clear();
    claims.clear();
  }

  const pending = new WeakSet<QueryId>();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      if (writesIdentity(node)) {
        invalidate();
        pending.add(queryId);
      }
      return node;
    },
    async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (pending.has(queryId)) {
        pending.delete(queryId);
        invalidate();
      }
      return result;
    },
  };

  const hashKey = (value: string) => createHash("sha256").update(value).digest("base64url");

  // The identity revision, read once per batch of requests: a request waits for a read that
  // started after it arrived (never one already in flight, which may predate a write it must see).
  let seenRevision: number | null = null;
  let current: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  async function readOnce(): Promise<void> {
    try {
      const revision = await options.readRevision!();
      if (seenRevision !== null && revision !== seenRevision) invalidate();
      seenRevision = revision;
    } catch {
      // Unknown state: use nothing cached (the request reads the database itself).
      invalidate();
      seenRevision = null;
    }
  }
  function startRead(): Promise<void> {
    const read = readOnce().finally(() => {
      if (current === read) current = null;
    });
    current = read;
    return read;
  }
  function revalidate(): Promise<void> {
    if (!options.readRevision) return Promise.resolve();
    if (!current) return startRead();
    queued ??= current.then(() => {
      queued = null;
      return startRead();
    });
    return queued;
  }

  return {
    /** The cache key of a session token (its SHA-256). */
    sessionKey: hashKey,
    /** Bumped by every invalidation; pass the value read before a database read to `put…`. */
    get generation() {
      return generation;
    },
    getSession: (key: string) => read(sessions, key),
    putSession: (key: string, value: Session, readAt: number) => write(sessions, key, value, readAt),
    dropSession: (key: string) => void sessions.delete(key),
    getClaims: (userId: string) => read(claims, hashKey(userId)),
    putClaims: (userId: string, value: Claims, readAt: number) =>
      write(claims, hashKey(userId), value, readAt),
    invalidate,
    /**
     * Reads the identity revision (batched across concurrent requests) and drops everything when
     * it moved: call before using an entry.
     */
    revalidate,
    /** Install on the process's Kysely instance: identity writes through it invalidate at once. */
    plugin,
    stats(): IdentityCacheStats {
      return {
        sessions: sessions.size,
        claims: claims.size,
        hits,
        misses,
        invalidations,
        maxEntries,
        ttlMs,
      };
    },
  };
}

export type IdentityCache<Session = unknown, Claims = unknown> = ReturnType<
  typeof createIdentityCache<Session, Claims>
>;

/** What the session guard uses of the cache. */
export type SessionCache<Session> = Pick<
  IdentityCache<Session, unknown>,
  "sessionKey" | "generation" | "getSession" | "putSession" | "dropSession" | "revalidate"
>;

/** What identity uses of the cache. */
export type ClaimsCache<Claims> = Pick<
  IdentityCache<unknown, Claims>,
  "generation" | "getClaims" | "putClaims"
>;

export async function readIdentityRevision(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("identity_revision")
    .select("revision")
    .where("id", "=", 1)
    .executeTakeFirst();
  return Number(row?.revision ?? 0);
}
