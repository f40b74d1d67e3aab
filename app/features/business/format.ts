import { formatDate as formatDay } from "../../lib/format.ts";

/** "Mar 4, 2026" (UTC), or "—" when there is no date: the organisation screens show every row. */
export const formatDate = (iso: string | null | undefined): string => formatDay(iso) ?? "—";
