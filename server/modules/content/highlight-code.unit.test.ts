import { describe, expect, it } from "vitest";
import { highlightCode, plainCodeHtml } from "./highlight-code.ts";

describe("highlightCode", () => {
  it("highlights with the dual themes, one line span with an id and a line-number link per line", async () => {
    const out = await highlightCode("const a: number = 1;\nexport { a };\n", "typescript");
    expect(out.highlighted).toBe(true);
    expect(out.lineCount).toBe(2);
    expect(out.html).toContain('class="shiki shiki-themes github-light github-dark');
    expect(out.html).toContain("--shiki-dark:");
    expect(out.html).toMatch(/<span class="line" id="L1"><a href="#L1" class="line-no" data-line="1"/);
    expect(out.html).toContain('id="L2"');
    expect(out.html).not.toContain('id="L3"');
  });

  it("loads other bundled languages on first use (python, json, markdown, toml)", async () => {
    for (const [lang, code] of [
      ["python", "def f():\n    return 1\n"],
      ["json", '{"a": 1}'],
      ["markdown", "# Title\n\nText"],
      ["toml", 'a = "b"'],
    ] as const) {
      const out = await highlightCode(code, lang);
      expect(out.highlighted, lang).toBe(true);
      expect(out.html).toContain(`data-language="${lang}"`);
    }
  });

  it("shows unknown languages and plain text escaped, with the same line markup", async () => {
    const out = await highlightCode('<script>alert("x")</script>\nline 2', null);
    expect(out.highlighted).toBe(false);
    expect(out.html).not.toContain("<script>");
    expect(out.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(out.html).toContain('id="L2"');
    expect((await highlightCode("x", "no-such-language")).highlighted).toBe(false);
    expect(plainCodeHtml("a\r\nb\n").lineCount).toBe(2);
  });

  it("escapes markup inside highlighted code", async () => {
    const out = await highlightCode('const s = "</pre><img src=x onerror=alert(1)>";', "typescript");
    expect(out.html).not.toContain("<img");
  });
});
