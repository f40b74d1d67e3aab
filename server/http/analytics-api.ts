/**
 * Analytics and overview REST handlers (issue 14; docs/api/analytics.md). The service checks
 * access (`analytics.read`: platform administrators, decision 009); the range parsers validate.
 *
 * - GET /api/admin/analytics?days=N | from=YYYY-MM-DD&to=YYYY-MM-DD → AnalyticsReport
 * - GET /api/admin/analytics/export?…the same…&format=csv → the daily series as a CSV attachment
 * - GET /api/admin/overview?period=7d|30d|90d → OverviewReport
 *
 * Visitors 401; readers, managers, writers and organisation admins 403; API keys and service
 * tokens 403. Bad parameters: 400 naming the parameter.
 */
import type { Context, Hono } from "hono";
import { BadInputError } from "../errors.ts";
import type { AnalyticsService } from "../modules/analytics/analytics.service.ts";
import { analyticsCsv } from "../modules/analytics/analytics-csv.ts";
import { parseAnalyticsRange, parseOverviewPeriod } from "../modules/analytics/analytics-range.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { personHandler } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: { analytics: AnalyticsService };
};

const analyticsRoute = routeGroup({
  tag: "Admin: analytics",
  access: "person",
  who: "platform admins",
  errors: [400],
});

export const analyticsRoutes = defineRoutes([
  analyticsRoute(
    "get",
    "/api/admin/analytics",
    "Analytics (`?days=N` or `?from=YYYY-MM-DD&to=YYYY-MM-DD`)",
    "AnalyticsReport",
  ),
  analyticsRoute(
    "get",
    "/api/admin/analytics/export",
    "The daily series as CSV (`…the same…&format=csv`)",
    undefined,
    {
      responses: { 200: { description: "A CSV attachment.", contentType: "text/csv" } },
    },
  ),
  analyticsRoute("get", "/api/admin/overview", "The overview (`?period=7d|30d|90d`)", "OverviewReport"),
]);

export function registerAnalyticsApi(app: AnyHono, runtime: Deps): void {
  const analytics = () => runtime.services.analytics;
  const now = () => runtime.services.analytics.now();
  const read = (fn: Parameters<typeof personHandler>[1]) =>
    personHandler(runtime, fn, {
      mutates: false,
      signIn: "Sign in as a platform administrator to see the analytics.",
      notAPerson:
        "Analytics are for signed-in platform administrators; API keys and service tokens cannot read them.",
      logMessage: "analytics request failed",
    });
  const query = (c: Context) => new URL(c.req.url).searchParams;

  app.get(
    "/api/admin/analytics",
    read(async (c, actor) => {
      const range = parseAnalyticsRange(query(c), now());
      c.header("Cache-Control", "no-store");
      return c.json(await analytics().report(actor, range));
    }),
  );

  app.get(
    "/api/admin/analytics/export",
    read(async (c, actor) => {
      const params = query(c);
      const formats = params.getAll("format");
      if (formats.length > 1 || (formats[0] ?? "csv") !== "csv")
        throw new BadInputError("format: only csv", { field: { format: "only csv" } });
      const range = parseAnalyticsRange(params, now(), ["format"]);
      const report = await analytics().report(actor, range);
      return new Response(analyticsCsv(report.series), {
        status: 200,
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="analytics-${range.from}-to-${range.to}.csv"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }),
  );

  app.get(
    "/api/admin/overview",
    read(async (c, actor) => {
      const { period, range } = parseOverviewPeriod(query(c), now());
      c.header("Cache-Control", "no-store");
      return c.json(await analytics().overview(actor, period, range));
    }),
  );
}
