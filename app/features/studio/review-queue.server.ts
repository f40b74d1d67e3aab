/**
 * Loader helper of `/review` (decision 038): one page of the review queue through the same
 * operation `GET /api/studio/review-queue` calls, as the signed-in writer. A link with a value the
 * operation refuses (an old cursor, a hand-edited section) still shows the queue: the value is
 * dropped and the screen says so.
 */
import type { RouterContextProvider } from "react-router";
import { canPublishContent } from "../../../core/index.ts";
import type { ReviewQueue } from "../../../server/modules/content/freshness.service.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";

export interface ReviewQueuePage {
  queue: ReviewQueue;
  section: string | null;
  cursor: string | null;
  sections: { slug: string; label: string }[];
  /** Whether this writer may mark published items reviewed (content:publish). */
  canMarkReviewed: boolean;
  notices: string[];
}

export interface ReviewQueueRefused {
  refused: string;
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;
const fieldOf = (error: unknown) =>
  Object.keys((error as { field?: Record<string, string> } | null)?.field ?? {})[0];

export async function loadReviewQueue(
  context: Readonly<RouterContextProvider>,
  url: URL,
): Promise<ReviewQueuePage | ReviewQueueRefused> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const sections = services.content.sections().map((s) => ({ slug: s.slug, label: s.label }));
  let section = url.searchParams.get("section") || null;
  let cursor = url.searchParams.get("cursor") || null;
  const notices: string[] = [];
  let queue: ReviewQueue | null = null;
  for (let attempt = 0; queue === null; attempt += 1) {
    try {
      queue = await services.contentModels.freshness.queue(actor, {
        ...(section ? { section } : {}),
        ...(cursor ? { cursor } : {}),
      });
    } catch (error) {
      if (codeOf(error) === "FORBIDDEN") return { refused: (error as Error).message };
      const field = codeOf(error) === "BAD_USER_INPUT" ? fieldOf(error) : undefined;
      if (attempt > 2 || field === undefined) throw error;
      if (field === "cursor") {
        cursor = null;
        notices.push("That page link is out of date, so the queue starts again from the first page.");
      } else if (field === "section") {
        section = null;
        notices.push("The section in the link was not understood, so every section is shown.");
      } else {
        throw error;
      }
    }
  }
  return {
    queue,
    section,
    cursor,
    sections,
    canMarkReviewed: canPublishContent(actor.access),
    notices,
  };
}
