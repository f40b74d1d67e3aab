/**
 * What a reader's first load of a page brings, read from the build's own manifest: never the code
 * of the admin, super-admin, content-management and studio screens, the editor or the charts, and
 * a bounded number of script files. Structural checks only (which files, how many), no timings.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, hydrated, test } from "./fixtures.ts";

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const manifest = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../build/client/.vite/manifest.json"), "utf8"),
) as Record<string, ManifestChunk>;

/** Route modules and lazily loaded screens only staff (or the studio) use. */
const STAFF_ROUTE = /^app\/routes\/(admin|super-admin|manage)\/|^app\/routes\/admin-debug\.tsx/;
const STAFF_FEATURE =
  /^app\/features\/(admin[\w-]*|super-admin|security-admin|system-config|operations|diagnostics|moderation|repositories-admin|studio)\//;
/** Heavy libraries no reading page needs. */
const HEAVY_LIBRARY = /codemirror|recharts|graphiql|dnd-kit|d3-/i;
/** The client entry, the root route and the public reading routes. */
const READER_ROUTE = /^app\/(root\.tsx|routes\/(sections\/)?[\w-]+\.tsx)\?|[\\/]entry\.client\.tsx$/;

function closure(keys: Iterable<string>, withDynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const queue = [...keys];
  while (queue.length > 0) {
    const key = queue.pop() as string;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    queue.push(...(manifest[key].imports ?? []));
    if (withDynamic) queue.push(...(manifest[key].dynamicImports ?? []));
  }
  return seen;
}

const keys = Object.keys(manifest);
const readerKeys = keys.filter((k) => READER_ROUTE.test(k) && !STAFF_ROUTE.test(k));
/** Everything a reading page may load, its lazy parts included. */
const readerFiles = new Set([...closure(readerKeys, true)].map((k) => manifest[k]!.file));
const staffKeys = keys.filter(
  (k) =>
    STAFF_ROUTE.test(k) ||
    STAFF_FEATURE.test(manifest[k]!.src ?? "") ||
    HEAVY_LIBRARY.test(k) ||
    HEAVY_LIBRARY.test(manifest[k]!.name ?? ""),
);
/** Files that only staff screens, the editor or the charts need. */
const staffOnlyFiles = new Set(
  [...closure(staffKeys, true)].map((k) => manifest[k]!.file).filter((file) => !readerFiles.has(file)),
);

const freeArticle = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article")!;
const READING_PAGES = ["/", `/content/${freeArticle.slug}`, "/pricing"];

/** The script files a page loads: its first load, then what it fetches once scrolled to the end. */
async function scriptsLoadedBy(page: Page, url: string): Promise<string[]> {
  const scripts = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.add(new URL(request.url()).pathname.slice(1));
  });
  await page.goto(url);
  await hydrated(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState("networkidle");
  return [...scripts];
}

test("the build's manifest names the staff screens, the editor and the charts", () => {
  // Guards the checks below against a manifest they cannot read any more.
  expect(readerKeys.length).toBeGreaterThan(5);
  expect([...staffOnlyFiles].some((f) => /codemirror/.test(f))).toBe(true);
  expect([...staffOnlyFiles].length).toBeGreaterThan(10);
});

for (const url of READING_PAGES) {
  test(`a visitor's load of ${url} fetches no staff, editor or chart code, in at most 15 script files`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(url)).text();
    const preloaded = [
      ...html.matchAll(/<(?:link rel="modulepreload" href|script[^>]* src)="\/([^"]+\.js)"/g),
    ].map((m) => m[1]!);
    expect(preloaded.length).toBeGreaterThan(2);
    expect(preloaded.filter((f) => staffOnlyFiles.has(f))).toEqual([]);

    const loaded = await scriptsLoadedBy(page, url);
    expect(loaded.filter((f) => staffOnlyFiles.has(f))).toEqual([]);
    expect(loaded.filter((f) => !readerFiles.has(f))).toEqual([]);
    expect(loaded.length).toBeLessThanOrEqual(15);
  });
}

test("a server-rendered page knows its session: no start-up loader in it, and the status overlay covers no content", async ({
  page,
  request,
}) => {
  const html = await (await request.get(`/content/${freeArticle.slug}`)).text();
  expect(html).not.toContain("Initializing secure authentication");

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/content/${freeArticle.slug}`);
    const status = page.getByRole("button", { name: /^Session status:/ }).filter({ visible: true });
    await expect(status).toHaveCount(1);
    await expect(page.getByText("Initializing secure authentication...")).toHaveCount(0);
    // Scrolled to the middle of the article: the overlay sits in the chrome, not over the text.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
    const box = (await status.boundingBox())!;
    const main = (await page.locator("main").boundingBox())!;
    const overlaps =
      box.x < main.x + main.width &&
      box.x + box.width > main.x &&
      box.y < main.y + main.height &&
      box.y + box.height > main.y;
    const inChrome = await status.evaluate((el) => Boolean(el.closest("aside, header")));
    expect(inChrome).toBe(true);
    if (width === 1280) expect(overlaps).toBe(false);
  }
});
