/**
 * Loader and action of /super-admin/security (and the /super-admin summary): the security-admin
 * service's operations with the request's actor (the service checks the owner scope again). The
 * sessions filter is a GET form; every change is a POST form (`intent`) checked for this site's
 * Origin, so the screen works without JavaScript. A new or rotated secret is in the action's
 * answer only (no-store): a reload shows the list without it.
 */
import { data, type RouterContextProvider } from "react-router";
import { SERVICE_SCOPES, type ServiceCredentialInfo } from "../../../server/auth/service-credentials.ts";
import type {
  CredentialView,
  SecurityOverview,
  SessionsPage,
} from "../../../server/modules/security-admin/security-admin.service.ts";
import { actorContext, requestMetaContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";
import { formProblemOf, refuseIfDenied, rethrowDenied } from "../../lib/service-errors.server.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export interface SecurityFormResult {
  intent: string;
  id: string | null;
  ok: boolean;
  message: string;
  field: Record<string, string>;
  /** After create or rotate only: the secret, shown once. */
  secret: { name: string; clientId: string; clientSecret: string } | null;
}

export interface SecurityScreenData {
  overview: SecurityOverview;
  sessions: SessionsPage | null;
  sessionsError: { message: string; field: Record<string, string> } | null;
  filters: { email: string };
  credentials: CredentialView[];
  scopes: readonly string[];
}

export async function loadSecurityScreen(args: Args): Promise<SecurityScreenData> {
  const scopes: readonly string[] = SERVICE_SCOPES;
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const url = new URL(args.request.url);
  const filters = { email: url.searchParams.get("email")?.trim() ?? "" };
  const query: Record<string, string> = {};
  if (filters.email) query.email = filters.email;
  const page = url.searchParams.get("page")?.trim();
  if (page) query.page = page;
  const security = services.securityAdmin;
  const [overview, credentials] = await Promise.all([
    security.overview(actor).catch(rethrowDenied),
    security.listCredentials(actor).catch(rethrowDenied),
  ]);
  try {
    return {
      overview,
      sessions: await security.listSessions(actor, query),
      sessionsError: null,
      filters,
      credentials,
      scopes,
    };
  } catch (error) {
    refuseIfDenied(error);
    const problem = formProblemOf(error);
    if (!problem) throw error;
    return { overview, sessions: null, sessionsError: problem, filters, credentials, scopes };
  }
}

/** The /super-admin summary: the console's figures (the owner only; the route guard checked). */
export async function loadSecuritySummary(args: Args): Promise<SecurityOverview> {
  const services = args.context.get(servicesContext);
  return services.securityAdmin.overview(args.context.get(actorContext)).catch(rethrowDenied);
}

const text = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value.trim() : "";
};

const secretOf = (c: ServiceCredentialInfo & { clientSecret: string }) => ({
  name: c.name,
  clientId: c.clientId,
  clientSecret: c.clientSecret,
});

export async function securityAction(args: Args) {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const intent = text(form, "intent");
  const id = text(form, "id") || null;
  const ip = args.context.get(requestMetaContext).clientIp || null;
  const security = services.securityAdmin;
  const done = (message: string, secret: SecurityFormResult["secret"] = null): SecurityFormResult => ({
    intent,
    id,
    ok: true,
    message,
    field: {},
    secret,
  });
  const note = text(form, "note");
  const withNote = note ? { note } : {};
  let result: SecurityFormResult;
  try {
    if (intent === "revoke-session" && id) {
      await security.revokeSession(actor, id, withNote, { ip });
      result = done(`Revoked the session of ${text(form, "email") || "this user"}.`);
    } else if (intent === "revoke-user" && id) {
      const r = await security.revokeUserSessions(actor, id, withNote, { ip });
      result = done(
        `Revoked ${r.revoked} session${r.revoked === 1 ? "" : "s"} of ${text(form, "email") || "this user"}.`,
      );
    } else if (intent === "clear-lock" && id) {
      await security.clearLockout(actor, { key: id, ...withNote }, { ip });
      result = done(`Cleared the lock on ${text(form, "subject") || id}.`);
    } else if (intent === "create-credential") {
      const scopes = form.getAll("scopes").filter((s): s is string => typeof s === "string");
      const created = await security.createCredential(actor, { name: text(form, "name"), scopes }, { ip });
      result = done(`Created the service credential “${created.name}”.`, secretOf(created));
    } else if (intent === "rotate-credential" && id) {
      const rotated = await security.rotateCredential(actor, id, { ip });
      result = done(
        `Rotated the secret of “${rotated.name}”: the old secret no longer works.`,
        secretOf(rotated),
      );
    } else if (intent === "revoke-credential" && id) {
      await security.revokeCredential(actor, id, { ip });
      result = done(`Revoked the service credential “${text(form, "name") || id}”.`);
    } else {
      throw data("Unknown action", { status: 400 });
    }
  } catch (error) {
    refuseIfDenied(error);
    const problem = formProblemOf(error);
    if (!problem) throw error;
    result = { intent, id, ok: false, message: problem.message, field: problem.field, secret: null };
  }
  return data(result, { headers: { "Cache-Control": "no-store" } });
}
