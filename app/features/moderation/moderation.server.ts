/**
 * The loader of /moderate: the tab counts and the open tab's rows, from the moderation service
 * (server/modules/moderation) with the request's actor: it checks who may moderate. Changes go
 * through the REST API (/api/moderation/*) from the page, then the loader runs again.
 */
import { data, type RouterContextProvider } from "react-router";
import type {
  ModerationQueuePage,
  ModerationSummary,
  RestrictedUser,
  ReviewQueueItem,
} from "../../../server/modules/moderation/moderation.schemas.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { isModerationTab, type ModerationTab } from "./moderation-tabs.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export interface ModerationData {
  tab: ModerationTab;
  summary: ModerationSummary;
  queue: ModerationQueuePage | null;
  restricted: RestrictedUser[] | null;
  review: { items: ReviewQueueItem[]; total: number } | null;
  /** A bad filter or cursor in the address: shown above the list. */
  problem: string | null;
  /** The author / item filter of a comment queue, with what to call it. */
  filter: { kind: "author" | "item"; id: string; label: string } | null;
}

const rethrowAccess = (error: unknown): never => {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401 || e?.status === 403) throw data(e.message ?? "Forbidden", { status: e.status });
  throw error;
};

export async function loadModeration(args: Args): Promise<ModerationData> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("tab") ?? "reported";
  const tab: ModerationTab = isModerationTab(asked) ? asked : "reported";
  const summary = await services.moderation.summary(actor).catch(rethrowAccess);
  const out: ModerationData = {
    tab,
    summary,
    queue: null,
    restricted: null,
    review: null,
    problem: null,
    filter: null,
  };
  try {
    if (tab === "restricted") out.restricted = await services.moderation.listRestricted(actor);
    else if (tab === "review") out.review = await services.moderation.reviewQueue(actor);
    else {
      const raw: Record<string, string> = { queue: tab };
      for (const key of ["cursor", "authorId", "contentId"]) {
        const value = url.searchParams.get(key);
        if (value) raw[key] = value;
      }
      out.queue = await services.moderation.listQueue(actor, raw);
      const first = out.queue.items[0];
      if (raw.authorId)
        out.filter = { kind: "author", id: raw.authorId, label: first?.author?.name ?? "this author" };
      else if (raw.contentId)
        out.filter = { kind: "item", id: raw.contentId, label: first?.item.title ?? "this item" };
    }
  } catch (error) {
    const e = error as { status?: number; message?: string };
    if (e?.status !== 400) rethrowAccess(error);
    out.problem = e.message ?? "The filter is not valid.";
  }
  return out;
}
