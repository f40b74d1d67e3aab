/**
 * Loader and action of /admin/webhooks: the webhooks service's operations with the request's
 * actor (the service checks the platform scope again). `?endpoint=<id>` selects the endpoint
 * whose delivery log is shown (`&before=<id>` pages on). Every change is a POST form (`intent`)
 * checked for this site's Origin, so the screen works without JavaScript. A new or rotated secret
 * is in the action's answer only (no-store): a reload shows the list without it.
 */
import { data, type RouterContextProvider } from "react-router";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../../../server/modules/webhooks/webhooks.service.ts";
import { actorContext, requestMetaContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";
import { formProblemOf, refuseIfDenied, rethrowDenied } from "../../lib/service-errors.server.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export interface WebhookFormResult {
  intent: string;
  id: string | null;
  ok: boolean;
  message: string;
  field: Record<string, string>;
  /** After create or rotate only: the signing secret, shown once. */
  secret: { url: string; secret: string } | null;
}

export interface WebhooksScreenData {
  endpoints: WebhookEndpoint[];
  events: { name: string; label: string }[];
  selected: WebhookEndpoint | null;
  deliveries: WebhookDelivery[];
  nextBefore: string | null;
  paged: boolean;
}

export async function loadWebhooksScreen(args: Args): Promise<WebhooksScreenData> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const url = new URL(args.request.url);
  const webhooks = services.webhooks;
  const endpoints = await webhooks.list(actor).catch(rethrowDenied);
  const wanted = url.searchParams.get("endpoint");
  const selected = endpoints.find((e) => e.id === wanted) ?? endpoints[0] ?? null;
  const before = url.searchParams.get("before");
  const events = WEBHOOK_EVENTS.map((name) => ({ name, label: WEBHOOK_EVENT_LABELS[name] }));
  if (!selected) return { endpoints, events, selected: null, deliveries: [], nextBefore: null, paged: false };
  const page = await webhooks
    .deliveries(actor, selected.id, { before: before && before.length <= 100 ? before : null, limit: 25 })
    .catch(rethrowDenied);
  return {
    endpoints,
    events,
    selected,
    deliveries: page.items,
    nextBefore: page.nextBefore,
    paged: Boolean(before),
  };
}

const text = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value.trim() : "";
};

export async function webhooksAction(args: Args) {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const intent = text(form, "intent");
  const id = text(form, "id") || null;
  const ip = args.context.get(requestMetaContext).clientIp || null;
  const webhooks = services.webhooks;
  const done = (message: string, secret: WebhookFormResult["secret"] = null): WebhookFormResult => ({
    intent,
    id,
    ok: true,
    message,
    field: {},
    secret,
  });
  const events = () => form.getAll("events").filter((s): s is string => typeof s === "string");
  let result: WebhookFormResult;
  try {
    if (intent === "create") {
      const created = await webhooks.create(
        actor,
        { url: text(form, "url"), events: events(), description: text(form, "description") },
        { ip },
      );
      result = {
        ...done(`Created the endpoint ${created.endpoint.url}.`, {
          url: created.endpoint.url,
          secret: created.secret,
        }),
        id: created.endpoint.id,
      };
    } else if (intent === "update" && id) {
      const updated = await webhooks.update(
        actor,
        id,
        {
          url: text(form, "url"),
          events: events(),
          description: text(form, "description"),
          enabled: form.get("enabled") === "on",
        },
        { ip },
      );
      result = done(`Saved ${updated.url}.`);
    } else if (intent === "toggle" && id) {
      const enabled = text(form, "enabled") === "true";
      const updated = await webhooks.update(actor, id, { enabled }, { ip });
      result = done(`${enabled ? "Enabled" : "Disabled"} ${updated.url}.`);
    } else if (intent === "rotate" && id) {
      const rotated = await webhooks.rotateSecret(actor, id, { ip });
      result = done(
        `Rotated the signing secret of ${rotated.endpoint.url}: the old secret no longer signs.`,
        {
          url: rotated.endpoint.url,
          secret: rotated.secret,
        },
      );
    } else if (intent === "delete" && id) {
      await webhooks.delete(actor, id, { ip });
      result = { ...done("Deleted the endpoint and its delivery log."), id: null };
    } else if (intent === "test" && id) {
      await webhooks.sendTest(actor, id);
      result = done("Sent a test event: its delivery is at the top of the log.");
    } else if (intent === "replay" && id) {
      const delivery = await webhooks.replay(actor, id);
      result = {
        ...done(`Replaying event ${delivery.eventId}: a new delivery is at the top of the log.`),
        id: delivery.endpointId,
      };
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
