/**
 * /admin/webhooks: the endpoints (create with the events they want — the signing secret is shown
 * once —, edit, enable or disable, rotate the secret, delete, send a test event) and, for the
 * selected endpoint, its delivery log (status, attempts, response code and excerpt, duration,
 * next attempt, the body sent) with replay. Plain forms with a confirm step (`<details>`) for
 * what cannot be undone: everything works without JavaScript; the copy button needs it.
 */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { WebhookDelivery, WebhookEndpoint } from "../../../server/modules/webhooks/webhooks.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { CopyButton } from "../../components/ui/copy-button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { WebhookFormResult, WebhooksScreenData } from "./webhooks.server.ts";

const when = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
});
const at = (iso: string | null | undefined) =>
  iso && !Number.isNaN(Date.parse(iso)) ? `${when.format(new Date(iso))} UTC` : "—";

const STATUS_STYLE: Record<string, string> = {
  succeeded: "border-ok-line bg-ok-soft text-ok-text",
  failed: "border-danger-line bg-danger-soft text-danger-text",
  pending: "border-warn-line bg-warn-soft text-warn-text",
  sending: "border-accent-line bg-accent-soft text-accent-text",
  disabled: "border-line bg-sunken text-ink-muted",
  enabled: "border-ok-line bg-ok-soft text-ok-text",
};

