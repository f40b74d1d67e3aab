/**
 * "Load more" of the content-management list: the next pages come from the data API
 * (`LIBRARY_PAGE_QUERY` through the UI's GraphQL client, with its retry policy), appended to the
 * server-rendered rows. A pending request is aborted when the list unmounts.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { describeGraphQLError, graphqlRequest, isAbortError } from "../../lib/graphql-client.ts";
import {
  LIBRARY_PAGE_QUERY,
  LIBRARY_PAGE_SIZE,
  type LibraryPage,
  type LibraryRow,
  toLibraryRow,
} from "./library-list.ts";

export interface LibraryPages {
  rows: LibraryRow[];
  nextCursor: string | null;
  loading: boolean;
  error: string | null;
  /** A polite message for screen readers after a page was added. */
  announcement: string;
  loadMore: () => Promise<void>;
}

export function useLibraryPages(initial: LibraryPage): LibraryPages {
  const [rows, setRows] = useState(initial.items);
  const [nextCursor, setNextCursor] = useState(initial.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  const loadMore = useCallback(async () => {
    if (!nextCursor || inFlight.current) return;
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    setError(null);
    try {
      const data = await graphqlRequest(
        LIBRARY_PAGE_QUERY,
        { limit: LIBRARY_PAGE_SIZE, nextToken: nextCursor },
        { signal: controller.signal },
      );
      const page = data.listContentByStatusAndUpdatedAt;
      const added = page.items.map(toLibraryRow);
      setRows((current) => {
        const seen = new Set(current.map((r) => r.id));
        return [...current, ...added.filter((r) => !seen.has(r.id))];
      });
      setNextCursor(page.nextToken);
      setAnnouncement(
        `${added.length} more ${added.length === 1 ? "item" : "items"} loaded${page.nextToken ? "" : "; that is everything"}.`,
      );
    } catch (failure) {
      if (!isAbortError(failure)) setError(describeGraphQLError(failure));
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setLoading(false);
      }
    }
  }, [nextCursor]);

  return { rows, nextCursor, loading, error, announcement, loadMore };
}
