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

  /** Payloads from common XSS cheat sheets, in HTML and in markdown syntax. */
  const CORPUS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    '<img src=x onerror="alert(1)">',
    "<img src=x onerror=alert(1)//",
    '<svg onload="alert(1)"><circle r="1"/></svg>',
    "<svg><script>alert(1)</script></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
    '<iframe src="https://example.com"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    '<input autofocus onfocus="alert(1)">',
    '<details open ontoggle="alert(1)">x</details>',
    '<body onload="alert(1)">',
    "<style>@import 'https://evil.example/x.css';</style>",
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="https://evil.example/">',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    '<a href="#" onclick="alert(1)">x</a>',
    '<video><source onerror="alert(1)"></video>',
    '<audio src=x onerror="alert(1)"></audio>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<p onmouseover="alert(1)">hover</p>',
    "[click](javascript:alert(1))",
    "[click](JAVASCRIPT:alert(1))",
    "[click](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "![x](javascript:alert(1))",
    "[ref][r]\n\n[r]: javascript:alert(1)",
    "<javascript:alert(1)>",
    "```html\n</code></pre><script>alert(1)</script>\n```",
    "`<script>alert(1)</script>`",
  ];

  it.each(CORPUS)("the corpus payload %j renders inert", async (payload) => {
    const out = await renderMarkdown(`before\n\n${payload}\n\nafter`);
    const html = out.html.toLowerCase();
    for (const tag of [
      "<script",
      "<iframe",
      "<object",
      "<embed",
      "<form",
      "<style",
      "<link",
      "<meta",
      "<base",
      "<svg",
      "<math",
      "<input",
      "<body",
    ])
      expect(html, tag).not.toContain(tag);
    // Escaped text may mention anything; real tags may carry no handler, script URL or srcdoc.
    for (const tag of html.match(/<[a-z][^>]*>/g) ?? []) {
      expect(tag).not.toMatch(/\son[a-z]+\s*=/);
      expect(tag).not.toMatch(/(href|src|action|data)\s*=\s*["']?\s*(javascript|vbscript|data):/);
      expect(tag).not.toContain("srcdoc");
      expect(tag).not.toMatch(/style="[^"]*url\(/);
    }
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
