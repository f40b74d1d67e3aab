/**
 * Loader and action helpers of /admin/content's Featured, Categories and Collections tabs: the
 * content admin service (server/modules/content/content-admin.service.ts) with the request's
 * actor (it checks `content.admin`). Every change is a POST form with an `intent`, checked for
 * this site's Origin, so each tab works without JavaScript: moving an entry up or down reads the
 * current order on the server and saves it with the version the page showed (a change made
 * meanwhile → "changed meanwhile, reload").
 */
import { data, type RouterContextProvider } from "react-router";
import { canPublishContent } from "../../../core/index.ts";
import type {
  AdminCollection,
  AdminContentRef,
  CategoryList,
  FeaturedList,
} from "../../../server/modules/content/content-admin.service.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { refuseForeignForm } from "../../lib/foreign-form.server.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

export const ADMIN_CONTENT_TABS = ["all", "featured", "categories", "collections", "repositories"] as const;
export type AdminContentTab = (typeof ADMIN_CONTENT_TABS)[number];

export function tabOf(url: URL): AdminContentTab {
  const tab = url.searchParams.get("tab");
  return (ADMIN_CONTENT_TABS as readonly string[]).includes(tab ?? "") ? (tab as AdminContentTab) : "all";
}

export interface AdminContentFormResult {
  intent: string;
  /** The row the form was about (category id, collection id, content id). */
  id: string | null;
  ok: boolean;
  message: string;
  field: Record<string, string>;
  /** A 409 STALE_VERSION: someone changed it meanwhile. */
  stale: boolean;
}

function errorOf(error: unknown): { message: string; field: Record<string, string>; code: string } | null {
  const e = error as { code?: unknown; message?: unknown; field?: unknown; status?: unknown };
  if (typeof e?.code !== "string" || typeof e.status !== "number" || e.status >= 500) return null;
  if (e.status === 401) return null;
  return {
    code: e.code,
    message: String(e.message),
    field: (e.field && typeof e.field === "object" ? e.field : {}) as Record<string, string>,
  };
}

/** Loaders: a refusal is the error page with its status; anything else is rethrown. */
const forbidden = (error: unknown): never => {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401 || e?.status === 403) throw data(e.message ?? "Forbidden", { status: e.status });
  throw error;
};

/** Actions: not signed in (any more) is the error page; other refusals are the form's message. */
const signedOut = (error: unknown): void => {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401) throw data(e.message ?? "Sign in first.", { status: 401 });
};

export interface FeaturedTab {
  featured: FeaturedList;
  /** The picker's query and results (`?pick=`), or null before a search. */
  pick: { q: string; items: AdminContentRef[] } | null;
}

export interface CollectionsTab {
  collections: AdminCollection[];
  /** Whether this administrator may publish and hide (content:publish, decision 017). */
  canPublish: boolean;
  /** The open collection (`?open=`) and its member picker (`?mpick=`). */
  open: string | null;
  pick: { q: string; items: AdminContentRef[] } | null;
}

export async function loadFeaturedTab(args: Args): Promise<FeaturedTab> {
  const { admin, actor, url } = parts(args);
  const q = url.searchParams.get("pick");
  const [featured, items] = await Promise.all([
    admin.featured(actor),
    q === null ? Promise.resolve(null) : admin.pick(actor, { q, type: "any" }),
  ]).catch(forbidden);
  return { featured, pick: items && q !== null ? { q, items } : null };
}

export async function loadCategoriesTab(args: Args): Promise<CategoryList> {
  const { admin, actor } = parts(args);
  return admin.categories(actor).catch(forbidden);
}

export async function loadCollectionsTab(args: Args): Promise<CollectionsTab> {
  const { admin, actor, url } = parts(args);
  const open = url.searchParams.get("open");
  const q = url.searchParams.get("mpick");
  const [collections, items] = await Promise.all([
    admin.collections(actor),
    q === null || !open ? Promise.resolve(null) : admin.pick(actor, { q, type: "not-collection" }),
  ]).catch(forbidden);
  return {
    collections,
    canPublish: canPublishContent(actor.access),
    open,
    pick: items && q !== null ? { q, items } : null,
  };
}

function parts(args: Args) {
  const services = args.context.get(servicesContext);
  return {
    services,
    admin: services.contentModels.admin,
    actor: args.context.get(actorContext),
    url: new URL(args.request.url),
  };
}

const text = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value.trim() : "";
};
const list = (value: string) =>
  value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

/** `ids` with `id` moved one place up or down (unchanged at an end or when absent). */
export function moved(ids: readonly string[], id: string, dir: string): string[] {
  const out = [...ids];
  if (dir !== "up" && dir !== "down") return out;
  const i = out.indexOf(id);
  const j = dir === "up" ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** The category fields of a form (blank optional fields clear the value). */
function categoryInput(form: FormData, creating: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["slug", "label", "description", "section", "defaultTier", "icon"]) {
    if (form.has(key)) out[key] = text(form, key);
  }
  if (creating) {
    if (!out.slug) out.slug = "";
    if (!out.label) out.label = "";
  }
  return out;
}

