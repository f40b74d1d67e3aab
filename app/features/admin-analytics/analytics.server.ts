/**
 * Loader helpers of /admin/analytics, /admin/overview and the /admin figures: read the range
 * (or period) from the URL and the report through the analytics service as the signed-in
 * platform administrator (the service checks access again). A bad range is shown next to the
 * form, never a crash.
 */
import type { RouterContextProvider } from "react-router";
import { AppError } from "../../../server/errors.ts";
import type { AnalyticsReport, OverviewReport } from "../../../server/modules/analytics/analytics.service.ts";
import {
  lastDays,
  parseAnalyticsRange,
  parseOverviewPeriod,
} from "../../../server/modules/analytics/analytics-range.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";

export interface AnalyticsData {
  /** The form as typed (shown back). */
  form: { from: string; to: string; days: string };
  report: AnalyticsReport | null;
  error: { field: string | null; message: string } | null;
}

function badInput(error: unknown): { field: string | null; message: string } | null {
  if (!(error instanceof AppError) || error.code !== "BAD_USER_INPUT") return null;
  return { field: error.field ? (Object.keys(error.field)[0] ?? null) : null, message: error.message };
}

export async function loadAnalytics(
  context: Readonly<RouterContextProvider>,
  url: URL,
): Promise<AnalyticsData> {
  const params = new URLSearchParams();
  // A GET form sends every field: empty ones are dropped.
  for (const [key, value] of url.searchParams) if (value.trim() !== "") params.append(key, value);
  const form = {
    from: url.searchParams.get("from") ?? "",
    to: url.searchParams.get("to") ?? "",
    days: url.searchParams.get("days") ?? "",
  };
  const services = context.get(servicesContext);
  try {
    const range = parseAnalyticsRange(params, services.analytics.now());
    const report = await services.analytics.report(context.get(actorContext), range);
    return { form, report, error: null };
  } catch (error) {
    const bad = badInput(error);
    if (!bad) throw error;
    return { form, report: null, error: bad };
  }
}

export interface OverviewData {
  report: OverviewReport | null;
  error: { field: string | null; message: string } | null;
}

export async function loadOverview(
  context: Readonly<RouterContextProvider>,
  url: URL,
): Promise<OverviewData> {
  const services = context.get(servicesContext);
  try {
    const { period, range } = parseOverviewPeriod(url.searchParams, services.analytics.now());
    return {
      report: await services.analytics.overview(context.get(actorContext), period, range),
      error: null,
    };
  } catch (error) {
    const bad = badInput(error);
    if (!bad) throw error;
    return { report: null, error: bad };
  }
}

/** The /admin figures of a platform administrator: the overview of the last 30 days. */
export async function loadGlance(context: Readonly<RouterContextProvider>): Promise<OverviewReport> {
  const services = context.get(servicesContext);
  const range = lastDays(30, new Date(services.analytics.now()).toISOString().slice(0, 10));
  return services.analytics.overview(context.get(actorContext), "30d", range);
}
