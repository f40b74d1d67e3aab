import type { Actor } from "../actor.ts";

export interface ComponentHealth {
  ok: boolean;
  latencyMs: number;
  kind: string;
  error?: string;
}

export interface Health {
  status: "ok" | "degraded";
  version: string;
  uptimeS: number;
  db: ComponentHealth;
  storage: ComponentHealth;
}

/**
 * Diagnostics. The public reading (`/admin-debug`, `/health-check`) counts published items and
 * active categories only and names no runtime detail (Node version, platform) an attacker could
 * fingerprint; the internal reading (the admin screens, behind the route guard) adds those and
 * counts all records.
 */
export interface Diagnostics extends Health {
  environment: string;
  startedAt: string;
  routeCount: number;
  featureFlags: Record<string, boolean>;
  configuration: Array<{ name: string; value: string }>;
  counts: { content: number; categories: number; users?: number };
  /** Internal reading only. */
  node?: string;
  /** Internal reading only. */
  platform?: string;
}

export interface DiagnosticsService {
  health(): Promise<Health>;
  /** `reading: "public"` for the public pages; the internal reading (default) for admin screens. */
  diagnostics(options?: { reading?: "public" | "internal" }): Promise<Diagnostics>;
  /** The internal reading for an admin screen: platform administrators only (admin scope "platform"). */
  adminDiagnostics(actor: Actor): Promise<Diagnostics>;
}
