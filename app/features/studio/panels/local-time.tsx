import { useEffect, useState } from "react";
import { formatDateTime } from "../../../lib/format.ts";

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * A time in the reader's own time zone. The server renders it in UTC (it cannot know the zone);
 * the browser swaps in local time after hydration, so both render the same first.
 */
export function LocalTime({ iso }: { iso: string | null | undefined }) {
  const [local, setLocal] = useState(false);
  useEffect(() => setLocal(true), []);
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return <time dateTime={iso}>{local ? localFormat.format(d) : formatDateTime(iso)}</time>;
}
