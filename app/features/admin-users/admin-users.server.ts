/**
 * Loaders and action of /admin/users and /admin/users/:userId: the users admin service
 * (server/modules/users-admin) with the request's actor — it checks every rule (scope, §6 grants,
 * whose account); the plan card grants through the billing admin write path (the same service
 * /admin/subscriptions uses). Filters are a GET form; every action is a POST form (`intent`)
 * checked for this site's Origin, so both screens work without JavaScript.
 */
import { data, type RouterContextProvider, redirect } from "react-router";
import type {
  AdminUserDetail,
  AdminUserPage,
} from "../../../server/modules/users-admin/users-admin.types.ts";
import { actorContext, requestMetaContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export interface UserActionResult {
  intent: string;
  ok: boolean;
  message: string;
  field: Record<string, string>;
}

/** The filter keys the list's form sends (blank ones are dropped). */
export const USER_FILTER_KEYS = [
  "q",
  "tier",
  "group",
  "status",
  "organisation",
  "mfa",
  "sort",
  "dir",
  "page",
] as const;

function errorOf(error: unknown): { message: string; field: Record<string, string> } | null {
  const e = error as { code?: unknown; message?: unknown; field?: unknown; status?: unknown };
  if (typeof e?.code !== "string" || typeof e.status !== "number" || e.status >= 500) return null;
  if (e.status === 401) return null;
  return {
    message: String(e.message),
    field: (e.field && typeof e.field === "object" ? e.field : {}) as Record<string, string>,
  };
}

/** 401/403 become the error page; 404 too ("No such user."). */
const rethrowAccess = (error: unknown): never => {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401 || e?.status === 403 || e?.status === 404) {
    throw data(e.message ?? "Forbidden", { status: e.status });
  }
  throw error;
};

export async function loadUserList(args: Args): Promise<{
  page: AdminUserPage | null;
  filters: Record<string, string>;
  filterError: { message: string; field: Record<string, string> } | null;
  /** null: every organisation (platform admin); else the organisations the caller manages. */
  scopeOrgs: string[] | null;
  groups: string[];
  organisations: { slug: string; name: string }[];
}> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const url = new URL(args.request.url);
  const filters: Record<string, string> = {};
  for (const key of USER_FILTER_KEYS) {
    const value = url.searchParams.get(key)?.trim();
    if (value) filters[key] = value;
  }
  const meta = await services.usersAdmin.filterOptions(actor).catch(rethrowAccess);
  try {
    return { page: await services.usersAdmin.list(actor, filters), filters, filterError: null, ...meta };
  } catch (error) {
    const problem = errorOf(error);
    if (!problem || (error as { status?: number }).status !== 400) rethrowAccess(error);
    return { page: null, filters, filterError: problem, ...meta };
  }
}

/** True when `email` names no account (after a deletion), as far as the caller may see. */
export async function deletedEmail(args: Args, email: string): Promise<boolean> {
  if (email.length > 320 || !email.includes("@")) return false;
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const page = await services.usersAdmin.list(actor, { q: email, limit: 5 }).catch(() => null);
  return page !== null && !page.items.some((u) => u.email.toLowerCase() === email);
}

export async function loadUserDetail(
  args: Args,
  userId: string,
): Promise<{ user: AdminUserDetail; plans: { id: string; name: string; tier: string }[] }> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const user = await services.usersAdmin.detail(actor, userId).catch(rethrowAccess);
  const plans = user.can.plan
    ? (await services.plans.listAll(actor))
        .filter((p) => !p.archived && !p.perSeat && p.tier !== "free")
        .map((p) => ({ id: p.id, name: p.name, tier: p.tier }))
    : [];
  return { user, plans };
}

const text = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value.trim() : "";
};

export async function userAction(args: Args, userId: string): Promise<UserActionResult | Response> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const intent = text(form, "intent");
  const note = text(form, "note");
  const withNote = note ? { note } : {};
  const users = services.usersAdmin;
  const ok = (message: string): UserActionResult => ({ intent, ok: true, message, field: {} });
  try {
    switch (intent) {
      case "add-group":
      case "remove-group": {
        const group = text(form, "group");
        const body = intent === "add-group" ? { add: [group] } : { remove: [group] };
        await users.changeGroups(actor, userId, { ...body, ...withNote });
        return ok(intent === "add-group" ? `Added ${group}.` : `Removed ${group}.`);
      }
      case "revoke-session":
        await users.revokeSessions(actor, userId, text(form, "sessionId"), withNote);
        return ok("The session is signed out.");
      case "revoke-all": {
        const { revoked } = await users.revokeSessions(actor, userId, null, withNote);
        return ok(`Signed out of ${revoked} session${revoked === 1 ? "" : "s"}.`);
      }
      case "unlock": {
        const ip = args.context.get(requestMetaContext).clientIp || null;
        const { unlocked } = await users.unlock(actor, userId, withNote, ip);
        return ok(unlocked ? "Unlocked: they can sign in again." : "The account was not locked.");
      }
      case "reset-mfa":
        await users.resetMfa(actor, userId, withNote);
        return ok("Two-factor sign-in is reset and every session signed out: they enrol again.");
      case "revoke-key":
        await users.revokeApiKey(actor, userId, text(form, "keyId"), withNote);
        return ok("The API key is revoked.");
      case "suspend":
        await users.setActive(actor, userId, false, withNote);
        return ok("Suspended: sign-in is refused and every session and API key stopped working.");
      case "reinstate":
        await users.setActive(actor, userId, true, withNote);
        return ok("Reinstated: they can sign in again.");
      case "grant-plan": {
        const input: Record<string, string> = {
          email: text(form, "email"),
          planId: text(form, "planId"),
          days: text(form, "days"),
          note,
        };
        const view = await services.billing.grant(actor, input);
        return ok(`${view.user.email} now has ${view.planId} until ${view.expiresAt?.slice(0, 10)}.`);
      }
      case "delete": {
        const email = text(form, "confirm");
        await users.deleteUser(actor, userId, { confirm: email, ...withNote });
        return redirect(`/admin/users?deleted=${encodeURIComponent(email)}`);
      }
      default:
        throw data("Unknown action", { status: 400 });
    }
  } catch (error) {
    const problem = errorOf(error);
    if (!problem) throw error;
    return { intent, ok: false, message: problem.message, field: problem.field };
  }
}
