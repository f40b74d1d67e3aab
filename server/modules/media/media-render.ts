/**
 * `![alt](media:<id>)` in a Markdown body: the sanitizer lets the `media:` scheme through on image
 * sources only, and this step, run after it, replaces each such source with the media's stable
 * address and its recorded width and height (so the page does not shift as images load). The
 * image's own alt text wins; the library's alt text fills an empty one. A reference that is not
 * exactly `media:<uuid>` of a known public image loses its source: nothing else is ever emitted.
 * Without a look-up (a renderer that has no database) a well-formed reference still gets the
 * stable address, only without its size.
 */
import type { Element, Root } from "hast";
import { visit } from "unist-util-visit";
import { type MediaDisplay, type MediaLookup, mediaFileUrl } from "./media.service.ts";
import { MEDIA_REF } from "./media-refs.ts";

/** The scheme the sanitizer allows on image sources, for this step to resolve. */
export const MEDIA_SCHEME = "media";

/** The rehype step (after rehype-sanitize) that resolves `media:<id>` image sources with `lookup`. */
export function resolveMediaUrls(lookup: MediaLookup | undefined) {
  return () => async (tree: Root) => {
    const images: { node: Element; id: string | null }[] = [];
    visit(tree, "element", (node: Element) => {
      const src = node.properties.src;
      if (typeof src !== "string" || !/^\s*media:/i.test(src)) return;
      if (node.tagName !== "img") {
        delete node.properties.src;
        return;
      }
      images.push({ node, id: MEDIA_REF.exec(src)?.[1] ?? null });
    });
    if (images.length === 0) return;
    const ids = images.flatMap((i) => (i.id ? [i.id] : []));
    const found: Map<string, MediaDisplay> =
      lookup && ids.length > 0
        ? await lookup(ids)
        : new Map(
            ids.map((id) => [
              id,
              { url: mediaFileUrl(id), kind: "image", width: null, height: null, alt: null },
            ]),
          );
    for (const { node, id } of images) {
      const media = id ? found.get(id) : undefined;
      if (media?.kind !== "image") {
        delete node.properties.src;
        continue;
      }
      node.properties.src = media.url;
      if (media.width && media.height) {
        node.properties.width = media.width;
        node.properties.height = media.height;
      }
      const alt = typeof node.properties.alt === "string" ? node.properties.alt.trim() : "";
      if (!alt && media.alt) node.properties.alt = media.alt;
      node.properties.loading = "lazy";
      node.properties.decoding = "async";
    }
  };
}
