/**
 * Image references in a Markdown body: `![alt](src "title")` and raw `<img src="…" alt="…">`
 * (MDX and HTML-in-Markdown). `findImages` lists the sources; `rewriteImages` replaces each one
 * (a new source), drops it to its alt text (null) or leaves it as written (undefined). Raw `<img>`
 * tags whose source is replaced become Markdown images, which the renderer resolves and sanitizes.
 */

const MD_IMAGE = /!\[([^\]\n]*)\]\(\s*(<[^>\n]+>|[^)\s]+)(\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const HTML_IMAGE = /<img\b[^>]*>/gi;
const ATTR = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i");

function attr(tag: string, name: string): string | null {
  const m = ATTR(name).exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? "") : null;
}

const unwrap = (src: string) => (src.startsWith("<") && src.endsWith(">") ? src.slice(1, -1) : src);
const escapeAlt = (alt: string) => alt.replace(/[[\]\\]/g, (c) => `\\${c}`);

/** Every image source of the body, in order (duplicates kept once). */
export function findImages(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(MD_IMAGE)) found.add(unwrap(m[2]!));
  for (const m of markdown.matchAll(HTML_IMAGE)) {
    const src = attr(m[0], "src");
    if (src) found.add(src);
  }
  return [...found];
}

/**
 * The body with each image source passed through `replace`: a string is the new source, null
 * drops the image to its alt text, undefined leaves it unchanged.
 */
export function rewriteImages(markdown: string, replace: (src: string) => string | null | undefined): string {
  const md = markdown.replace(MD_IMAGE, (whole, alt: string, src: string, title: string | undefined) => {
    const next = replace(unwrap(src));
    if (next === undefined) return whole;
    if (next === null) return alt;
    return `![${alt}](${next}${title ?? ""})`;
  });
  return md.replace(HTML_IMAGE, (tag) => {
    const src = attr(tag, "src");
    if (!src) return tag;
    const next = replace(src);
    if (next === undefined) return tag;
    const alt = attr(tag, "alt") ?? "";
    if (next === null) return alt;
    return `![${escapeAlt(alt)}](${next})`;
  });
}
