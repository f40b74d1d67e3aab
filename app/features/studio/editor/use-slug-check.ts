/**
 * Whether a slug is free, asked as the writer types (GET /api/studio/slug, debounced). The item's
 * own slug is always fine (`exclude` = its id).
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

export function useSlugCheck(slug: string, excludeId: string | null, savedSlug: string | null): SlugState {
  const [state, setState] = useState<SlugState>({ kind: "idle" });
  useEffect(() => {
    if (slug === "" || !SLUG_PATTERN.test(slug) || slug === savedSlug) {
      setState({ kind: "idle" });
      return;
    }
    const controller = new AbortController();
    setState({ kind: "checking" });
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ slug });
      if (excludeId) query.set("exclude", excludeId);
      api
        .get<SlugCheck>(`/api/studio/slug?${query}`, { signal: controller.signal })
        .then((check) => setState({ kind: "checked", check }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState({
            kind: "unknown",
            message: error instanceof ApiError ? error.message : "Could not check the address.",
          });
        });
    }, SLUG_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [slug, excludeId, savedSlug]);
  return state;
}
