/**
 * Whether a slug is free, asked as the writer types (GET /api/studio/slug, debounced). The item's
 * own slug is always fine (`exclude` = its id).
 *
 * "Checking" is derived (the last answer is for another slug), not set on each keystroke: the
 * effect sets state only when an answer arrives (see the status effect in editor-screen.tsx).
 */
import { useEffect, useState } from "react";
import type { SlugCheck } from "../../../../server/modules/content/studio.types.ts";
import { ApiError, api } from "../../../lib/api.ts";
import { SLUG_PATTERN } from "./slugify.ts";

export const SLUG_CHECK_DELAY_MS = 350;

export type SlugState =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "checked"; check: SlugCheck }
  | { kind: "unknown"; message: string };

const IDLE: SlugState = { kind: "idle" };
const CHECKING: SlugState = { kind: "checking" };

export function useSlugCheck(slug: string, excludeId: string | null, savedSlug: string | null): SlugState {
  /** The last answer and what it answered. */
  const [answer, setAnswer] = useState<{ slug: string; excludeId: string | null; state: SlugState } | null>(
    null,
  );
  const wanted = slug !== "" && SLUG_PATTERN.test(slug) && slug !== savedSlug;
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ slug });
      if (excludeId) query.set("exclude", excludeId);
      api
        .get<SlugCheck>(`/api/studio/slug?${query}`, { signal: controller.signal })
        .then((check) => setAnswer({ slug, excludeId, state: { kind: "checked", check } }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setAnswer({
            slug,
            excludeId,
            state: {
              kind: "unknown",
              message: error instanceof ApiError ? error.message : "Could not check the address.",
            },
          });
        });
    }, SLUG_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [slug, excludeId, wanted]);
  if (!wanted) return IDLE;
  return answer && answer.slug === slug && answer.excludeId === excludeId ? answer.state : CHECKING;
}
