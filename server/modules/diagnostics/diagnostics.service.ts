import { adminAccess, flattenRoutes } from "../../../core/index.ts";
import { ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { ComponentHealth, Diagnostics, DiagnosticsService, Health } from "./diagnostics.types.ts";

export interface DiagnosticsDeps {
  version: string;
  environment: string;
  startedAt: Date;
  featureFlags: Record<string, boolean>;
  databaseKind: string;
  storageKind: string;
  pingDatabase(): Promise<{ ok: boolean; latencyMs: number; error?: string }>;
  pingStorage(): Promise<{ ok: boolean; latencyMs: number; error?: string }>;
  /** All records (internal reading). */
  counts(): Promise<{ content: number; categories: number; users: number }>;
  /** Published items and active categories (public reading). */
  publicCounts(): Promise<{ content: number; categories: number }>;
  /** Configuration shape: names and non-secret descriptions only. */
  configuration: Array<{ name: string; value: string }>;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Errors are reduced to their class of failure so no connection string or path leaks. */
function safeError(error: string | undefined): string | undefined {
  if (!error) return undefined;
  if (/ECONNREFUSED|connect/i.test(error)) return "connection refused";
  if (/timeout/i.test(error)) return "timed out";
  if (/EACCES|permission/i.test(error)) return "permission denied";
  return "unavailable";
}

export function createDiagnosticsService(deps: DiagnosticsDeps): DiagnosticsService {
  const component = async (
    kind: string,
    ping: () => Promise<{ ok: boolean; latencyMs: number; error?: string }>,
  ): Promise<ComponentHealth> => {
    try {
      const r = await ping();
      return {
        ok: r.ok,
        latencyMs: round(r.latencyMs),
        kind,
        ...(r.ok ? {} : { error: safeError(r.error) }),
      };
    } catch (error) {
      return { ok: false, latencyMs: 0, kind, error: safeError((error as Error).message) };
    }
  };

  const health = async (): Promise<Health> => {
    const [db, storage] = await Promise.all([
      component(deps.databaseKind, deps.pingDatabase),
      component(deps.storageKind, deps.pingStorage),
    ]);
    return {
      status: db.ok && storage.ok ? "ok" : "degraded",
      version: deps.version,
      uptimeS: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
      db,
      storage,
    };
  };

  const service: DiagnosticsService = {
    health,
    async diagnostics(options: { reading?: "public" | "internal" } = {}): Promise<Diagnostics> {
      const internal = options.reading !== "public";
      const [h, counts] = await Promise.all([
        health(),
        internal
          ? deps.counts().catch(() => ({ content: -1, categories: -1, users: -1 }))
          : deps.publicCounts().catch(() => ({ content: -1, categories: -1 })),
      ]);
      return {
        ...h,
        environment: deps.environment,
        ...(internal ? { node: process.version, platform: `${process.platform}/${process.arch}` } : {}),
        startedAt: deps.startedAt.toISOString(),
        routeCount: flattenRoutes().length,
        featureFlags: { ...deps.featureFlags },
        configuration: deps.configuration,
        counts,
      };
    },
    async adminDiagnostics(actor) {
      // Installation-wide figures are platform-scoped: organisation admins are refused here.
      const decision = adminAccess("diagnostics.read", actor.access);
      if (decision.kind === "denied") {
        throw decision.reason === "auth"
          ? new UnauthenticatedError(decision.message)
          : new ForbiddenError(decision.message);
      }
      return service.diagnostics();
    },
  };
  return service;
}
