import type { Element, ElementContent, Root } from "hast";
import { toString as hastToString } from "hast-util-to-string";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeSlug from "rehype-slug";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { type BundledLanguage, createHighlighter, type Highlighter } from "shiki";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import type { MediaLookup } from "../media/media.service.ts";
import { MEDIA_SCHEME, resolveMediaUrls } from "../media/media-render.ts";
import type { TocEntry } from "./content.types.ts";

export interface RenderedMarkdown {
  html: string;
  toc: TocEntry[];
  wordCount: number;
}

const LANGUAGES = [
  "typescript",
  "javascript",
  "tsx",
  "python",
  "bash",
  "shell",
  "json",
  "sql",
  "yaml",
  "markdown",
  "csv",
  "html",
  "css",
  "diff",
] as const;
const ALIASES: Record<string, string> = {
  ts: "typescript",
  js: "javascript",
  py: "python",
  sh: "bash",
  yml: "yaml",
  md: "markdown",
};

let highlighterPromise: Promise<Highlighter> | null = null;
/** The one Shiki highlighter of the process (github-light/github-dark); also used by highlight-code.ts. */
export function highlighter(): Promise<Highlighter> {
  highlighterPromise ??= createHighlighter({
    themes: ["github-light", "github-dark"],
    langs: [...LANGUAGES],
  });
  return highlighterPromise;
}

/**
 * The dual themes of every highlighted block (markdown and the repository code viewer). A few of
 * github-light's and github-dark's token colours fall below 4.5:1 on our code backgrounds; they are
 * replaced by the darker (lighter) shades GitHub itself uses today.
 */
export const SHIKI_THEME_OPTIONS = {
  themes: { light: "github-light", dark: "github-dark" },
  defaultColor: false,
  colorReplacements: {
    "github-light": {
      "#e36209": "#b45309",
      "#d73a49": "#c62b3a",
      "#22863a": "#1a7f37",
      "#6a737d": "#59636e",
    },
    "github-dark": { "#6a737d": "#8b949e" },
  },
} as const;

/** Sanitize first (user markdown can hold anything), then add trusted markup: slugs and highlighting. */
const schema: SanitizeSchema = {
  ...defaultSchema,
  // ids are prefixed by the sanitizer ("user-content-") to avoid clobbering; headings get ours after.
  attributes: {
    ...defaultSchema.attributes,
    code: [...(defaultSchema.attributes?.code ?? []), ["className", /^language-[\w+-]+$/]],
  },
  // `media:<id>` image sources pass, to be resolved (or dropped) by resolveMediaUrls right after.
  protocols: {
    ...defaultSchema.protocols,
    src: [...(defaultSchema.protocols?.src ?? []), MEDIA_SCHEME],
  },
};

/** Rewrites a relative link or image address of the sanitized tree (e.g. inside a repository). */
export type ResolveUrl = (url: string, kind: "link" | "image") => string;

const isRelativeUrl = (url: string) =>
  url !== "" && !url.startsWith("#") && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url);

function rehypeCollect(toc: TocEntry[], resolveUrl?: ResolveUrl) {
  return () => (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      if (resolveUrl) {
        const attribute = node.tagName === "a" ? "href" : node.tagName === "img" ? "src" : null;
        const value = attribute ? node.properties[attribute] : undefined;
        if (attribute && typeof value === "string" && isRelativeUrl(value)) {
          node.properties[attribute] = resolveUrl(value, attribute === "src" ? "image" : "link");
        }
      }
      const depth = /^h([2-3])$/.exec(node.tagName)?.[1];
      if (depth && typeof node.properties.id === "string") {
        toc.push({ id: node.properties.id, text: hastToString(node), depth: Number(depth) });
      }
      if (
        node.tagName === "a" &&
        typeof node.properties.href === "string" &&
        /^https?:/i.test(node.properties.href)
      ) {
        node.properties.rel = ["noopener", "noreferrer", "nofollow"];
      }
    });
  };
}

function rehypeShiki(hl: Highlighter) {
  return () => (tree: Root) => {
    visit(tree, "element", (node: Element, index, parent) => {
      if (node.tagName !== "pre" || !parent || index === undefined) return;
      const code = node.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
      if (!code) return;
      const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
      const raw = classes.find((c) => c.startsWith("language-"))?.slice("language-".length);
      const lang = raw ? (ALIASES[raw] ?? raw) : undefined;
      if (!lang || !hl.getLoadedLanguages().includes(lang)) return;
      const source = hastToString(code).replace(/\n$/, "");
      const highlighted = hl.codeToHast(source, {
        lang: lang as BundledLanguage,
        ...SHIKI_THEME_OPTIONS,
      });
      const pre = highlighted.children[0] as ElementContent | undefined;
      if (pre && pre.type === "element") {
        pre.properties["data-language"] = lang;
        parent.children[index] = pre;
      }
    });
  };
}

/**
 * Markdown → sanitized HTML with heading anchors, a table of contents and highlighted code.
 * `resolveUrl` rewrites relative link and image addresses after sanitizing (repository READMEs);
 * `media` gives `![alt](media:<id>)` images their recorded size and library alt text, and drops
 * unknown ones (without it, well-formed references get the media address only).
 */
export async function renderMarkdown(
  markdown: string,
  options: { resolveUrl?: ResolveUrl; media?: MediaLookup } = {},
): Promise<RenderedMarkdown> {
  const toc: TocEntry[] = [];
  const hl = await highlighter();
  const file = await unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype)
    .use(rehypeSanitize, schema)
    .use(rehypeSlug)
    .use(rehypeCollect(toc, options.resolveUrl))
    .use(resolveMediaUrls(options.media))
    .use(rehypeShiki(hl))
    .use(rehypeStringify)
    .process(markdown);
  const wordCount = markdown.split(/\s+/).filter(Boolean).length;
  return { html: String(file), toc, wordCount };
}
