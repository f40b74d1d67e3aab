/**
 * The live preview beside the editor: the server's rendering of the body with the public page's
 * own styles (`prose-content`, app.css) and its table of contents.
 */
import type { RenderedPreview } from "../../../../server/modules/content/studio.types.ts";
import { cx } from "../../../components/ui/cx.ts";
import type { PreviewState } from "./use-preview.ts";

function Contents({ headings }: { headings: RenderedPreview["headings"] }) {
  if (headings.length < 2) return null;
  return (
    <nav aria-label="On this page" className="mb-6 rounded-lg border border-line bg-sunken p-4">
      <p className="mb-2 text-xs font-semibold uppercase tracking-wider text-ink-subtle">On this page</p>
      <ul className="space-y-1 text-sm">
        {headings.map((h) => (
          <li key={h.id} className={h.depth > 2 ? "pl-4" : undefined}>
            <a href={`#${h.id}`} className="text-ink-muted hover:text-ink">
              {h.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function PreviewPane({ state, title }: { state: PreviewState; title: string }) {
  const shown = state.kind === "ready" ? state.preview : state.kind === "idle" ? null : state.last;
  // Code blocks scroll sideways: reachable by keyboard, as on the public page.
  const html = shown?.html.replace(/<pre(?=[\s>])/g, '<pre tabindex="0"') ?? "";
  return (
    <section aria-label="Preview" className="min-w-0">
      <div className="mb-2 flex h-5 items-center justify-between text-xs text-ink-subtle">
        <span>Preview, as readers will see it</span>
        <span aria-live="polite">
          {state.kind === "loading" ? "Updating…" : state.kind === "failed" ? state.message : ""}
        </span>
      </div>
      <div
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls on wide screens; keyboard users must reach it (WCAG 2.1.1)
        tabIndex={0}
        className={cx(
          "min-h-[22rem] rounded-lg border border-line bg-canvas px-5 py-6 sm:px-7 lg:h-[calc(100dvh-11rem)] lg:overflow-y-auto",
          state.kind === "loading" && "opacity-80",
        )}
      >
        {title.trim() ? (
          <h1 className="mb-6 text-3xl font-semibold tracking-tight text-ink">{title}</h1>
        ) : null}
        {shown ? <Contents headings={shown.headings} /> : null}
        {shown ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitized by the server's public pipeline (rehype-sanitize)
          <div className="prose-content" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <p className="text-sm text-ink-subtle">The preview appears here as you write.</p>
        )}
      </div>
    </section>
  );
}
