/**
 * The live preview: the body rendered by the server's public pipeline (POST /api/studio/render),
 * PREVIEW_DELAY_MS after typing stops. An older answer never replaces a newer one.
 */
import { useEffect, useState } from "react";
import type { RenderedPreview } from "../../../../server/modules/content/studio.types.ts";
import { ApiError, api } from "../../../lib/api.ts";

export const PREVIEW_DELAY_MS = 400;

export type PreviewState =
  | { kind: "idle" }
  | { kind: "loading"; last: RenderedPreview | null }
  | { kind: "ready"; preview: RenderedPreview }
  | { kind: "failed"; message: string; last: RenderedPreview | null };

const lastOf = (s: PreviewState) => (s.kind === "ready" ? s.preview : s.kind === "idle" ? null : s.last);

const IDLE: PreviewState = { kind: "idle" };

export function usePreview(body: string): PreviewState {
  const [state, setState] = useState<PreviewState>(IDLE);
  useEffect(() => {
    if (body.trim() === "") {
      // The same state while the body stays empty: nothing to render again on each keystroke.
      setState((s) => (s.kind === "idle" ? s : IDLE));
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState((s) => ({ kind: "loading", last: lastOf(s) }));
      api
        .post<RenderedPreview>("/api/studio/render", { body }, { signal: controller.signal })
        .then((preview) => setState({ kind: "ready", preview }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof ApiError ? error.message : "The preview could not be rendered.";
          setState((s) => ({ kind: "failed", message, last: lastOf(s) }));
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body]);
  return state;
}
