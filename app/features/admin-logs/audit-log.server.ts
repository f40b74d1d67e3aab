/**
 * Loader helper of /admin/logs: reads the GET form's filters from the URL and one page of the
 * audit log through the audit service as the signed-in platform admin (the service checks access
 * again). A bad filter is shown on the screen next to the form, never a crash.
 */
import type { RouterContextProvider } from "react-router";
import { AppError } from "../../../server/errors.ts";
import {
  type AuditLogItem,
  auditQueryParams,
  parseAuditQuery,
} from "../../../server/modules/audit/audit-log.service.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";

/** The form's values as typed (so the form shows them back). */
export interface AuditFormValues {
  q: string;
  actor: string;
  action: string;
  kind: string;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
  sort: string;
}

export interface AuditLogData {
  form: AuditFormValues;
  items: AuditLogItem[];
  nextCursor: string | null;
  /** The current filters as a query string (no cursor): paging and export links keep them. */
  filters: string;
  /** True on a page after the first. */
  paged: boolean;
  error: { field: string | null; message: string } | null;
}

const FORM_KEYS = ["q", "actor", "action", "kind", "targetType", "targetId", "from", "to", "sort"] as const;

export async function loadAuditLog(
  context: Readonly<RouterContextProvider>,
  url: URL,
): Promise<AuditLogData> {
  const params = url.searchParams;
  const form = Object.fromEntries(
    FORM_KEYS.map((k) => [k, k === "action" ? params.getAll(k).join(", ") : (params.get(k) ?? "")]),
  ) as unknown as AuditFormValues;
  // Empty form fields are dropped (a GET form sends every field).
  const clean = new URLSearchParams();
  for (const [key, value] of params) if (value.trim() !== "") clean.append(key, value);
  try {
    const query = parseAuditQuery(clean);
    const page = await context.get(servicesContext).audit.list(context.get(actorContext), query);
    return {
      form,
      items: page.items,
      nextCursor: page.nextCursor,
      filters: auditQueryParams(query, { from: clean.get("from"), to: clean.get("to") }).toString(),
      paged: query.cursor !== null,
      error: null,
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "BAD_USER_INPUT") throw error;
    const field = error.field ? (Object.keys(error.field)[0] ?? null) : null;
    return {
      form,
      items: [],
      nextCursor: null,
      filters: "",
      paged: false,
      error: { field, message: error.message },
    };
  }
}
