/**
 * Markdown → plain text for the search index: the words a reader sees (headings, paragraphs, list
 * items, table cells, code, image descriptions, link texts), without markup, URLs or HTML tags.
 */
import type { Nodes, Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse).use(remarkGfm);

/** Nodes after which a word boundary is needed. */
const BLOCKS = new Set([
  "paragraph",
  "heading",
  "blockquote",
  "listItem",
  "code",
  "html",
  "table",
  "tableRow",
  "tableCell",
  "thematicBreak",
  "footnoteDefinition",
  "definition",
]);

function collect(node: Nodes, out: string[]): void {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
      out.push(node.value);
      break;
    case "html":
      // Raw HTML: keep the text between tags, drop the tags and their attributes.
      out.push(node.value.replace(/<!--[\s\S]*?-->/g, " ").replace(/<[^>]*>/g, " "));
      break;
    case "image":
    case "imageReference":
      if (node.alt) out.push(node.alt);
      break;
    case "break":
      out.push(" ");
      break;
    default:
      if ("children" in node) for (const child of node.children) collect(child as Nodes, out);
  }
  if (BLOCKS.has(node.type)) out.push("\n");
}

/** The plain text of a markdown document, whitespace collapsed, cut to `maxLength` characters. */
export function markdownToText(markdown: string, maxLength = Number.POSITIVE_INFINITY): string {
  const tree = parser.parse(markdown) as Root;
  const out: string[] = [];
  collect(tree, out);
  const text = out.join("").replace(/\s+/g, " ").trim();
  return text.length > maxLength ? text.slice(0, maxLength) : text;
}
