/**
 * The repository browser over real HTTP (issue 6): /resources lists the demo repositories by
 * category with filters and search; /resources/{slug} renders header, tree, README and highlighted
 * files with line anchors; branches, raw and download responses, search, and 404 for anything
 * unknown or malformed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("repository browser (%s)", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const page = async (path: string, status = 200) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status, path).toBe(status);
    return res.text();
  };
  /** The text of the page's main content without tags (for order checks). */
  const textOf = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ");

  it("/resources lists the four demo repositories grouped by category, in category order", async () => {
    const html = await page("/resources");
    const text = textOf(html);
    for (const name of ["Prompt Eval Kit", "tidy-csv", "Skills Matrix", "RAG Starter"]) {
      expect(html).toContain(name);
    }
    const order = ["AI tooling", "Data workflows", "Workforce development"].map((g) =>
      text.indexOf(`${g} `, text.indexOf("All languages")),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('href="/resources/prompt-eval-kit"');
  });

  it("filters by category and language and searches by name, without JavaScript", async () => {
    const data = await page("/resources?category=data-workflows");
    expect(data).toContain("/resources/tidy-csv");
    expect(data).not.toContain('href="/resources/prompt-eval-kit"');
    const python = await page("/resources?language=Python");
    expect(python).toContain("/resources/tidy-csv");
    expect(python).toContain("/resources/rag-starter");
    expect(python).not.toContain('href="/resources/prompt-eval-kit"');
    const search = await page("/resources?q=matrix");
    expect(search).toContain('href="/resources/skills-matrix"');
    expect(search).not.toContain('href="/resources/tidy-csv"');
    const none = await page("/resources?q=no-such-thing");
    expect(none).toContain("Try another category, language or name.");
  });

  it("/resources/{slug} renders the header, the root tree and the README", async () => {
    const html = await page("/resources/prompt-eval-kit");
    expect(html).toContain("Prompt Eval Kit");
    expect(html).toContain("Deterministic checks for prompt outputs");
    expect(html).toContain("TypeScript");
    expect(html).toMatch(/Default branch <code[^>]*>main<\/code>/);
    expect(html).toContain("last synced");
    expect(html).toContain('<option value="feature/json-keys"');
    for (const entry of ["src", "examples", "package.json", "README.md"])
      expect(html).toContain(`>${entry}<`);
    expect(html).toContain('href="/resources/prompt-eval-kit?branch=main&amp;path=src"');
    expect(html).toContain('id="readme-heading"');
    expect(html).toContain("Small, dependency-free checks for prompt outputs");
    // README code blocks are highlighted by the same pipeline
    const readme = html.slice(html.indexOf('id="readme-heading"'));
    expect(readme).toContain('<pre class="shiki shiki-themes github-light github-dark"');
    // no link to GitHub for a local repository
    expect(html).not.toContain("View on GitHub");
  });

  it("a folder is one request: its entries, linked", async () => {
    const html = await page("/resources/prompt-eval-kit?branch=main&path=src");
    expect(html).toContain('href="/resources/prompt-eval-kit?branch=main&amp;path=src%2Fchecks.ts"');
    expect(html).toContain('href="/resources/prompt-eval-kit?branch=main&amp;path=src%2Frun.ts"');
  });

  it.each([
    ["prompt-eval-kit", "src/checks.ts", "typescript"],
    ["tidy-csv", "tidy_csv.py", "python"],
    ["skills-matrix", "levels.md", "markdown"],
    ["prompt-eval-kit", "package.json", "json"],
  ])("%s %s is highlighted server-side with line numbers (%s)", async (slug, path, language) => {
    const html = await page(`/resources/${slug}?path=${encodeURIComponent(path)}`);
    expect(html).toContain('class="shiki shiki-themes github-light github-dark"');
    expect(html).toContain(`data-language="${language}"`);
    expect(html).toMatch(/<span class="line" id="L1"><a href="#L1" class="line-no" data-line="1"/);
    expect(html).toContain('id="L2"');
    expect(html).toMatch(/<span style="--shiki-light:#[0-9a-fA-F]{6};--shiki-dark:#[0-9a-fA-F]{6}">/);
    expect(html).toContain(`/api/repositories/${slug}/raw?branch=main&amp;path=${encodeURIComponent(path)}`);
  });

  it("shows an image inline through the raw endpoint", async () => {
    const html = await page("/resources/prompt-eval-kit?path=assets%2Flogo.png");
    expect(html).toContain(
      '<img src="/api/repositories/prompt-eval-kit/raw?branch=main&amp;path=assets%2Flogo.png"',
    );
  });

  it("a branch shows its own content", async () => {
    const main = await page("/resources/prompt-eval-kit?branch=main&path=src");
    expect(main).not.toContain("json-keys.ts");
    const feature = await page("/resources/prompt-eval-kit?branch=feature%2Fjson-keys&path=src");
    expect(feature).toContain('path=src%2Fjson-keys.ts"');
    const file = await page("/resources/prompt-eval-kit?branch=feature%2Fjson-keys&path=src%2Fjson-keys.ts");
    expect(file).toContain("checkJsonKeys");
    expect(file).toMatch(/<option value="feature\/json-keys" selected/);
    // the file does not exist on main
    await page("/resources/prompt-eval-kit?branch=main&path=src%2Fjson-keys.ts", 404);
    // …but switching branches with the switcher lands on the branch's root instead of a 404
    const res = await fetch(
      `${server.url}/resources/prompt-eval-kit?branch=main&path=src%2Fjson-keys.ts&switch=1`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/resources/prompt-eval-kit?branch=main");
    // …and a successful switch lands on the clean, shareable address
    const switched = await fetch(
      `${server.url}/resources/prompt-eval-kit?branch=feature%2Fjson-keys&path=src&switch=1`,
      { redirect: "manual" },
    );
    expect(switched.status).toBe(302);
    expect(switched.headers.get("location")).toBe(
      "/resources/prompt-eval-kit?branch=feature%2Fjson-keys&path=src",
    );
  });

  it("raw text is text/plain with nosniff and a sandbox CSP; download=1 is an attachment", async () => {
    const raw = await fetch(
      `${server.url}/api/repositories/prompt-eval-kit/raw?branch=main&path=src%2Fchecks.ts`,
    );
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
    expect(raw.headers.get("content-security-policy")).toContain("sandbox");
    expect(raw.headers.get("content-disposition")).toMatch(/^inline; filename="checks.ts"/);
    expect(await raw.text()).toContain("export");

    const download = await fetch(
      `${server.url}/api/repositories/prompt-eval-kit/raw?branch=main&path=src%2Fchecks.ts&download=1`,
    );
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="checks.ts"/);

    const image = await fetch(`${server.url}/api/repositories/prompt-eval-kit/raw?path=assets%2Flogo.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

    const html = await fetch(`${server.url}/api/repositories/skills-matrix/raw?path=README.md`);
    expect(html.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it.each([
    "/resources/no-such-repository",
    "/resources/prompt-eval-kit?branch=no-such-branch",
    "/resources/prompt-eval-kit?branch=..%2Fmain",
    "/resources/prompt-eval-kit?path=no-such-file.ts",
    "/resources/prompt-eval-kit?path=src%2Fno-such-file.ts",
    "/resources/prompt-eval-kit?path=..%2F..%2Fetc%2Fpasswd",
    "/resources/prompt-eval-kit?path=src%2F..%2F..%2Fpackage.json",
    "/resources/prompt-eval-kit?path=%2Fetc%2Fpasswd",
    "/resources/prompt-eval-kit?view=commits&branch=no-such-branch",
    "/resources/prompt-eval-kit?view=search&q=x&branch=no-such-branch",
  ])("%s is the 404 page", async (path) => {
    const html = await page(path, 404);
    expect(html).toMatch(/not found|couldn.t find/i);
  });

  it.each([
    "/api/repositories/no-such-repository/raw?path=README.md",
    "/api/repositories/prompt-eval-kit/raw?path=..%2F..%2Fetc%2Fpasswd",
    "/api/repositories/prompt-eval-kit/raw?path=src",
    "/api/repositories/prompt-eval-kit/raw?branch=nope&path=README.md",
    "/api/repositories/prompt-eval-kit/raw",
  ])("raw %s is 404", async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });

  it("search finds a known string with its line and links to the line", async () => {
    const html = await page("/resources/tidy-csv?view=search&q=def%20");
    expect(html).toContain("def snake_case(header: str) -&gt; str:");
    expect(html).toMatch(/href="\/resources\/tidy-csv\?branch=main&amp;path=tidy_csv\.py#L\d+"/);
    const none = await page("/resources/tidy-csv?view=search&q=zzzz-not-here");
    expect(none).toContain("No lines contain");
  });

  it("commits, issues and workflows tabs render", async () => {
    const commits = await page("/resources/prompt-eval-kit?view=commits");
    expect(commits).toContain("Add the project logo");
    const issues = await page("/resources/prompt-eval-kit?view=issues");
    expect(issues).toContain("Local repositories have no issues");
    const workflows = await page("/resources/prompt-eval-kit?view=workflows");
    expect(workflows).toContain("Local repositories have no workflows");
  });
});
