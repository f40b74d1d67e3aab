/**
 * Operations REST handlers (issue 14; docs/api/operations.md): /super-admin/infrastructure and
 * /super-admin/database. The operations service checks access (the platform owner only) and
 * audits; these handlers resolve the caller, check Origin on writes and stream the backup.
 *
 * - GET  /api/admin/operations/infrastructure → InfrastructureView (processes, latency, jobs)
 * - GET  /api/admin/operations/database → DatabaseView (migrations, tables, last check, backup kind)
 * - POST /api/admin/operations/database/integrity-check → IntegrityResult (audited)
 * - POST /api/admin/operations/database/backup → SQLite: the backup file as a download (audited);
 *        PostgreSQL: `{ kind: "pg_dump", command, restore, notes }` (no dump is made)
 *
 * Visitors 401; everyone but the owner (platform admins and organisation admins included) 403;
 * API keys and service tokens 403; a write from another site 403 FORBIDDEN_ORIGIN.
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { ipOf, personHandler } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: Pick<Runtime["services"], "operations">;
};

const operationsRoute = routeGroup({ tag: "Admin: operations", access: "person", who: "the platform owner" });

export const operationsRoutes = defineRoutes([
  operationsRoute(
    "get",
    "/api/admin/operations/infrastructure",
    "Processes, latency and jobs",
    "InfrastructureView",
  ),
  operationsRoute(
    "get",
    "/api/admin/operations/database",
    "Migrations, tables, the last check",
    "DatabaseView",
  ),
  operationsRoute(
    "post",
    "/api/admin/operations/database/integrity-check",
    "Run an integrity check (audited)",
    "IntegrityResult",
  ),
  operationsRoute(
    "post",
    "/api/admin/operations/database/backup",
    "Back up the database (audited)",
    undefined,
    {
      responses: {
        200: {
          description:
            'SQLite: the backup file as a download. PostgreSQL: `{kind: "pg_dump", command, restore, notes}` (no dump is made).',
          contentType: "application/octet-stream",
        },
      },
    },
  ),
]);

export function registerOperationsApi(app: AnyHono, runtime: Deps): void {
  const ops = () => runtime.services.operations;
  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as the platform owner.",
      notAPerson: "Operations are for the signed-in platform owner: API keys and service tokens are refused.",
      logMessage: "operations request failed",
    });

  app.get(
    "/api/admin/operations/infrastructure",
    handle(async (c, actor) => c.json(await ops().infrastructure(actor)), false),
  );
  app.get(
    "/api/admin/operations/database",
    handle(async (c, actor) => c.json(await ops().database(actor)), false),
  );
  app.post(
    "/api/admin/operations/database/integrity-check",
    handle(async (c, actor) => c.json(await ops().integrityCheck(actor, { ip: ipOf(c) })), true),
  );
  app.post(
    "/api/admin/operations/database/backup",
    handle(async (c, actor) => {
      const file = await ops().backup(actor, { ip: ipOf(c) });
      if (!file) {
        const view = await ops().database(actor);
        return c.json(view.backup);
      }
      const stream = createReadStream(file.path);
      // The temporary copy is deleted once sent, or when the download is aborted.
      stream.once("close", () => void file.cleanup());
      return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
        status: 200,
        headers: {
          "content-type": "application/vnd.sqlite3",
          "content-length": String(file.bytes),
          "content-disposition": `attachment; filename="${file.filename}"`,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    }, true),
  );
}
