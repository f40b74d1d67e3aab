/**
 * A comment body (Markdown subset) as safe HTML: paragraphs, emphasis, strong, inline code, code
 * blocks, links, lists and blockquotes. No images, no headings (their text stays), no raw HTML
 * (remark-rehype drops it, rehype-sanitize removes anything else). Links get
 * rel="nofollow ugc noopener" and open in a new tab; only http(s) and mailto addresses survive.
 * Rendered on read with a small cache keyed by the body (bounded by entries and bytes; its figures
 * are on /super-admin/infrastructure).
 */
import type { Element, Root } from "hast";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { createBoundedCache, stringBytes } from "../../bounded-cache.ts";

const ALLOWED_TAGS = ["p", "em", "strong", "code", "pre", "a", "ul", "ol", "li", "blockquote", "br", "del"];

const schema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: ALLOWED_TAGS,
  attributes: { a: ["href"], ol: ["start"] },
  protocols: { href: ["http", "https", "mailto"] },
  clobberPrefix: "user-content-",
  strip: ["script", "style", "iframe", "object", "embed", "svg", "math", "img"],
};

function rehypeCommentLinks() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      if (node.tagName === "a") {
        node.properties.rel = ["nofollow", "ugc", "noopener"];
        node.properties.target = "_blank";
      }
    });
  };
}

const processor = unified()
  .use(remarkParse)
  .use(remarkRehype)
  .use(rehypeSanitize, schema)
  .use(rehypeCommentLinks)
  .use(rehypeStringify);

/** Rendered bodies by source text: at most 2,000 of them and about 4 MB. */
export const commentRenderCache = createBoundedCache<string, string>({
  maxEntries: 2000,
  maxBytes: 4 * 1024 * 1024,
  sizeOf: (html, body) => stringBytes(html) + stringBytes(body),
});

/** The body as sanitized HTML ("" for an empty body, e.g. a deleted comment). */
export function renderCommentBody(body: string): string {
  if (body.trim() === "") return "";
  const hit = commentRenderCache.get(body);
  if (hit !== undefined) return hit;
  const html = String(processor.processSync(body)).trim();
  commentRenderCache.set(body, html);
  return html;
}
