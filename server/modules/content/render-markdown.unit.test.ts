import { describe, expect, it } from "vitest";
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
});
