/**
 * How the item looks where it is shared: a search result (title and description as search engines
 * cut them) and a social card (Open Graph image, title, description and site).
 */
import type { EditorFields } from "./editor-fields.ts";
import { SEO_GUIDE } from "./editor-fields.ts";

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
const first = (...values: string[]) => values.map((v) => v.trim()).find(Boolean) ?? "";

/** An address an <img> may show in the editor: https or a path of this site. */
const showable = (url: string) => /^(https:\/\/|\/)/.test(url.trim());

export function SearchCardPreview({ fields, origin }: { fields: EditorFields; origin: string }) {
  const title = first(fields.seoTitle, fields.title) || "Title of the item";
  const description =
    first(fields.metaDescription, fields.excerpt) ||
    "Add a meta description: it is what people read under the title.";
  const url = first(fields.canonicalUrl) || `${origin}/content/${fields.slug || "…"}`;
  return (
    <figure className="rounded-lg border border-line bg-canvas p-4">
      <figcaption className="mb-2 text-xs font-medium uppercase tracking-wider text-ink-subtle">
        Search result
      </figcaption>
      <p className="truncate text-xs text-ink-muted">{url.replace(/^https:\/\//, "")}</p>
      <p className="mt-0.5 text-lg leading-snug text-accent-text">{cut(title, SEO_GUIDE.seoTitle)}</p>
      <p className="mt-1 text-sm leading-relaxed text-ink-muted">
        {cut(description, SEO_GUIDE.metaDescription)}
      </p>
      {fields.noindex ? (
        <p className="mt-2 text-xs font-medium text-warn-text">Hidden from search engines (noindex).</p>
      ) : null}
    </figure>
  );
}

export function SocialCardPreview({ fields, origin }: { fields: EditorFields; origin: string }) {
  const image = first(fields.ogImage, fields.featuredImage);
  const title = first(fields.ogTitle, fields.seoTitle, fields.title) || "Title of the item";
  const description = first(fields.ogDescription, fields.metaDescription, fields.excerpt);
  const large = fields.twitterCard.trim() !== "summary";
  return (
    <figure className="rounded-lg border border-line bg-canvas p-4">
      <figcaption className="mb-2 text-xs font-medium uppercase tracking-wider text-ink-subtle">
        Social card
      </figcaption>
      <div
        className={
          large
            ? "overflow-hidden rounded-lg border border-line"
            : "flex overflow-hidden rounded-lg border border-line"
        }
      >
        <div
          className={
            large
              ? "flex aspect-[1.91/1] items-center justify-center bg-sunken"
              : "flex size-24 shrink-0 items-center justify-center bg-sunken"
          }
        >
          {image && showable(image) ? (
            <img src={image} alt="" className="size-full object-cover" />
          ) : (
            <span className="px-2 text-center text-xs text-ink-subtle">
              No image: add an Open Graph or featured image
            </span>
          )}
        </div>
        <div className="min-w-0 border-line bg-elevated p-3">
          <p className="truncate text-xs uppercase text-ink-subtle">{new URL(origin).host}</p>
          <p className="truncate text-sm font-semibold text-ink">{title}</p>
          {description ? <p className="line-clamp-2 text-xs text-ink-muted">{description}</p> : null}
        </div>
      </div>
    </figure>
  );
}
