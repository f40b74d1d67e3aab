/**
 * Audit log REST handlers (issue 14, docs/api/audit.md): platform administrators read and export
 * the audit log. The service applies the access rule (`adminAccess("audit.read")`, decision 009)
 * and validates the filters.
 *
 * - GET /api/admin/audit?q&actor&action&kind&targetType&targetId&from&to&sort&cursor&limit
 *       → {items: AuditLogItem[], nextCursor: string | null}
 * - GET /api/admin/audit/export?…the same filters…&format=csv|json → an attachment, streamed, at
 *       most 50,000 rows (CSV cells starting with = + - @ are prefixed with ' against formula
 *       injection).
 *
 * Visitors 401; readers, managers and organisation admins 403; API keys and service tokens 403.
 * Bad parameters: 400 naming the parameter.
 */
import type { Context, Hono } from "hono";
import { BadInputError } from "../errors.ts";
import type { AuditLogItem, AuditLogService } from "../modules/audit/audit-log.service.ts";
import { parseAuditQuery } from "../modules/audit/audit-log.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { personHandler } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const AUDIT_CSV_COLUMNS = [
  "at",
  "actorId",
  "actorEmail",
  "actorName",
  "action",
  "label",
  "category",
  "targetType",
  "targetId",
  "ip",
  "details",
] as const;

/** One CSV cell: formula-looking text gets a leading ', then RFC 4180 quoting. */
export function csvCell(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(item: AuditLogItem): string {
  const cells = [
    item.at,
    item.actor?.id ?? null,
    item.actor?.email ?? null,
    item.actor?.name ?? null,
    item.action,
    item.label,
    item.category,
    item.targetType,
    item.targetId,
    item.ip,
    item.details ? JSON.stringify(item.details) : null,
  ];
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function stream(rows: AsyncIterable<AuditLogItem>, format: "csv" | "json"): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  let started = false;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(format === "csv" ? `${AUDIT_CSV_COLUMNS.join(",")}\r\n` : "["));
        return;
      }
      try {
        const next = await iterator.next();
        if (next.done) {
          if (format === "json") controller.enqueue(encoder.encode("]\n"));
          controller.close();
          return;
        }
        const text =
          format === "csv" ? csvLine(next.value) : `${first ? "" : ","}\n${JSON.stringify(next.value)}`;
        first = false;
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

const auditRoute = routeGroup({
  tag: "Admin: audit",
  access: "person",
  who: "platform admins",
  errors: [400],
});

export const auditRoutes = defineRoutes([
  auditRoute(
    "get",
    "/api/admin/audit",
    "The audit log (`?q&actor&action&kind&targetType&targetId&from&to&sort&cursor&limit`)",
    "`{items: AuditLogItem[], nextCursor}`",
  ),
  auditRoute(
    "get",
    "/api/admin/audit/export",
    "Export the audit log (`…the same filters…&format=csv|json`, at most 50,000 rows)",
    undefined,
    {
      responses: { 200: { description: "An attachment, streamed.", contentType: "text/csv" } },
    },
  ),
]);

export function registerAuditApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & { services: { audit: AuditLogService } },
): void {
  const audit = () => runtime.services.audit;
  const read = (fn: Parameters<typeof personHandler>[1]) =>
    personHandler(runtime, fn, {
      mutates: false,
      signIn: "Sign in as a platform administrator to read the audit log.",
      notAPerson:
        "The audit log is for signed-in platform administrators; API keys and service tokens cannot read it.",
      logMessage: "audit request failed",
    });
  const query = (c: Context) => new URL(c.req.url).searchParams;

  app.get(
    "/api/admin/audit",
    read(async (c, actor) => {
      const params = query(c);
      if (params.has("format"))
        throw new BadInputError("format: only for /api/admin/audit/export", {
          field: { format: "only for the export" },
        });
      return c.json(await audit().list(actor, parseAuditQuery(params)));
    }),
  );

  app.get(
    "/api/admin/audit/export",
    read(async (c, actor) => {
      const params = query(c);
      const format = params.get("format") ?? "csv";
      if ((format !== "csv" && format !== "json") || params.getAll("format").length > 1)
        throw new BadInputError("format: csv or json", { field: { format: "csv or json" } });
      if (params.has("limit"))
        throw new BadInputError("limit: an export holds every matching row (at most 50,000)", {
          field: { limit: "not for exports" },
        });
      const rows = audit().exportRows(actor, parseAuditQuery(params));
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
      return new Response(stream(rows, format), {
        status: 200,
        headers: {
          "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
          "Content-Disposition": `attachment; filename="audit-log-${stamp}.${format}"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }),
  );
}
