/**
 * Signed-in readers' content pages from one render per audience (decision 039).
 *
 * A reader's first request for a page in a while is rendered for them as before. When the page's
 * loader says the page is shareable, the server then renders it once more, in the background, for
 * the reader's audience (`core/audience.ts`: the same plan, roles, groups, organisation and flags,
 * with every personal field neutral) and stores that render for 30 s (dropped on any content
 * change). Every reader of that audience then gets the stored page, and their browser fills the
 * personal parts (name, user id, own like, Save and progress) from their own requests.
 *
 * Each request is still resolved through the session guard before the cache is consulted, so a
 * signed-out, expired or revoked session never reaches a stored page, and a plan or role change
 * moves the reader to another audience at once.
 */
import type { Logger } from "pino";
import { RouterContextProvider } from "react-router";
import type { AppContexts, RequestMeta } from "../../app/lib/context.ts";
import { audienceKeyOf, audiencePageEligible, audienceUserOf, type UserContext } from "../../core/index.ts";
import { actorForCredential } from "../modules/actor.ts";
import type { AppServices } from "../services.ts";
import type { PageCache } from "./page-cache.ts";
import { markPrivate } from "./page-guards.ts";
import { createNonce } from "./security-headers.ts";

/** The pages served from audience renders: a content item's own address, without a query. */
const AUDIENCE_PAGE_PATH = /^\/content\/[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Background audience renders running at once, at most (more are skipped, not queued). */
const MAX_BACKGROUND_RENDERS = 2;

/** Whether a request may be answered with (and stored as) an audience page. */
export function audiencePageRequest(method: string, url: string, context: UserContext): boolean {
  if (method !== "GET") return false;
  const parsed = new URL(url);
  return parsed.search === "" && AUDIENCE_PAGE_PATH.test(parsed.pathname) && audiencePageEligible(context);
}

/** The cache key of a page for a reader's audience. */
export function audiencePageKey(pathname: string, context: UserContext): string {
  return `${pathname}\n${audienceKeyOf(context)}`;
}

/** Runs audience renders after the answers that asked for them, one per key and few at once. */
export function backgroundRenders(logger: Logger) {
  const running = new Set<string>();
  return {
    schedule(key: string, render: (key: string) => Promise<void>): void {
      if (running.has(key) || running.size >= MAX_BACKGROUND_RENDERS) return;
      running.add(key);
      setImmediate(() => {
        render(key)
          .catch((error: unknown) => logger.warn({ err: error }, "audience page render failed"))
          .finally(() => running.delete(key));
      });
    },
    get running(): number {
      return running.size;
    },
  };
}

/**
 * Renders `url` for the audience of `context` (the neutral user, no cookie, a fresh nonce) and
 * stores it under `key` when it succeeds and its loader again says it is shareable.
 */
export async function renderAudiencePage(options: {
  key: string;
  url: string;
  context: UserContext;
  services: AppServices;
  contexts: AppContexts;
  handler: (request: Request, context: RouterContextProvider) => Promise<Response>;
  cache: PageCache;
}): Promise<void> {
  const { cache, contexts } = options;
  // Another reader's answer may have asked for it first.
  if (cache.has(options.key)) return;
  const renderedAt = cache.generation;
  const user = audienceUserOf(options.context);
  const meta: RequestMeta = { nonce: createNonce(), clientIp: "", audience: { shareable: false } };
  const routerContext = new RouterContextProvider();
  routerContext.set(contexts.services, options.services);
  routerContext.set(contexts.user, user);
  routerContext.set(contexts.actor, actorForCredential({ kind: "session", context: user, scopes: null }));
  routerContext.set(contexts.requestMeta, meta);
  const request = new Request(options.url, { method: "GET", headers: { accept: "text/html" } });
  const response = markPrivate(await options.handler(request, routerContext));
  if (response.status !== 200 || !meta.audience?.shareable) {
    await response.body?.cancel();
    return;
  }
  await cache.put(options.key, response, renderedAt, meta.nonce);
}
