import { useEffect, useState } from "react";
import type { PageEngagement } from "../../../server/modules/engagement/engagement.schemas.ts";
import { api } from "../../lib/api.ts";

/**
 * The page's engagement with the reader's own like, Save and progress. An audience page (decision
 * 034) carries the audience's counters only (`deferred`): once it runs, this asks the server for
 * the reader's own state; until the answer arrives the personal controls stay disabled. Any other
 * page's engagement is returned as it is.
 */
export function usePersonalEngagement(
  slug: string,
  engagement: PageEngagement | null | undefined,
): PageEngagement | null | undefined {
  const deferred = engagement?.deferred === true;
  const [own, setOwn] = useState<{ slug: string; value: PageEngagement } | null>(null);
  useEffect(() => {
    if (!deferred) return;
    let current = true;
    api
      .get<PageEngagement>(`/api/content/${encodeURIComponent(slug)}/engagement`)
      .then((value) => {
        if (current) setOwn({ slug, value });
      })
      .catch(() => {
        // Signed out meanwhile (the session check explains it) or offline: the controls stay off.
      });
    return () => {
      current = false;
    };
  }, [slug, deferred]);
  if (!deferred) return engagement;
  return own?.slug === slug ? own.value : engagement;
}
