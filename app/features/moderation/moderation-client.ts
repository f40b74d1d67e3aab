/**
 * The page's calls to the moderation REST API (/api/moderation/*, docs/api/moderation.md): the
 * browser sends the session cookie and its Origin; the server checks everything.
 */
import type {
  ActionOutcome,
  ModerationAction,
  RestrictionDuration,
  RestrictionKind,
} from "../../../server/modules/moderation/moderation.schemas.ts";

export class ModerationRequestError extends Error {}

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ModerationRequestError("The hub could not be reached. Check the connection and try again.");
  }
  const payload = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok)
    throw new ModerationRequestError(payload?.error?.message ?? `The request failed (${res.status}).`);
  return payload as T;
}

export function moderateComments(action: ModerationAction, ids: string[], reason?: string) {
  return send<ActionOutcome>("POST", "/api/moderation/comments/actions", {
    action,
    ids,
    ...(reason?.trim() ? { reason: reason.trim() } : {}),
  });
}

export function restrictCommenter(input: {
  userId: string;
  kind: RestrictionKind;
  duration: RestrictionDuration;
  reason?: string;
  hideComments?: boolean;
}) {
  return send<{ hidden: number }>("POST", "/api/moderation/restrictions", {
    ...input,
    reason: input.reason?.trim() || undefined,
  });
}

export function liftRestriction(userId: string) {
  return send<{ lifted: boolean }>("DELETE", `/api/moderation/restrictions/${encodeURIComponent(userId)}`);
}

export const ACTION_LABELS: Readonly<Record<ModerationAction, { verb: string; done: string }>> = {
  approve: { verb: "Approve", done: "approved" },
  hide: { verb: "Hide", done: "hidden" },
  remove: { verb: "Remove", done: "removed" },
  dismiss: { verb: "Dismiss reports", done: "cleared of reports" },
};

export const DURATION_LABELS: Readonly<Record<RestrictionDuration, string>> = {
  "1d": "1 day",
  "7d": "7 days",
  "30d": "30 days",
  permanent: "Permanently",
};

/** "2026-02-06T09:30:00.000Z" → "6 Feb 2026, 09:30" (UTC, the same on server and browser). */
export function formatTime(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });
}
