import { Check, Copy, KeyRound, LoaderCircle, Trash2 } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { showToast } from "../../components/app-toaster.tsx";
import { Panel } from "../../components/feature-screen.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { api, settle } from "../../lib/api.ts";
import { formatWhen } from "../../lib/session/security.ts";

/** One row of GET /api/account/api-keys (never the key itself). */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export const API_KEY_SCOPE_OPTIONS = [
  { value: "content:read", label: "Read content", hint: "Lists and metadata, as a visitor sees them" },
  { value: "repositories:read", label: "Read repositories", hint: "Public repository data" },
] as const;

export function parseApiKeys(body: unknown): ApiKeyRow[] | null {
  if (!Array.isArray(body)) return null;
  return body
    .filter((k): k is Record<string, unknown> => !!k && typeof k === "object" && typeof k.id === "string")
    .map((k) => ({
      id: k.id as string,
      name: typeof k.name === "string" ? k.name : "",
      prefix: typeof k.prefix === "string" ? k.prefix : "",
      scopes: Array.isArray(k.scopes) ? k.scopes.filter((s): s is string => typeof s === "string") : [],
      createdAt: typeof k.createdAt === "string" ? k.createdAt : null,
      expiresAt: typeof k.expiresAt === "string" ? k.expiresAt : null,
      lastUsedAt: typeof k.lastUsedAt === "string" ? k.lastUsedAt : null,
    }));
}

type LoadState =
  | { kind: "loading" }
  | { kind: "error"; message: string }
  | { kind: "ready"; keys: ApiKeyRow[] };

/**
 * /settings 'API keys': the account's keys (name, prefix, scopes, last use), a form to create one
 * (name + scopes) that shows the new key once with a copy button, and revoke with a confirmation.
 */
export function ApiKeysCard() {
  const formId = useId();
  const [state, setState] = useState<LoadState>({ kind: "loading" });
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["content:read"]);
  const [creating, setCreating] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);

  const load = useCallback(async () => {
    const result = await settle(api.get("/api/account/api-keys"));
    const keys = result.ok ? parseApiKeys(result.data) : null;
    if (keys) setState({ kind: "ready", keys });
    else
      setState({
        kind: "error",
        message: result.ok ? "The server sent an unexpected answer." : result.error.message,
      });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function create(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!name.trim()) return setFormError("Give the key a name.");
    if (scopes.length === 0) return setFormError("Choose at least one scope.");
    setCreating(true);
    const result = await settle(
      api.post<{ key?: unknown }>("/api/account/api-keys", { name: name.trim(), scopes }),
    );
    setCreating(false);
    if (!result.ok || typeof result.data?.key !== "string") {
      setFormError(result.ok ? "The server sent an unexpected answer." : result.error.message);
      return;
    }
    setNewKey({ name: name.trim(), key: result.data.key });
    setCopied(false);
    setName("");
    void load();
  }

  async function copy() {
    if (!newKey) return;
    try {
      await navigator.clipboard.writeText(newKey.key);
      setCopied(true);
    } catch {
      showToast("Could not copy", { description: "Select the key and copy it by hand." });
    }
  }

  async function revoke() {
    if (!revoking) return;
    setRevokeBusy(true);
    const result = await settle(api.delete(`/api/account/api-keys/${encodeURIComponent(revoking.id)}`));
    setRevokeBusy(false);
    const target = revoking;
    setRevoking(null);
    if (!result.ok) {
      showToast("Could not revoke the key", { description: result.error.message });
      return;
    }
    showToast(`Revoked “${target.name}”`);
    setState((s) =>
      s.kind === "ready" ? { kind: "ready", keys: s.keys.filter((k) => k.id !== target.id) } : s,
    );
  }

  return (
    <Panel title="API keys">
      <p className="mb-4 text-sm text-ink-muted">
        Keys let scripts read public content through the API (header <code>x-api-key</code>). A key never
        unlocks content above the free tier.
      </p>

      {newKey ? (
        <Notice tone="warn" title={`Your new key “${newKey.name}”`} role="status">
          <p>Copy it now: it will not be shown again. Keep it secret.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-sunken px-2 py-1 font-mono text-xs">{newKey.key}</code>
            <Button variant="secondary" size="sm" onClick={() => void copy()}>
              {copied ? (
                <Check aria-hidden="true" className="size-4" />
              ) : (
                <Copy aria-hidden="true" className="size-4" />
              )}
              {copied ? "Copied" : "Copy key"}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setNewKey(null)}>
              Done
            </Button>
          </div>
        </Notice>
      ) : null}

      <div aria-live="polite" aria-busy={state.kind === "loading"} className="mt-3">
        {state.kind === "loading" ? (
          <p className="flex items-center gap-2 py-3 text-sm text-ink-muted">
            <LoaderCircle aria-hidden="true" className="spin size-4" />
            Loading your API keys…
          </p>
        ) : state.kind === "error" ? (
          <Notice tone="warn" title="Your API keys could not be loaded">
            <p>{state.message}</p>
          </Notice>
        ) : state.keys.length === 0 ? (
          <p className="py-3 text-sm text-ink-muted">You have no API keys.</p>
        ) : (
          <ul className="divide-y divide-line">
            {state.keys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-start gap-3 py-3">
                <KeyRound aria-hidden="true" className="mt-0.5 size-4 text-ink-muted" />
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium text-ink">{k.name}</p>
                  <p className="text-xs text-ink-muted">
                    <code>lh_{k.prefix}_…</code> · {k.scopes.join(", ")}
                  </p>
                  <p className="text-xs text-ink-subtle">
                    Created {formatWhen(k.createdAt)} ·{" "}
                    {k.lastUsedAt ? `last used ${formatWhen(k.lastUsedAt)}` : "never used"}
                    {k.expiresAt ? ` · expires ${formatWhen(k.expiresAt)}` : ""}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setRevoking(k)}
                  aria-label={`Revoke API key ${k.name}`}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <form onSubmit={(e) => void create(e)} className="mt-5 space-y-3 border-t border-line pt-4" noValidate>
        <div>
          <label htmlFor={`${formId}-name`} className="block text-sm font-medium text-ink">
            Key name
          </label>
          <input
            id={`${formId}-name`}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            className="mt-1 w-full rounded-lg border border-line bg-surface px-3 py-2 text-sm"
            aria-invalid={formError !== null && !name.trim()}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-ink">Scopes</legend>
          {API_KEY_SCOPE_OPTIONS.map((option) => (
            <label key={option.value} className="mt-1 flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                checked={scopes.includes(option.value)}
                onChange={(e) =>
                  setScopes((s) =>
                    e.target.checked ? [...s, option.value] : s.filter((v) => v !== option.value),
                  )
                }
              />
              <span>
                {option.label}{" "}
                <span className="text-xs text-ink-subtle">
                  ({option.value}) — {option.hint}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        {formError ? (
          <p role="alert" className="text-sm text-danger-text">
            {formError}
          </p>
        ) : null}
        <Button type="submit" size="sm" disabled={creating}>
          {creating ? (
            <LoaderCircle aria-hidden="true" className="spin size-4" />
          ) : (
            <KeyRound aria-hidden="true" className="size-4" />
          )}
          Create key
        </Button>
      </form>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this API key?"
        confirmLabel={revokeBusy ? "Revoking…" : "Revoke key"}
        busy={revokeBusy}
        onConfirm={() => void revoke()}
        onClose={() => setRevoking(null)}
      >
        Anything using “{revoking?.name}” stops working at once. This cannot be undone.
      </ConfirmDialog>
    </Panel>
  );
}
