/**
 * Lumen Hub access policy: the single source of truth for tiers, groups, roles, permissions,
 * claims → user context, the route registry, route and content access, plans and the sidebar.
 * Pure TypeScript, no I/O: used by the server (which enforces) and the UI (which explains).
 */
export * from "./access.ts";
export * from "./admin-scope.ts";
export * from "./audience.ts";
export * from "./claims.ts";
export * from "./constants.ts";
export * from "./content-preview.ts";
export * from "./content-workflow.ts";
export * from "./data-rules.ts";
export * from "./debug.ts";
export * from "./effective-subscription.ts";
export * from "./groups.ts";
export * from "./money.ts";
export * from "./password-policy.ts";
export * from "./plan-copy.ts";
export * from "./plans.ts";
export * from "./roles.ts";
export * from "./routes.ts";
export * from "./session.ts";
export * from "./sidebar.ts";
export * from "./staff-mfa.ts";
export * from "./system-settings.ts";
export * from "./tiers.ts";
