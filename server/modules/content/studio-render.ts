/**
 * The editor's live preview: a body rendered by the public page's own pipeline (render-markdown.ts:
 * sanitizer, heading ids, table of contents, Shiki), so what a writer sees is what readers get.
 * Writers only; the body is held to the same limit as a saved body. `media` gives `media:<id>`
 * images their address and size, as on the public page.
 */
import { z } from "zod";
import { canWriteContent } from "../../../core/index.ts";
import { ForbiddenError, PayloadTooLargeError } from "../../errors.ts";
import { type Actor, requireUser } from "../actor.ts";
import type { MediaLookup } from "../media/media.service.ts";
import { MAX_BODY_BYTES, parseInput } from "./content.schemas.ts";
import { renderMarkdown } from "./render-markdown.ts";
import type { RenderedPreview } from "./studio.types.ts";

export const renderInputSchema = z.strictObject({
  body: z.string({ message: "expected the Markdown text" }),
  format: z.enum(["markdown", "html"]).optional(),
});

/** The preview of `input.body` for a content writer; 401 visitors, 403 readers, 413 past 1 MiB. */
export async function renderStudioPreview(
  actor: Actor,
  input: unknown,
  media?: MediaLookup,
): Promise<RenderedPreview> {
  requireUser(actor);
  if (!canWriteContent(actor.access)) {
    throw new ForbiddenError(
      "only content creators, editors, content managers and admins may preview drafts",
    );
  }
  const { body } = parseInput(renderInputSchema, input, "input");
  if (Buffer.byteLength(body, "utf8") > MAX_BODY_BYTES) {
    throw new PayloadTooLargeError(`The body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.`, {
      field: { body: `at most ${MAX_BODY_BYTES} bytes` },
    });
  }
  // Both formats go through the one pipeline, as on the public page (raw HTML is sanitized away
  // to what the schema allows).
  const rendered = await renderMarkdown(body, { media });
  return { html: rendered.html, headings: rendered.toc };
}
