/**
 * Admin content REST handlers (issue 14, /admin/content; docs/api/admin-content.md). The content
 * admin service (content-admin.service.ts) checks access (`content.admin`: platform
 * administrators) and validates; these handlers resolve the caller, check Origin on cookie
 * writes and map errors. After a write the service makes this process drop its cached pages at
 * once (the other processes follow the content revision within a second).
 *
 * - GET  /api/admin/content/featured                 → { version, items }
 * - PUT  /api/admin/content/featured {version, ids, note?} → { version, items }
 * - GET  /api/admin/content/picker?q=&type=          → { items }
 * - GET  /api/admin/content/categories               → { version, items }
 * - POST /api/admin/content/categories {slug, label, …} → 201 category
 * - PATCH /api/admin/content/categories/:id {…}      → category
 * - PUT  /api/admin/content/categories/order {version, ids} → { version, items }
 * - GET  /api/admin/content/collections              → { items }
 * - POST /api/admin/content/collections {title, slug, description?, tier?, section?} → 201 collection
 * - GET  /api/admin/content/collections/:id          → collection
 * - PATCH /api/admin/content/collections/:id {version, title?, slug?, description?, tier?, section?, members?}
 * - POST /api/admin/content/collections/:id/hide {version, note?} / …/show {version, note?}
 *
 * Visitors 401; API keys and service tokens 403; everyone but platform administrators
 * (organisation admins and content managers included) 403; a stale `version` 409 STALE_VERSION.
 */
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import {
  categoryCreateSchema,
  categoryUpdateSchema,
  collectionCreateSchema,
  collectionUpdateSchema,
  orderSchema,
  pickerSchema,
  requireContentAdmin,
  versionOnlySchema,
} from "../modules/content/content-admin.service.ts";
import type { Runtime } from "../runtime.ts";
import type { ApiRoute } from "./openapi-registry.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: Pick<Runtime["services"], "contentModels">;
};

const adminContentRoute = routeGroup({ tag: "Admin: content", access: "person", who: "platform admins" });
const json = (body: ApiRoute["body"]) => ({ body, errors: [409] });

export const adminContentRoutes = defineRoutes([
  adminContentRoute("get", "/api/admin/content/featured", "Featured items", "`{version, items}`"),
  adminContentRoute(
    "put",
    "/api/admin/content/featured",
    "Set the featured items",
    "`{version, items}`",
    json(orderSchema),
  ),
  adminContentRoute("get", "/api/admin/content/picker", "Find items to pick", "`{items}`", {
    query: pickerSchema,
  }),
  adminContentRoute("get", "/api/admin/content/categories", "Categories", "`{version, items}`"),
  adminContentRoute("post", "/api/admin/content/categories", "Create a category", undefined, {
    ...json(categoryCreateSchema),
    responses: { 201: { description: "The category." } },
  }),
  adminContentRoute(
    "put",
    "/api/admin/content/categories/order",
    "Order the categories",
    "`{version, items}`",
    json(orderSchema),
  ),
  adminContentRoute(
    "patch",
    "/api/admin/content/categories/:id",
    "Change a category",
    "The category.",
    json(categoryUpdateSchema),
  ),
  adminContentRoute("get", "/api/admin/content/collections", "Collections", "`{items}`"),
  adminContentRoute("post", "/api/admin/content/collections", "Create a collection", undefined, {
    ...json(collectionCreateSchema),
    responses: { 201: { description: "The collection." } },
  }),
  adminContentRoute("get", "/api/admin/content/collections/:id", "A collection", "The collection."),
  adminContentRoute(
    "patch",
    "/api/admin/content/collections/:id",
    "Change a collection",
    "The collection.",
    json(collectionUpdateSchema),
  ),
  adminContentRoute(
    "post",
    "/api/admin/content/collections/:id/hide",
    "Hide a collection",
    "The collection.",
    json(versionOnlySchema),
  ),
  adminContentRoute(
    "post",
    "/api/admin/content/collections/:id/show",
    "Show a collection again",
    "The collection.",
    json(versionOnlySchema),
  ),
]);

export function registerAdminContentApi(app: AnyHono, runtime: Deps): void {
  const admin = () => runtime.services.contentModels.admin;
  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as a platform administrator.",
      notAPerson:
        "The content library is administered by a signed-in platform administrator: API keys and service tokens are refused.",
      logMessage: "admin content request failed",
    });
  /** Who asks is checked before the body is read. */
  const write = (fn: (c: Context, actor: Actor, body: Record<string, unknown>) => Promise<Response>) =>
    handle(async (c, actor) => {
      requireContentAdmin(actor);
      return fn(c, actor, await readJsonObject(c));
    }, true);
  const id = (c: Context) => c.req.param("id") ?? "";

  app.get(
    "/api/admin/content/featured",
    handle(async (c, actor) => c.json(await admin().featured(actor)), false),
  );
  app.put(
    "/api/admin/content/featured",
    write(async (c, actor, body) => c.json(await admin().saveFeatured(actor, body))),
  );
  app.get(
    "/api/admin/content/picker",
    handle(async (c, actor) => c.json({ items: await admin().pick(actor, c.req.query()) }), false),
  );
  app.get(
    "/api/admin/content/categories",
    handle(async (c, actor) => c.json(await admin().categories(actor)), false),
  );
  app.post(
    "/api/admin/content/categories",
    write(async (c, actor, body) => c.json(await admin().createCategory(actor, body), 201)),
  );
  // Registered before /categories/:id so that "order" is never read as an id.
  app.put(
    "/api/admin/content/categories/order",
    write(async (c, actor, body) => c.json(await admin().orderCategories(actor, body))),
  );
  app.patch(
    "/api/admin/content/categories/:id",
    write(async (c, actor, body) => c.json(await admin().updateCategory(actor, id(c), body))),
  );
  app.get(
    "/api/admin/content/collections",
    handle(async (c, actor) => c.json({ items: await admin().collections(actor) }), false),
  );
  app.post(
    "/api/admin/content/collections",
    write(async (c, actor, body) => c.json(await admin().createCollection(actor, body), 201)),
  );
  app.get(
    "/api/admin/content/collections/:id",
    handle(async (c, actor) => c.json(await admin().collection(actor, id(c))), false),
  );
  app.patch(
    "/api/admin/content/collections/:id",
    write(async (c, actor, body) => c.json(await admin().updateCollection(actor, id(c), body))),
  );
  app.post(
    "/api/admin/content/collections/:id/hide",
    write(async (c, actor, body) => c.json(await admin().hideCollection(actor, id(c), body))),
  );
  app.post(
    "/api/admin/content/collections/:id/show",
    write(async (c, actor, body) => c.json(await admin().showCollection(actor, id(c), body))),
  );
}
