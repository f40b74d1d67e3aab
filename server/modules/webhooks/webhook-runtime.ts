/**
 * Webhooks in the running app (decision 037): the content write hook, the service behind the
 * admin screen and REST API, and the sender with its periodic sweep (every second, one process
 * per tick through the job lease; deliveries are claimed row by row besides, so the kicks that
 * follow a recorded event may run on any process without sending twice).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { ContentWriteHooks } from "../content/content.repo.ts";
import type { SharedJobTrack } from "../operations/job-registry.ts";
import {
  adoptUnseenContent,
  configureWebhookRecorder,
  contentWritten,
  onWebhookRecorded,
} from "./webhook-events.ts";
import { createWebhookSender, type WebhookSender } from "./webhook-sender.ts";
import { createWebhooksService, type WebhooksService } from "./webhooks.service.ts";

/** `inner` (the search index's hooks), then the webhook events of the write, on the same executor. */
export function webhookContentHooks(inner: ContentWriteHooks): ContentWriteHooks {
  return {
    async afterWrite(change, executor) {
      await inner.afterWrite?.(change, executor);
      await contentWritten(change, executor);
    },
  };
}

export interface Webhooks {
  service: WebhooksService;
  sender: WebhookSender;
  /** Adopts content written without hooks (the seed), then starts the sweep timer. */
  start(track: SharedJobTrack, intervalMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function createWebhooks(deps: {
  db: Kysely<DB>;
  baseUrl: string;
  allowPrivateNetworks: boolean;
  now: () => number;
  logger: { warn(details: object, message: string): void };
  version: string;
}): Webhooks {
  configureWebhookRecorder({ baseUrl: deps.baseUrl, now: deps.now, logger: deps.logger });
  const sender = createWebhookSender({
    db: deps.db,
    now: deps.now,
    logger: deps.logger,
    allowPrivateNetworks: deps.allowPrivateNetworks,
    userAgent: `LumenHub-Webhooks/${deps.version}`,
  });
  const service = createWebhooksService({
    db: deps.db,
    now: deps.now,
    allowPrivateNetworks: deps.allowPrivateNetworks,
  });
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let unregister: (() => void) | null = null;
  let stopped = false;
  return {
    service,
    sender,
    async start(track, intervalMs = 1000) {
      await adoptUnseenContent(deps.db).catch((error: unknown) =>
        deps.logger.warn({ err: error }, "webhooks: content states could not be adopted"),
      );
      unregister = onWebhookRecorded(() => sender.kick());
      timer = setInterval(() => {
        if (running || stopped) return;
        running = track(() => sender.sweep())
          .catch((error: unknown) => deps.logger.warn({ err: error }, "webhooks: a sweep failed"))
          .finally(() => {
            running = null;
          });
      }, intervalMs);
      timer.unref();
      sender.kick();
    },
    async stop() {
      stopped = true;
      unregister?.();
      if (timer) clearInterval(timer);
      await running;
      await sender.stop();
    },
  };
}
