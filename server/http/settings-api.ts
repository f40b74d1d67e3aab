/**
 * System settings REST handlers (issue 14; docs/api/settings.md). The settings service applies the
 * access rules, validates and audits; these handlers resolve the caller, check Origin on writes and
 * map errors through the toolkit.
 *
 * - GET   /api/admin/settings → SettingsView (platform admins: values, catalogue, environment rows)
 * - PATCH /api/admin/settings {<key>: value, …, version} → SettingsView (the platform owner only)
 *   | 400 naming the key | 409 STALE_VERSION
 *
 * Visitors 401; organisation admins, other readers, API keys and service tokens 403.
 */
import type { Context, Hono } from "hono";
import { UnauthenticatedError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { actorHeaders, handler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const settingsRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/admin/settings",
    summary: "System settings (values, catalogue, environment)",
    tag: "Admin: settings",
    access: "person",
    who: "platform admins",
    responses: { 200: { description: "SettingsView" } },
  },
  {
    method: "patch",
    path: "/api/admin/settings",
    summary: "Change settings (`{<key>: value, …, version}`)",
    tag: "Admin: settings",
    access: "person",
    who: "the platform owner",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{<key>: value, …, version}`" },
    responses: { 200: { description: "SettingsView" } },
    errors: [409],
  },
]);

export function registerSettingsApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & { services: Pick<Runtime["services"], "settings"> },
): void {
  const actorOf = async (c: Context): Promise<Actor> => {
    const result = await runtime.identity.resolveActor(actorHeaders(c));
    if (!result.ok) throw new UnauthenticatedError(result.message);
    return result.actor;
  };

  app.get(
    "/api/admin/settings",
    handler(
      runtime,
      async (c) => {
        const view = await runtime.services.settings.read(await actorOf(c));
        c.header("Cache-Control", "private, no-store");
        return c.json(view);
      },
      { logMessage: "settings request failed" },
    ),
  );

  app.patch(
    "/api/admin/settings",
    handler(
      runtime,
      async (c) => {
        const actor = await actorOf(c);
        runtime.services.settings.requireManager(actor); // who asks is checked before the body is read
        const body = await readJsonObject(c);
        const ip = (c.get("clientIp") as string | undefined) ?? null;
        return c.json(await runtime.services.settings.update(actor, body, { ip }));
      },
      { mutates: true, logMessage: "settings request failed" },
    ),
  );
}
