/**
 * Search over HTTP (issue 4 item 6): `GET /api/search` and the search pages (`/?search=`,
 * `/content?search=`), on the demo catalog. The unauthorized-access part: a reader below an item's
 * tier finds it by its title (locked, with its excerpt) but never by its body, and no body text of
 * it reaches the API answer or the page.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT, loadDemoBody } from "../../server/db/seed/demo/index.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { markdownToText } from "../../server/modules/search/markdown-text.ts";
import { createSearchIndexer } from "../../server/modules/search/search-indexer.ts";
import type { SearchResultItem, SearchResults } from "../../server/services.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Reader = "visitor" | "free" | "pro" | "manager";

const PRO_ITEM = DEMO_CONTENT.find(
  (c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired?.length,
)!;
const partsText = (parts: Array<{ text: string }>) => parts.map((p) => p.text).join("");
const htmlText = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/'/g, "&#x27;")
    .replace(/"/g, "&quot;");

describe.each(DIALECTS)("search over HTTP (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Reader, string>> = {};
  /** A word of the Pro item's body that is in none of its metadata (found with the Pro reader). */
  let bodyOnlyWord: string;
  /** The body passage the Pro reader is shown for a word of the title that the body has too. */
  let proBodySnippet: string;
  let titleWord: string;

  const get = (path: string, reader: Reader, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      headers: reader === "visitor" ? headers : { ...headers, cookie: cookies[reader]! },
    });
  const api = async (q: string, reader: Reader, extra = ""): Promise<SearchResults> => {
    const res = await get(`/api/search?q=${encodeURIComponent(q)}&limit=50${extra}`, reader);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as SearchResults;
  };
  /** The Pro item among the results. */
  const find = (r: SearchResults): SearchResultItem | undefined =>
    r.items.find((i) => i.slug === PRO_ITEM.slug);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const reader of ["free", "pro", "manager"] as const) {
      cookies[reader] = await signIn(server.url, `${reader}@demo.local`, DEMO_PASSWORD);
    }
    const words = [
      ...new Set(
        markdownToText(await loadDemoBody(PRO_ITEM.slug))
          .toLowerCase()
          .match(/[a-z]{9,}/g) ?? [],
      ),
    ];
    for (const word of words.slice(0, 60)) {
      const hit = find(await api(word, "pro"));
      if (hit && hit.matchedIn.length === 1 && hit.matchedIn[0] === "body") {
        bodyOnlyWord = word;
        break;
      }
    }
    expect(bodyOnlyWord, "a body-only word of the Pro item").toBeTruthy();
    for (const word of PRO_ITEM.title.toLowerCase().match(/[a-z]{5,}/g) ?? []) {
      const hit = find(await api(word, "pro"));
      if (hit?.matchedIn.includes("title") && hit.matchedIn.includes("body")) {
        titleWord = word;
        proBodySnippet = partsText(hit.snippet);
        break;
      }
    }
    expect(titleWord, "a word in the Pro item's title and body").toBeTruthy();
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it("400s: a missing, empty or too long term, a bad limit, an unknown parameter, a bad cursor", async () => {
    const cases: Array<[string, RegExp]> = [
      ["/api/search", /Invalid q: expected a search term/],
      ["/api/search?q=", /Invalid q/],
      ["/api/search?q=%20%20", /Invalid q/],
      [`/api/search?q=${"x".repeat(201)}`, /at most 200 characters/],
      ["/api/search?q=ai&limit=0", /Invalid limit: expected at least 1/],
      ["/api/search?q=ai&limit=51", /Invalid limit: expected at most 50/],
      ["/api/search?q=ai&limit=ten", /Invalid limit/],
      ["/api/search?q=ai&sort=new", /unknown parameter sort/],
      ["/api/search?q=ai&cursor=bogus!", /cursor/],
      ["/api/search?q=ai&cursor=eyJvIjotMX0", /cursor/], // {"o":-1}
    ];
    for (const [path, message] of cases) {
      const res = await get(path, "visitor");
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code, path).toBe("BAD_USER_INPUT");
      expect(body.error.message, path).toMatch(message);
    }
  });

  it("hostile terms answer 200", async () => {
    for (const q of ['"', "*", "NEAR(a b)", "a OR b", "(((", "-x", "'; drop table content; --", "東京 🙂"]) {
      const res = await get(`/api/search?q=${encodeURIComponent(q)}`, "free");
      expect(res.status, q).toBe(200);
    }
  });

  it("API keys need content:read; a key without it is refused", async () => {
    const make = async (scopes: string[]) => {
      const res = await call(
        server.url,
        "/api/account/api-keys",
        { name: "search", scopes },
        { cookie: cookies.pro },
      );
      expect(res.status).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const without = await make(["repositories:read"]);
    const refused = await get(`/api/search?q=${titleWord}`, "visitor", { "x-api-key": without });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("content:read");
    const withScope = await make(["content:read"]);
    const ok = await get(`/api/search?q=${titleWord}`, "visitor", { "x-api-key": withScope });
    expect(ok.status).toBe(200);
    // API keys read as the public (SECURITY.md: keys are for public reads): the Pro body stays closed.
    expect(find((await ok.json()) as SearchResults)).toMatchObject({ locked: true });
    expect(ok.headers.get("cache-control")).toContain("no-store");
  });

  for (const reader of ["visitor", "free"] as const) {
    it(`${reader}: finds the Pro item by its title, locked with the excerpt; never by a body word`, async () => {
      const byTitle = await api(titleWord, reader);
      const hit = find(byTitle)!;
      expect(hit).toBeDefined();
      expect(hit.locked).toBe(true);
      expect(partsText(hit.snippet)).toBe(PRO_ITEM.excerpt);
      expect(hit.matchedIn).not.toContain("body");
      expect(JSON.stringify(byTitle)).not.toContain(proBodySnippet);
      expect(JSON.stringify(byTitle)).not.toContain(bodyOnlyWord);

      const byBody = await api(bodyOnlyWord, reader);
      expect(find(byBody)).toBeUndefined();
      expect(JSON.stringify(byBody)).not.toContain(PRO_ITEM.slug);
    });
  }

  it("pro: the body word finds the item with a highlighted body passage", async () => {
    const result = await api(bodyOnlyWord, "pro");
    const hit = find(result)!;
    expect(hit.locked).toBe(false);
    expect(hit.snippet.some((p) => p.hit && p.text.toLowerCase().startsWith(bodyOnlyWord.slice(0, 5)))).toBe(
      true,
    );
  });

  it("the home page lists the locked item with a sign-in hint and none of its body", async () => {
    const res = await get(`/?search=${encodeURIComponent(titleWord)}`, "visitor");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Results for");
    expect(html).toMatch(/\d+ results?/);
    expect(html).toContain(htmlText(PRO_ITEM.excerpt));
    expect(html).toContain("<mark");
    expect(html).toContain("(locked)");
    expect(html).toContain("Sign in");
    expect(html).not.toContain(htmlText(proBodySnippet));
    expect(html).not.toContain(proBodySnippet);
    expect(html).not.toContain(bodyOnlyWord);
    expect(html).not.toContain("Search arrives in the next release");

    const signedIn = await (await get(`/?search=${encodeURIComponent(titleWord)}`, "free")).text();
    expect(signedIn).toContain("Upgrade");
    expect(signedIn).not.toContain(htmlText(proBodySnippet));

    const none = (await (await get("/?search=qwzxqwzxnothing", "visitor")).text()).replaceAll("<!-- -->", "");
    expect(none).toContain("No results for “qwzxqwzxnothing”");
    const empty = await get("/?search=%20", "visitor");
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain("Type a word to search");
  });

  it("pages with 'More results' links that work without scripts", async () => {
    const first = await (await get("/?search=ai", "pro")).text();
    const next = /href="(\/\?search=ai&amp;cursor=[^"]+)"/.exec(first);
    expect(next, "a More results link").not.toBeNull();
    const second = await get(next![1]!.replace(/&amp;/g, "&"), "pro");
    expect(second.status).toBe(200);
    expect(await second.text()).toContain("First results");
    const stale = await get("/?search=ai&cursor=bogus!", "pro");
    expect(stale.status).toBe(200);
    expect(await stale.text()).toContain("out of date");
  });

  it("/content?search= filters the management list for content managers; visitors are sent to sign in", async () => {
    const res = await get(`/content?search=${encodeURIComponent(PRO_ITEM.title)}`, "manager");
    expect(res.status).toBe(200);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(html).toMatch(/\d+ items? matching “/);
    expect(html).toContain(`matching “${htmlText(PRO_ITEM.title)}”`);
    expect(html).toContain(PRO_ITEM.slug);
    const none = (await (await get("/content?search=qwzxqwzxnothing", "manager")).text()).replaceAll(
      "<!-- -->",
      "",
    );
    expect(none).toContain("Nothing matches “qwzxqwzxnothing”");
    const visitor = await fetch(`${server.url}/content?search=ai`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toContain("/auth/signin");
  });

  it("markup in content comes back as inert text on the page", async () => {
    const { runtime } = server;
    const indexer = createSearchIndexer({
      db: runtime.database.db,
      storage: runtime.storage,
      logger: pino({ level: "silent" }),
    });
    await createContentRepo(runtime.database.db, indexer.contentHooks).create({
      title: "<script>alert(1)</script> Xylograph printing",
      slug: "xylograph-printing",
      status: "published",
      publishedAt: new Date().toISOString(),
      excerpt: "<img src=x onerror=alert(2)> About xylographs.",
      section: "resources",
    });
    const json = await api("xylograph", "visitor");
    expect(partsText(json.items[0]!.titleParts)).toBe("<script>alert(1)</script> Xylograph printing");
    const html = await (await get("/?search=xylograph", "visitor")).text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<img src=x");
  });
});
