/**
 * Loader helpers of the learning screens: the certificate page, the reports page and the
 * completions panel. They call the learning services with the request's actor; the services check
 * access (a reader below Basic gets the reports teaser, never data).
 */
import { data, type RouterContextProvider } from "react-router";
import { canAccessContent } from "../../../core/index.ts";
import type {
  CertificateVerification,
  Completions,
  ReadingReport,
  ReportRange,
} from "../../../server/modules/learning/learning.schemas.ts";
import { REPORTS_MIN_TIER } from "../../../server/modules/learning/reports.service.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";

type Ctx = { context: Readonly<RouterContextProvider> };

export type CertificatePageData = { certificate: CertificateVerification } | { certificate: null };

/** The public certificate page: the verification, or a 404 answer. */
export async function loadCertificate({ context }: Ctx, id: string) {
  const certificate = await context.get(servicesContext).certificates.find(id);
  if (!certificate) return data<CertificatePageData>({ certificate: null }, { status: 404 });
  return { certificate } as CertificatePageData;
}

export type ReportsPageData =
  | { mode: "report"; range: ReportRange; report: ReadingReport }
  | { mode: "teaser"; range: ReportRange };

const RANGES: Record<string, ReportRange> = { "7": 7, "30": 30, "90": 90 };

/** The reports page: the reader's report, or the teaser (no data) for a reader below Basic. */
export async function loadReports({ context }: Ctx, url: URL): Promise<ReportsPageData> {
  const range = RANGES[url.searchParams.get("range") ?? ""] ?? 30;
  const actor = context.get(actorContext);
  // Below Basic: the teaser, and the service is not asked (it would refuse).
  if (!canAccessContent({ minTier: REPORTS_MIN_TIER }, actor.access)) return { mode: "teaser", range };
  return { mode: "report", range, report: await context.get(servicesContext).reports.reading(actor, range) };
}

/**
 * The completions panel's data for the signed-in reader (certificates and courses in progress);
 * null for visitors. Mount `<CompletionsPanel data={…} />` with it.
 */
export async function loadCompletions({ context }: Ctx): Promise<Completions | null> {
  const actor = context.get(actorContext);
  if (!actor.access.isAuthenticated) return null;
  return context.get(servicesContext).certificates.completions(actor);
}