function Badge({ kind, children }: { kind: string; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[kind] ?? STATUS_STYLE.disabled}`}
    >
      {children}
    </span>
  );
}

/** The outcome of the last form, and the signing secret (once) after create or rotate. */
export function WebhooksOutcome({ result }: { result: WebhookFormResult | null }) {
  if (!result) return null;
  if (!result.ok) {
    if (Object.keys(result.field).length > 0 && (result.intent === "create" || result.intent === "update"))
      return null;
    return (
      <Notice tone="danger" role="alert">
        {result.message}
      </Notice>
    );
  }
  if (!result.secret) {
    return (
      <Notice tone="ok" role="status">
        {result.message}
      </Notice>
    );
  }
  return (
    <Notice tone="warn" title={result.message} role="status">
      <div data-testid="new-webhook-secret" className="space-y-2">
        <p>
          Copy the signing secret now: it is shown <strong>only once</strong>. The receiver at{" "}
          <code className="break-all font-mono text-xs">{result.secret.url}</code> checks each delivery's{" "}
          <code className="font-mono text-xs">Webhook-Signature</code> with it.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code
            data-testid="webhook-secret"
            className="break-all rounded bg-sunken px-1.5 py-0.5 font-mono text-xs"
          >
            {result.secret.secret}
          </code>
          <CopyButton value={result.secret.secret} label="Copy secret" />
        </div>
      </div>
    </Notice>
  );
}

function Confirm({
  summary,
  tone = "danger",
  label,
  children,
  confirm,
}: {
  summary: string;
  tone?: "danger" | "accent";
  label: string;
  children: ReactNode;
  confirm: string;
}) {
  return (
    <details className="rounded-lg border border-line p-2">
      <summary
        className={`cursor-pointer text-sm font-medium ${tone === "danger" ? "text-danger-text" : "text-accent-text"}`}
      >
        {summary}
      </summary>
      <Form method="post" className="mt-2 space-y-2" aria-label={label}>
        {children}
        <Button type="submit" size="sm" variant={tone === "danger" ? "danger" : "primary"}>
          {confirm}
        </Button>
      </Form>
    </details>
  );
}

function EventChoices({
  events,
  chosen,
  idPrefix,
  error,
}: {
  events: WebhooksScreenData["events"];
  chosen: readonly string[];
  idPrefix: string;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-ink">Events</legend>
      <div className="grid gap-1 sm:grid-cols-2">
        {events.map((e) => (
          <label
            key={e.name}
            className="flex items-start gap-2 text-sm text-ink"
            htmlFor={`${idPrefix}-${e.name}`}
          >
            <input
              id={`${idPrefix}-${e.name}`}
              type="checkbox"
              name="events"
              value={e.name}
              defaultChecked={chosen.includes(e.name)}
              className="mt-1"
            />
            <span>
              <code className="font-mono text-xs">{e.name}</code>
              <span className="block text-xs text-ink-muted">{e.label}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-sm text-danger-text">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function EndpointItem({
  endpoint,
  events,
  selected,
  result,
}: {
  endpoint: WebhookEndpoint;
  events: WebhooksScreenData["events"];
  selected: boolean;
  result: WebhookFormResult | null;
}) {
  const editError = result?.intent === "update" && result.id === endpoint.id && !result.ok ? result : null;
  const last = endpoint.lastDelivery;
  return (
    <li
      className="flex flex-col gap-3 py-3 lg:flex-row lg:items-start"
      data-testid="webhook-endpoint"
      data-endpoint-url={endpoint.url}
    >
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <span className="break-all font-medium text-ink">{endpoint.url}</span>
          <Badge kind={endpoint.enabled ? "enabled" : "disabled"}>
            {endpoint.enabled ? "Enabled" : "Disabled"}
          </Badge>
        </p>
        {endpoint.description ? <p className="text-ink-muted">{endpoint.description}</p> : null}
        <p className="text-xs text-ink-muted">
          {endpoint.events.map((e) => (
            <code key={e} className="mr-1.5 inline-block font-mono">
              {e}
            </code>
          ))}
        </p>
        <p className="text-xs text-ink-subtle">
          Secret ends in <code className="font-mono">…{endpoint.secretHint}</code> · created{" "}
          {at(endpoint.createdAt)}
          {endpoint.secretRotatedAt ? ` · rotated ${at(endpoint.secretRotatedAt)}` : ""}
          {last ? (
            <>
              {" "}
              · last delivery <Badge kind={last.status}>{last.status}</Badge>
              {last.responseStatus ? ` ${last.responseStatus}` : ""} {at(last.at)}
            </>
          ) : (
            " · no deliveries yet"
          )}
        </p>
        <div className="flex flex-wrap gap-2 pt-1">
          <Link
            to={`?endpoint=${encodeURIComponent(endpoint.id)}#deliveries`}
            className={buttonClass(selected ? "primary" : "secondary", "sm")}
            aria-current={selected ? "true" : undefined}
          >
            Delivery log
          </Link>
          <Form method="post" aria-label={`Send a test event to ${endpoint.url}`}>
            <input type="hidden" name="intent" value="test" />
            <input type="hidden" name="id" value={endpoint.id} />
            <Button type="submit" size="sm" variant="secondary" disabled={!endpoint.enabled}>
              Send test event
            </Button>
          </Form>
          <Form method="post" aria-label={`${endpoint.enabled ? "Disable" : "Enable"} ${endpoint.url}`}>
            <input type="hidden" name="intent" value="toggle" />
            <input type="hidden" name="id" value={endpoint.id} />
            <input type="hidden" name="enabled" value={endpoint.enabled ? "false" : "true"} />
            <Button type="submit" size="sm" variant="ghost">
              {endpoint.enabled ? "Disable" : "Enable"}
            </Button>
          </Form>
        </div>
      </div>
      <div className="flex flex-col gap-2 lg:w-80">
        <details className="rounded-lg border border-line p-2" open={Boolean(editError)}>
          <summary className="cursor-pointer text-sm font-medium text-accent-text">Edit…</summary>
          <Form method="post" className="mt-2 space-y-3" aria-label={`Edit ${endpoint.url}`}>
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={endpoint.id} />
            <Field
              label="URL"
              name="url"
              id={`url-${endpoint.id}`}
              defaultValue={endpoint.url}
              required
              maxLength={2000}
              error={editError?.field.url}
            />
            <Field
              label="Description"
              name="description"
              id={`description-${endpoint.id}`}
              defaultValue={endpoint.description}
              optional
              maxLength={500}
              error={editError?.field.description}
            />
            <EventChoices
              events={events}
              chosen={endpoint.events}
              idPrefix={`events-${endpoint.id}`}
              error={editError?.field.events}
            />
            <label className="flex items-center gap-2 text-sm text-ink">
              <input type="checkbox" name="enabled" defaultChecked={endpoint.enabled} /> Enabled
            </label>
            <Button type="submit" size="sm">
              Save
            </Button>
          </Form>
        </details>
        <Confirm
          summary="Rotate secret…"
          tone="accent"
          label={`Rotate the signing secret of ${endpoint.url}`}
          confirm="Rotate secret"
        >
          <input type="hidden" name="intent" value="rotate" />
          <input type="hidden" name="id" value={endpoint.id} />
          <p className="text-xs text-ink-muted">
            Deliveries are signed with the new secret from now on; update the receiver with it.
          </p>
        </Confirm>
        <Confirm summary="Delete…" label={`Delete ${endpoint.url}`} confirm="Delete endpoint">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={endpoint.id} />
          <p className="text-xs text-ink-muted">
            The endpoint and its delivery log are deleted; pending retries are dropped. This cannot be undone.
          </p>
        </Confirm>
      </div>
    </li>
  );
}

