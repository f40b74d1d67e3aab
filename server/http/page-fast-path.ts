/**
 * Visitors' cached pages answered at the `node:http` level, before the request becomes a Fetch
 * `Request` and goes through the Hono app: a hit is a map lookup and one `writeHead` + `end` with
 * the header list and body the page cache prepared when it stored the page.
 *
 * The rules for what may come from the cache are the app's (`anonymousPageRequest`, also used by
 * the page handler in `app.ts`): GET or HEAD, not page data (`.data`), no session cookie, no
 * `Authorization`, no `X-API-Key`. Anything else, and every miss, goes to the app unchanged. The
 * cache key is the request target as sent; the app stores pages under the parsed URL's path and
 * query, so a target written differently (an absolute URL, unusual escaping) simply misses here
 * and is answered by the app.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerFromCache, type PageCache } from "./page-cache.ts";

/** Whether a request may be answered with (and stored as) a visitor's cached page. */
export function anonymousPageRequest(
  method: string,
  pathname: string,
  header: (name: "cookie" | "authorization" | "x-api-key") => string | null | undefined,
): boolean {
  return (
    (method === "GET" || method === "HEAD") &&
    !pathname.endsWith(".data") &&
    !(header("cookie") ?? "").includes("session_token") &&
    !header("authorization") &&
    !header("x-api-key")
  );
}

/**
 * A `node:http` request listener step: answers a cache hit and returns true, or returns false and
 * leaves the request untouched. `countRequest` is called for every answered request.
 */
export function cachedPageResponder(
  cache: PageCache,
  countRequest: () => void,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const target = req.url;
    const method = req.method ?? "";
    if (!target?.startsWith("/")) return false;
    const query = target.indexOf("?");
    const pathname = query === -1 ? target : target.slice(0, query);
    const headers = req.headers;
    if (!anonymousPageRequest(method, pathname, (name) => headers[name] as string | undefined)) return false;
    const page = cache.get(target, false);
    if (!page) return false;
    const answer = answerFromCache(
      page,
      headers["accept-encoding"],
      headers["if-none-match"],
      method === "HEAD",
    );
    try {
      res.writeHead(answer.status, answer.head);
    } catch {
      return false; // nothing sent yet: the app answers instead
    }
    countRequest();
    res.end(answer.body ?? undefined);
    return true;
  };
}
