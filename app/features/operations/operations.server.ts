/**
 * Loaders and action of /super-admin/infrastructure and /super-admin/database: the operations
 * service with the request's actor (it checks the owner scope again and audits). The integrity
 * check is a POST form (`intent=integrity-check`) checked for this site's Origin, so it works
 * without JavaScript; the backup form posts straight to the REST endpoint, which answers with the
 * file as a download.
 */
import { data, type RouterContextProvider } from "react-router";
import type {
  DatabaseView,
  InfrastructureView,
  IntegrityResult,
} from "../../../server/modules/operations/operations.service.ts";
import { actorContext, requestMetaContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export type IntegrityActionResult =
  | { intent: "integrity-check"; ok: true; result: IntegrityResult }
  | { intent: "integrity-check"; ok: false; message: string };

const refuse = (error: unknown): never => {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401 || e?.status === 403) throw data(e.message ?? "Forbidden", { status: e.status });
  throw error;
};

export async function loadInfrastructure(args: Args): Promise<InfrastructureView> {
  const services = args.context.get(servicesContext);
  return services.operations.infrastructure(args.context.get(actorContext)).catch(refuse);
}

export async function loadDatabase(args: Args): Promise<DatabaseView> {
  const services = args.context.get(servicesContext);
  return services.operations.database(args.context.get(actorContext)).catch(refuse);
}

export async function databaseAction(args: Args): Promise<IntegrityActionResult> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  refuseForeignForm(args.request, services);
  try {
    services.operations.requireOwner(actor, "database.check");
  } catch (error) {
    refuse(error);
  }
  const form = await args.request.formData();
  if (form.get("intent") !== "integrity-check") {
    throw data("Unknown action: send intent=integrity-check.", { status: 400 });
  }
  try {
    const result = await services.operations.integrityCheck(actor, {
      ip: args.context.get(requestMetaContext).clientIp || null,
    });
    return { intent: "integrity-check", ok: true, result };
  } catch (error) {
    const e = error as { status?: number; message?: string };
    if (e?.status === 409) return { intent: "integrity-check", ok: false, message: e.message ?? "Busy" };
    return refuse(error);
  }
}