export function EndpointsPanel({
  data,
  result,
}: {
  data: WebhooksScreenData;
  result: WebhookFormResult | null;
}) {
  const createError = result?.intent === "create" && !result.ok ? result : null;
  return (
    <section id="endpoints" className="scroll-mt-20">
      <Panel title="Endpoints">
        <p className="mb-3 text-sm text-ink-muted">
          Each endpoint receives the events it chose as a signed JSON POST. A receiver that does not answer
          2xx within 5 seconds is tried again after 1 minute, 5 minutes, 30 minutes, 2 hours and 12 hours.
        </p>
        {data.endpoints.length === 0 ? (
          <p className="text-sm text-ink-muted">No endpoints yet.</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="webhook-endpoints">
            {data.endpoints.map((e) => (
              <EndpointItem
                key={e.id}
                endpoint={e}
                events={data.events}
                selected={data.selected?.id === e.id}
                result={result}
              />
            ))}
          </ul>
        )}
        <Form
          key={result?.intent === "create" && result.ok ? `added-${result.id}` : "add"}
          method="post"
          className="mt-4 space-y-3 border-t border-line pt-4"
          aria-label="Add an endpoint"
        >
          <h3 className="text-sm font-semibold text-ink">Add an endpoint</h3>
          <input type="hidden" name="intent" value="create" />
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              label="URL"
              name="url"
              id="new-url"
              required
              maxLength={2000}
              placeholder="https://example.com/webhooks"
              hint="https://, or http:// to localhost for development."
              error={createError?.field.url}
            />
            <Field
              label="Description"
              name="description"
              id="new-description"
              optional
              maxLength={500}
              error={createError?.field.description}
            />
          </div>
          <EventChoices
            events={data.events}
            chosen={["content.published"]}
            idPrefix="new-events"
            error={createError?.field.events}
          />
          {createError && Object.keys(createError.field).length === 0 ? (
            <p role="alert" className="text-sm text-danger-text">
              {createError.message}
            </p>
          ) : null}
          <Button type="submit">Add endpoint</Button>
        </Form>
      </Panel>
    </section>
  );
}

function DeliveryItem({ d }: { d: WebhookDelivery }) {
  return (
    <li
      className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start"
      data-testid="webhook-delivery"
      data-status={d.status}
    >
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <Badge kind={d.status}>{d.status}</Badge>
          <code className="font-mono text-xs text-ink">{d.eventType}</code>
          {d.responseStatus !== null ? (
            <span className="text-xs text-ink-muted" data-testid="delivery-response">
              HTTP {d.responseStatus}
            </span>
          ) : null}
          {d.durationMs !== null ? <span className="text-xs text-ink-muted">{d.durationMs} ms</span> : null}
        </p>
        <p className="text-xs text-ink-subtle">
          Event <code className="break-all font-mono">{d.eventId}</code> · queued {at(d.createdAt)} · attempts{" "}
          {d.attempts} of {d.maxAttempts}
          {d.lastAttemptAt ? ` · last ${at(d.lastAttemptAt)}` : ""}
          {d.nextAttemptAt && d.status === "pending" ? ` · next ${at(d.nextAttemptAt)}` : ""}
          {d.replayOf ? " · replay" : ""}
        </p>
        {d.error ? <p className="break-all text-xs text-danger-text">{d.error}</p> : null}
        <details>
          <summary className="cursor-pointer text-xs font-medium text-accent-text">Body and response</summary>
          <div className="mt-1 space-y-1">
            <pre className="max-h-60 overflow-auto rounded bg-sunken p-2 font-mono text-xs text-ink">
              {JSON.stringify(d.payload, null, 2)}
            </pre>
            {d.responseExcerpt ? (
              <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-sunken p-2 font-mono text-xs text-ink-muted">
                {d.responseExcerpt}
              </pre>
            ) : (
              <p className="text-xs text-ink-muted">No response body.</p>
            )}
          </div>
        </details>
      </div>
      <Form method="post" aria-label={`Replay event ${d.eventId}`}>
        <input type="hidden" name="intent" value="replay" />
        <input type="hidden" name="id" value={d.id} />
        <Button type="submit" size="sm" variant="secondary">
          Replay
        </Button>
      </Form>
    </li>
  );
}

export function DeliveriesPanel({ data }: { data: WebhooksScreenData }) {
  const selected = data.selected;
  if (!selected) return null;
  const base = `?endpoint=${encodeURIComponent(selected.id)}`;
  return (
    <section id="deliveries" className="scroll-mt-20">
      <Panel
        title="Delivery log"
        action={
          <Link to={`${base}#deliveries`} className={buttonClass("ghost", "sm")}>
            Refresh
          </Link>
        }
      >
        <p className="mb-3 break-all text-sm text-ink-muted">
          {selected.url} · deliveries are kept 30 days. A replay sends the same event (same id and body)
          again.
        </p>
        {data.deliveries.length === 0 ? (
          <p className="text-sm text-ink-muted">No deliveries {data.paged ? "further back" : "yet"}.</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="webhook-deliveries">
            {data.deliveries.map((d) => (
              <DeliveryItem key={d.id} d={d} />
            ))}
          </ul>
        )}
        <div className="mt-3 flex gap-2">
          {data.paged ? (
            <Link to={`${base}#deliveries`} className={buttonClass("ghost", "sm")}>
              Newest
            </Link>
          ) : null}
          {data.nextBefore ? (
            <Link
              to={`${base}&before=${encodeURIComponent(data.nextBefore)}#deliveries`}
              className={buttonClass("secondary", "sm")}
            >
              Older
            </Link>
          ) : null}
        </div>
      </Panel>
    </section>
  );
}
