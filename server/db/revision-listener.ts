/**
 * PostgreSQL LISTEN for the revision notifications of migration 042 (decision 032): one connection
 * of its own (not from the pool, which would hand it back), `LISTEN lumen_revision`, and each
 * notification's payload (the revision table's name) passed to `onNotify`. When the connection
 * drops (a database restart, a network cut), it reconnects with a growing delay (0.5 s up to
 * 10 s) and calls `onNotify` for every table once it listens again, since notifications sent
 * meanwhile are lost. The one-second polls stay on as the fallback either way.
 */
import pg from "pg";

export const REVISION_CHANNEL = "lumen_revision";

export interface RevisionListener {
  /** Resolves once the first LISTEN is in place (or failed; the listener keeps retrying). */
  ready: Promise<void>;
  /** True while a LISTEN connection is up. */
  listening(): boolean;
  stop(): Promise<void>;
}

export function listenForRevisions(
  url: string,
  options: {
    onNotify(table: string): void;
    /** Called after a reconnection for every table, since notifications were lost meanwhile. */
    onReconnect?(): void;
    onError?(error: unknown): void;
    applicationName?: string;
  },
): RevisionListener {
  let client: pg.Client | null = null;
  let stopped = false;
  let up = false;
  let delay = 500;
  let timer: NodeJS.Timeout | undefined;
  let connectedOnce = false;

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({
      connectionString: url,
      application_name: options.applicationName ?? "lumen-hub listen",
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    next.on("notification", (message) => {
      if (message.channel === REVISION_CHANNEL) options.onNotify(message.payload ?? "");
    });
    const lost = (error?: unknown) => {
      if (client !== next) return;
      client = null;
      up = false;
      if (error) options.onError?.(error);
      next.end().catch(() => {});
      if (!stopped) {
        timer = setTimeout(() => void connect(), delay);
        timer.unref();
        delay = Math.min(delay * 2, 10_000);
      }
    };
    next.on("error", (error) => lost(error));
    next.on("end", () => lost());
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${REVISION_CHANNEL}`);
      if (stopped) {
        await next.end().catch(() => {});
        return;
      }
      up = true;
      delay = 500;
      if (connectedOnce) options.onReconnect?.();
      connectedOnce = true;
    } catch (error) {
      lost(error);
    }
  };

  const ready = connect();
  return {
    ready,
    listening: () => up,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const current = client;
      client = null;
      up = false;
      await current?.end().catch(() => {});
    },
  };
}
