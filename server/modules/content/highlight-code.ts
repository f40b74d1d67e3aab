/**
 * A whole source file as HTML for the repository code viewer (server only): Shiki with the same
 * github-light/github-dark dual themes as the markdown code blocks, one `<span class="line">` per
 * line with an id (`L10`) and a line-number link (`#L10`) that the viewer styles and selects.
 */
import type { Element, ElementContent } from "hast";
import type { BundledLanguage } from "shiki";
import { highlighter, loadLanguages, SHIKI_THEME_OPTIONS } from "./render-markdown.ts";

export interface HighlightedCode {
  /** `<pre class="shiki …"><code>` with one span per line. */
  html: string;
  lineCount: number;
  /** False when the text is shown plain (no language, or one Shiki does not know). */
  highlighted: boolean;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);

/** The lines of a file, without the newline that ends its last line. */
function splitLines(code: string): string[] {
  const text = code.endsWith("\n") ? code.slice(0, -1) : code;
  return text.split(/\r?\n/);
}

const lineNumberHast = (line: number): Element => ({
  type: "element",
  tagName: "a",
  properties: {
    href: `#L${line}`,
    className: ["line-no"],
    "data-line": String(line),
    "aria-label": `Line ${line}`,
    tabIndex: -1,
  },
  children: [],
});

const lineNumberHtml = (line: number) =>
  `<a href="#L${line}" class="line-no" data-line="${line}" aria-label="Line ${line}" tabindex="-1"></a>`;

/** Plain text in the viewer's line markup (files too large to highlight, unknown languages). */
export function plainCodeHtml(code: string): HighlightedCode {
  const lines = splitLines(code);
  const body = lines
    .map((text, i) => `<span class="line" id="L${i + 1}">${lineNumberHtml(i + 1)}${escapeHtml(text)}</span>`)
    .join("\n");
  return {
    html: `<pre class="shiki code-plain" tabindex="0"><code>${body}</code></pre>`,
    lineCount: lines.length,
    highlighted: false,
  };
}

/** Highlights a file with Shiki (languages load on first use); unknown languages are shown plain. */
export async function highlightCode(code: string, language: string | null): Promise<HighlightedCode> {
  if (!language) return plainCodeHtml(code);
  const { bundledLanguages } = await import("shiki");
  if (!Object.hasOwn(bundledLanguages, language)) return plainCodeHtml(code);
  const hl = await highlighter();
  await loadLanguages(hl, [language]);
  const lines = splitLines(code);
  const html = hl.codeToHtml(lines.join("\n"), {
    lang: language as BundledLanguage,
    ...SHIKI_THEME_OPTIONS,
    transformers: [
      {
        pre(node) {
          node.properties.tabindex = "0";
          node.properties["data-language"] = language;
        },
        line(node, line) {
          node.properties.id = `L${line}`;
          node.children.unshift(lineNumberHast(line) as ElementContent);
        },
      },
    ],
  });
  return { html, lineCount: lines.length, highlighted: true };
}