const versionOf = (form: FormData) => {
  const n = Number(text(form, "version"));
  return Number.isFinite(n) ? n : 0;
};

export async function adminContentAction(args: Args): Promise<AdminContentFormResult> {
  const services = args.context.get(servicesContext);
  const actor = args.context.get(actorContext);
  const admin = services.contentModels.admin;
  refuseForeignForm(args.request, services);
  const form = await args.request.formData();
  const intent = text(form, "intent");
  const id = text(form, "id") || null;
  const done = (message: string): AdminContentFormResult => ({
    intent,
    id,
    ok: true,
    message,
    field: {},
    stale: false,
  });
  try {
    // Featured: every change saves the whole order with the version the page showed.
    if (intent.startsWith("featured-")) {
      const current = (await admin.featured(actor)).items.map((i) => i.id);
      const version = text(form, "version");
      let ids = current;
      if (intent === "featured-order") ids = list(text(form, "ids"));
      else if (intent === "featured-move" && id) ids = moved(current, id, text(form, "dir"));
      else if (intent === "featured-add" && id) ids = current.includes(id) ? current : [...current, id];
      else if (intent === "featured-remove" && id) ids = current.filter((i) => i !== id);
      else throw data("Unknown action", { status: 400 });
      const saved = await admin.saveFeatured(actor, { version, ids });
      return done(
        intent === "featured-add"
          ? "Added to the featured list."
          : intent === "featured-remove"
            ? "Removed from the featured list."
            : `Saved the featured order (${saved.items.length} items).`,
      );
    }
    if (intent === "category-create") {
      const created = await admin.createCategory(actor, {
        ...categoryInput(form, true),
        isActive: text(form, "isActive") !== "false",
      });
      return done(`Created the category “${created.label}”.`);
    }
    if (intent === "category-update" && id) {
      const saved = await admin.updateCategory(actor, id, categoryInput(form, false));
      return done(`Saved “${saved.label}”.`);
    }
    if (intent === "category-toggle" && id) {
      const saved = await admin.updateCategory(actor, id, { isActive: text(form, "isActive") === "true" });
      return done(
        saved.isActive
          ? `“${saved.label}” is shown to readers again.`
          : `“${saved.label}” is hidden from readers' navigation and listings.`,
      );
    }
    if (intent === "category-move" || intent === "category-order") {
      const current = (await admin.categories(actor)).items.map((c) => c.id);
      const ids =
        intent === "category-order" ? list(text(form, "ids")) : moved(current, id ?? "", text(form, "dir"));
      await admin.orderCategories(actor, { version: text(form, "version"), ids });
      return done("Saved the order of the categories.");
    }
    if (intent === "collection-create") {
      const created = await admin.createCollection(actor, {
        title: text(form, "title"),
        slug: text(form, "slug"),
        description: text(form, "description"),
        tier: text(form, "tier") || "Free",
      });
      return { ...done(`Created the collection “${created.title}” as a draft.`), id: created.id };
    }
    if (intent.startsWith("collection-") && id) {
      const version = versionOf(form);
      if (intent === "collection-update") {
        const saved = await admin.updateCollection(actor, id, {
          version,
          title: text(form, "title"),
          slug: text(form, "slug"),
          description: text(form, "description"),
          tier: text(form, "tier") || undefined,
        });
        return done(`Saved “${saved.title}”.`);
      }
      if (intent === "collection-hide") {
        const saved = await admin.hideCollection(actor, id, { version });
        return done(`“${saved.title}” is hidden from readers.`);
      }
      if (intent === "collection-show") {
        const saved = await admin.showCollection(actor, id, { version });
        return done(`“${saved.title}” is published.`);
      }
      const members = (await admin.collection(actor, id)).members.map((m) => m.slug);
      const slug = text(form, "slug");
      let next: string[];
      if (intent === "collection-members") next = list(text(form, "members"));
      else if (intent === "collection-member-move") next = moved(members, slug, text(form, "dir"));
      else if (intent === "collection-member-add")
        next = members.includes(slug) ? members : [...members, slug];
      else if (intent === "collection-member-remove") next = members.filter((m) => m !== slug);
      else throw data("Unknown action", { status: 400 });
      await admin.updateCollection(actor, id, { version, members: next });
      return done("Saved the collection's members.");
    }
    throw data("Unknown action", { status: 400 });
  } catch (error) {
    signedOut(error);
    const problem = errorOf(error);
    if (!problem) throw error;
    const stale = problem.code === "STALE_VERSION";
    return {
      intent,
      id,
      ok: false,
      message: stale ? `${problem.message} Reload the page to see the current state.` : problem.message,
      field: problem.field,
      stale,
    };
  }
}
