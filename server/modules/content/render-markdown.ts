import type { Element, ElementContent, Root } from "hast";
import { toString as hastToString } from "hast-util-to-string";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeSlug from "rehype-slug";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import type { BundledLanguage, Highlighter } from "shiki";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import type { CacheStats } from "../../bounded-cache.ts";
import type { MediaLookup } from "../media/media.service.ts";
import { MEDIA_SCHEME, resolveMediaUrls } from "../media/media-render.ts";
import type { TocEntry } from "./content.types.ts";

export interface RenderedMarkdown {
  html: string;
  toc: TocEntry[];
  wordCount: number;
}

/**
 * The languages of markdown code blocks that are highlighted, with Shiki's own aliases of them
 * (`mjs`, `zsh` …); blocks in any other language are shown plain, whatever the highlighter holds.
 */
const LANGUAGES: ReadonlySet<string> = new Set([
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
  ...["cjs", "cts", "js", "mjs", "mts", "ts", "py", "sh", "shellscript", "zsh", "yml", "md"],
]);
const ALIASES: Record<string, string> = {
  ts: "typescript",
  js: "javascript",
  py: "python",
  sh: "bash",
  yml: "yaml",
  md: "markdown",
};

let highlighterPromise: Promise<Highlighter> | null = null;
/** The highlighter once made, and how many languages Shiki offers (for `highlighterStats`). */
let made: { highlighter: Highlighter; languages: number } | null = null;
/**
 * The one Shiki highlighter of the process (github-light/github-dark); also used by
 * highlight-code.ts. Shiki itself is imported on the first call, and languages are loaded one by
 * one when a code block or file first needs them (`loadLanguages`): a process that renders no
 * code holds no grammar.
 */
export function highlighter(): Promise<Highlighter> {
  highlighterPromise ??= import("shiki").then(async ({ bundledLanguagesInfo, createHighlighter }) => {
    const hl = await createHighlighter({ themes: ["github-light", "github-dark"], langs: [] });
    made = { highlighter: hl, languages: bundledLanguagesInfo.length };
    return hl;
  });
  highlighterPromise.catch(() => {
    highlighterPromise = null;
  });
  return highlighterPromise;
}

/**
 * The highlighter's languages as cache figures (/super-admin/infrastructure): grammars loaded so
 * far, out of every language Shiki offers (markdown blocks load at most LANGUAGES; the repository
 * code viewer may load any). Their bytes are not measured.
 */
export function highlighterStats(): CacheStats {
  const languages = made ? made.highlighter.getLoadedLanguages().length : 0;
  return {
    entries: languages,
    maxEntries: made?.languages ?? 0,
    bytes: null,
    maxBytes: null,
  };
}

/** Loads the languages the highlighter does not hold yet (each once per process). */
export async function loadLanguages(hl: Highlighter, languages: Iterable<string>): Promise<void> {
  const loaded = new Set(hl.getLoadedLanguages());
  const missing = [...new Set(languages)].filter((language) => !loaded.has(language));
  if (missing.length > 0) await hl.loadLanguage(...(missing as BundledLanguage[]));
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

/** The `<code>` of a `<pre>` and the language its class names (aliases resolved), if any. */
function codeBlock(node: Element): { code: Element; lang: string } | null {
  if (node.tagName !== "pre") return null;
  const code = node.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
  if (!code) return null;
  const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
  const raw = classes.find((c) => c.startsWith("language-"))?.slice("language-".length);
  return raw ? { code, lang: ALIASES[raw] ?? raw } : null;
}

/**
 * Highlights the code blocks in one of LANGUAGES: Shiki and the blocks' languages are loaded
 * only when the document has such a block.
 */
function rehypeShiki() {
  return async (tree: Root) => {
    const wanted = new Set<string>();
    visit(tree, "element", (node: Element) => {
      const block = codeBlock(node);
      if (block && LANGUAGES.has(block.lang)) wanted.add(block.lang);
    });
    if (wanted.size === 0) return;
    const hl = await highlighter();
    await loadLanguages(hl, wanted);
    visit(tree, "element", (node: Element, index, parent) => {
      if (!parent || index === undefined) return;
      const block = codeBlock(node);
      if (!block || !wanted.has(block.lang)) return;
      const { code, lang } = block;
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
  const file = await unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype)
    .use(rehypeSanitize, schema)
    .use(rehypeSlug)
    .use(rehypeCollect(toc, options.resolveUrl))
    .use(resolveMediaUrls(options.media))
    .use(rehypeShiki)
    .use(rehypeStringify)
    .process(markdown);
  const wordCount = markdown.split(/\s+/).filter(Boolean).length;
  return { html: String(file), toc, wordCount };
}
