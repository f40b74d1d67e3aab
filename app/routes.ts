import { type RouteConfig, type RouteConfigEntry, route } from "@react-router/dev/routes";
import { flattenRoutes } from "../core/index.ts";

/**
 * The route table is built from core's registry (spec §2): every registry path must have a screen
 * module here, and every module path here must be in the registry. Both mistakes stop the build.
 * A file used for several paths gets one explicit id per extra path.
 */
type ModuleRef = string | { file: string; id: string };

const MODULES: Record<string, ModuleRef> = {
  "/": "routes/home.tsx",
  "/pricing": "routes/pricing.tsx",
  "/unsubscribe": "routes/unsubscribe.tsx",
  "/auth/signin": "routes/auth/sign-in.tsx",
  "/auth/signup": { file: "routes/auth/sign-in.tsx", id: "routes/auth/sign-up" },
  "/auth/confirm": "routes/auth/confirm.tsx",
  "/ai-education": "routes/sections/ai-education.tsx",
  "/workforce-tools": "routes/sections/workforce-tools.tsx",
  "/resources": "routes/sections/resources.tsx",
  "/resources/:slug": "routes/resource-detail.tsx",
  "/ai-news": "routes/sections/ai-news.tsx",
  "/documentation": "routes/sections/documentation.tsx",
  "/section/:section": "routes/section.tsx",
  "/category/:category": "routes/category.tsx",
  "/content/:slug": "routes/content-page.tsx",
  "/collection/:collection": "routes/collection.tsx",
  "/certificates/:id": "routes/certificate.tsx",
  "/content/*": "routes/content-splat.tsx",
  "/section/*": { file: "routes/content-splat.tsx", id: "routes/section-splat" },
  "/category/*": { file: "routes/content-splat.tsx", id: "routes/category-splat" },
  "/admin-debug": "routes/admin-debug.tsx",
  "/health-check": "routes/health-check.tsx",
  "/subscription": "routes/account/subscription.tsx",
  "/checkout": "routes/account/checkout.tsx",
  "/checkout/:id": "routes/account/checkout-status.tsx",
  "/dashboard": "routes/account/dashboard.tsx",
  "/dashboard/reports": "routes/account/reports.tsx",
  "/profile": "routes/account/profile.tsx",
  "/settings": "routes/account/settings.tsx",
  "/individual/dashboard": "routes/account/individual-dashboard.tsx",
  "/business/dashboard": "routes/business/dashboard.tsx",
  "/business/profile": "routes/business/profile.tsx",
  "/business/start": "routes/business/start.tsx",
  "/content": "routes/manage/content.tsx",
  "/create": "routes/manage/create.tsx",
  "/content/:id/edit": "routes/manage/edit.tsx",
  "/review": "routes/manage/review.tsx",
  "/moderate": "routes/manage/moderate.tsx",
  "/admin": "routes/admin/index.tsx",
  "/admin/overview": "routes/admin/overview.tsx",
  "/admin/users": "routes/admin/users.tsx",
  "/admin/users/:userId": "routes/admin/user.tsx",
  "/admin/content": "routes/admin/content.tsx",
  "/admin/subscriptions": "routes/admin/subscriptions.tsx",
  "/admin/analytics": "routes/admin/analytics.tsx",
  "/admin/logs": "routes/admin/logs.tsx",
  "/admin/webhooks": "routes/admin/webhooks.tsx",
  "/super-admin": "routes/super-admin/index.tsx",
  "/super-admin/system-config": "routes/super-admin/system-config.tsx",
  "/super-admin/security": "routes/super-admin/security.tsx",
  "/super-admin/infrastructure": "routes/super-admin/infrastructure.tsx",
  "/super-admin/database": "routes/super-admin/database.tsx",
  "/403": "routes/forbidden.tsx",
  "/404": { file: "routes/not-found.tsx", id: "routes/not-found-page" },
};

const registry = flattenRoutes();
const registered = new Set(registry.map((r) => r.path));

const stale = Object.keys(MODULES).filter((path) => !registered.has(path));
if (stale.length > 0) {
  throw new Error(`app/routes.ts maps paths that are not in core's route registry: ${stale.join(", ")}`);
}

const entries: RouteConfigEntry[] = registry.map((definition) => {
  const ref = MODULES[definition.path];
  if (!ref) {
    throw new Error(
      `Route ${definition.path} ("${definition.label}") is in core's registry but has no screen module; add it to MODULES in app/routes.ts`,
    );
  }
  return typeof ref === "string"
    ? route(definition.path, ref)
    : route(definition.path, ref.file, { id: ref.id });
});

export default [...entries, route("*", "routes/not-found.tsx")] satisfies RouteConfig;
