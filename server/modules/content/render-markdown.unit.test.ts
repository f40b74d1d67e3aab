import { describe, expect, it } from "vitest";
import { expectInert, XSS_CORPUS } from "../../../tests/helpers/xss-corpus.ts";
import { renderMarkdown } from "./render-markdown.ts";

describe("renderMarkdown", () => {
  it("renders GFM with heading anchors and a table of contents", async () => {
    const out = await renderMarkdown(
      "# Title\n\n## First part\n\ntext\n\n### Detail\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    );
    expect(out.html).toContain('<h2 id="first-part">First part</h2>');
    expect(out.html).toContain("<table>");
    expect(out.toc).toEqual([
      { id: "first-part", text: "First part", depth: 2 },
      { id: "detail", text: "Detail", depth: 3 },
    ]);
  });

  it("highlights known languages with Shiki and leaves unknown ones plain", async () => {
    const out = await renderMarkdown("```ts\nconst x: number = 1;\n```\n\n```nosuchlang\nplain\n```\n");
    expect(out.html).toContain('class="shiki shiki-themes github-light github-dark"');
    expect(out.html).toContain('data-language="typescript"');
    expect(out.html).toContain('<pre><code class="language-nosuchlang">plain\n</code></pre>');
  });

  it.each([
    ["<script>alert(1)</script>", "<script"],
    ['<img src=x onerror="alert(1)">', "onerror"],
    ["[click](javascript:alert(1))", "javascript:"],
    ['<iframe src="https://example.com"></iframe>', "<iframe"],
    ["<svg><script>alert(1)</script></svg>", "<svg"],
    ["[x](data:text/html;base64,PHNjcmlwdD4=)", "data:text/html"],
    ['<a href="#" onclick="alert(1)">x</a>', "onclick"],
  ])("renders %s inert", async (payload, forbidden) => {
    const out = await renderMarkdown(`before\n\n${payload}\n\nafter`);
    expect(out.html.toLowerCase()).not.toContain(forbidden);
    expect(out.html).toContain("after");
  });

  it.each(XSS_CORPUS)("the corpus payload %j renders inert", async (payload) => {
    const out = await renderMarkdown(`before\n\n${payload}\n\nafter`);
    expectInert(out.html);
    expect(out.html).toContain("after");
  });

  it("resolveUrl rewrites relative links and images after sanitizing, and leaves the rest alone", async () => {
    const seen: string[] = [];
    const out = await renderMarkdown(
      "[src](src/a.ts) [abs](https://example.com/x) [top](#usage) ![logo](assets/logo.png) [js](javascript:alert(1)) <img src=x onerror=alert(1)>",
      {
        resolveUrl: (url, kind) => {
          seen.push(`${kind}:${url}`);
          return `/resolved?${kind}=${encodeURIComponent(url)}`;
        },
      },
    );
    expect(seen).toEqual(["link:src/a.ts", "image:assets/logo.png"]);
    expect(out.html).toContain('href="/resolved?link=src%2Fa.ts"');
    expect(out.html).toContain('src="/resolved?image=assets%2Flogo.png"');
    expect(out.html).toContain('href="https://example.com/x"');
    expect(out.html).toContain('href="#usage"');
    expect(out.html).not.toContain("javascript:");
    expect(out.html).not.toContain("onerror");
  });
});
