/**
 * Loader helpers shared by the content screens. They only call the services, which apply the access
 * rules for the actor themselves (bodies of gated items never reach these functions).
 */
import { data, type RouterContextProvider } from "react-router";
import { parseTier, TIERS, type Tier } from "../../../core/index.ts";
import { PREVIEW_AS_PARAM, previewAudienceValue } from "../../../core/preview-as.ts";
import { contentCanonicalUrl } from "../../../core/seo/index.ts";
import { visitorActor } from "../../../server/modules/actor.ts";
import { previewReaderFor } from "../../../server/modules/content/preview-as.ts";
import type { PageEngagement } from "../../../server/modules/engagement/engagement.schemas.ts";
import type { AppServices, ContentPage, ContentType } from "../../../server/services.ts";
import { actorContext, requestMetaContext, servicesContext, userContext } from "../../lib/context.ts";
import type {
  ContentMissingData,
  ContentPageData,
  HomeData,
  ListingData,
  ListingFilters,
  PaywallOffer,
} from "./content-data.ts";

export const PAGE_SIZE = 12;

interface LoaderBase {
  context: Readonly<RouterContextProvider>;
  url: URL;
}

const CONTENT_TYPES: readonly ContentType[] = [
  "article",
  "course",
  "video",
  "markdown",
  "category",
  "collection",
];

function parseType(value: string | null): ContentType | null {
  return value && (CONTENT_TYPES as readonly string[]).includes(value) ? (value as ContentType) : null;
}

function readFilters(url: URL): ListingFilters {
  const p = url.searchParams;
  return {
    category: p.get("category")?.trim() || null,
    tier: parseTier(p.get("tier")),
    type: parseType(p.get("type")),
    cursor: p.get("cursor") || null,
  };
}

/**
 * A listing page's items; a `cursor` that is not one this server issued (edited, truncated, from
 * another list) answers 400 with what to do, never 500.
 */
async function listingPage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    // By its code: the app's build carries its own copy of the error classes, so `instanceof`
    // would not match an error the services threw.
    if ((error as { code?: unknown } | null)?.code === "BAD_USER_INPUT") {
      const reason = (error as Error).message;
      throw data(`This page link is not valid (${reason}): go back to the first page of the list.`, {
        status: 400,
      });
    }
    throw error;
  }
}

/** The section listing (/ai-education, /section/:section …) or null when the section does not exist. */
export async function loadSectionListing(
  { context, url }: LoaderBase,
  sectionSlug: string,
): Promise<ListingData | null> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const section = services.content.sections().find((s) => s.slug === sectionSlug);
  if (!section) return null;
  const filters = readFilters(url);
  const [list, categories] = await Promise.all([
    listingPage(
      services.content.list(actor, {
        publishedOnly: true,
        section: section.slug,
        category: filters.category ?? undefined,
        tier: filters.tier ?? undefined,
        type: filters.type ?? undefined,
        limit: PAGE_SIZE,
        cursor: filters.cursor,
      }),
    ),
    services.content.categories(),
  ]);
  return {
    scope: { kind: "section", section },
    categories: categories.filter((c) => c.section === section.slug),
    items: list.items,
    nextCursor: list.nextCursor,
    filters,
  };
}

/** The category listing (/category/:category) or null when the category does not exist. */
export async function loadCategoryListing(
  { context, url }: LoaderBase,
  categorySlug: string,
): Promise<ListingData | null> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const category = (await services.content.categories()).find((c) => c.slug === categorySlug);
  if (!category) return null;
  const filters = { ...readFilters(url), category: null };
  const list = await listingPage(
    services.content.list(actor, {
      publishedOnly: true,
      category: category.slug,
      tier: filters.tier ?? undefined,
      type: filters.type ?? undefined,
      limit: PAGE_SIZE,
      cursor: filters.cursor,
    }),
  );
  return {
    scope: { kind: "category", category },
    categories: [],
    items: list.items,
    nextCursor: list.nextCursor,
    filters,
  };
}

/** A listing, or the not-found payload with HTTP 404. */
export function listingOrNotFound(listing: ListingData | null, what: string) {
  if (listing) return data({ found: true as const, listing }, { status: 200 });
  return data({ found: false as const, what }, { status: 404 });
}

/**
 * The dynamic content page: tries each slug candidate in turn. Missing content → HTTP 404 with the
 * 'Content Not Found' payload. Gated content still loads (title, excerpt, metadata; never the body).
 */
export async function loadContentPage(
  { context, request }: { context: Readonly<RouterContextProvider>; request: Request },
  candidates: string[],
) {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  // A writer's "preview as": the body rule for that reader; null for everyone else (own view).
  const preview = previewReaderFor(actor, new URL(request.url).searchParams.get(PREVIEW_AS_PARAM));
  const slugs = [...new Set(candidates.map((c) => c.trim()).filter(Boolean))];
  for (const slug of slugs) {
    const page = await services.content.getPage(actor, slug, { readAs: preview?.reader });
    if (page?.bodyMissing) {
      const missingBody: ContentMissingData = {
        page: null,
        slug,
        error: `the text of "${page.item.title}" is missing from storage`,
      };
      return data<ContentPageData | ContentMissingData>(missingBody, { status: 500 });
    }
    if (page) {
      // The item's one address on the public base URL (never the request's Host: pages are cached).
      const origin = services.config.publicUrl;
      const canonicalUrl = contentCanonicalUrl(page, origin);
      // An audience render (decision 039) holds the audience's counters; the reader's browser asks
      // for their own like, Save and progress.
      const meta = context.get(requestMetaContext);
      const audience = context.get(userContext).audience === true;
      // A preview shows the public counters only: the writer's own like is not the reader's.
      const counters = await services.engagement.forPage(preview || audience ? visitorActor() : actor, page);
      // The reader's own Save state (never in a preview or for a visitor: their pages are shared).
      const engagement: PageEngagement | null = !counters
        ? null
        : audience
          ? { ...counters, deferred: true }
          : !preview && actor.kind === "user" && actor.userId
            ? { ...counters, saved: await services.dashboard.isSaved(actor.userId, page.item.id) }
            : counters;
      // Signed media links are made per reader and session: a video page is never shared.
      if (meta.audience && !preview && page.video === null) meta.audience.shareable = true;
      const body: ContentPageData = {
        page,
        canonicalUrl,
        origin,
        engagement,
        offer: await paywallOffer(services, page),
        preview: preview
          ? {
              value: previewAudienceValue(preview.audience),
              label: preview.label,
              signedIn: preview.audience.kind !== "visitor",
            }
          : null,
      };
      // A preview comes from a signed-in writer, so no shared cache keeps it anyway; it is never
      // indexed, and the studio may frame it beside the editor (our own origin only).
      const headers = preview
        ? { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex", "X-Frame-Options": "SAMEORIGIN" }
        : undefined;
      return data<ContentPageData | ContentMissingData>(body, { status: 200, headers });
    }
  }
  const shown = slugs[0] ?? "";
  const missing: ContentMissingData = {
    page: null,
    slug: shown,
    error: shown ? `no published content has the address "${shown}"` : "no content address was given",
  };
  return data<ContentPageData | ContentMissingData>(missing, { status: 404 });
}

/**
 * The cheapest plan that opens a tier-locked item, with what else it opens (this item left out);
 * null when the item is readable, gated by a role or needs no plan, or no plan is offered.
 */
async function paywallOffer(services: AppServices, page: ContentPage): Promise<PaywallOffer | null> {
  const access = page.access;
  if (access.kind !== "tier" && access.kind !== "signin") return null;
  if (access.requiredTier === "Free" || page.item.rolesRequired.length > 0) return null;
  const cheapest = await services.plans.cheapestFor(access.requiredTier);
  if (!cheapest) return null;
  const { plan, unlocks } = cheapest;
  const counted = parseTier(plan.tier) === page.item.tier;
  return {
    plan,
    moreItems: Math.max(0, unlocks.newItems - (counted ? 1 : 0)),
    highlights: unlocks.highlights.filter((h) => h.slug !== page.item.slug),
  };
}

/** Candidate slugs for a catch-all path: the whole rest ("a/b"), then its last segment ("b"). */
export function splatCandidates(splat: string | undefined): string[] {
  const rest = (splat ?? "").replace(/^\/+|\/+$/g, "");
  if (!rest) return [];
  const last = rest.split("/").pop() ?? rest;
  return [rest, last];
}

export async function loadHome({ context, url }: LoaderBase): Promise<HomeData> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const sections = services.content.sections();
  const [featured, ...perSection] = await Promise.all([
    services.content.list(actor, { featured: true, limit: 6, publishedOnly: true }),
    ...sections.map((s) => services.content.list(actor, { section: s.slug, limit: 3, publishedOnly: true })),
  ]);
  return {
    featured: featured?.items ?? [],
    latest: sections.map((section, i) => ({ section, items: perSection[i]?.items ?? [] })),
    search: url.searchParams.get("search")?.trim() || null,
  };
}

export interface TierInventory {
  tier: Tier;
  /** Published items whose own tier is exactly this plan (role-gated items excluded). */
  items: number;
  byType: Partial<Record<ContentType, number>>;
  /** A few of them to name: featured first, then courses, then newest. */
  highlights: Array<{ title: string; slug: string; type: ContentType }>;
  /** Categories whose default tier is this plan. */
  categories: Array<{ slug: string; label: string; itemCount: number }>;
}

/**
 * Real counts per plan for the pricing page, from the content service (metadata only): the same
 * numbers as the plans' unlocks (`server/modules/content/tier-inventory.ts`).
 */
export async function loadTierInventory({ context }: Pick<LoaderBase, "context">): Promise<TierInventory[]> {
  const services = context.get(servicesContext);
  const [inventory, categories] = await Promise.all([
    services.content.tierInventory(),
    services.content.categories(),
  ]);
  return TIERS.map((tier) => {
    const entry = inventory.find((e) => e.tier === tier);
    return {
      tier,
      items: entry?.items ?? 0,
      byType: entry?.byType ?? {},
      highlights: entry?.highlights ?? [],
      categories: categories
        .filter((c) => c.defaultTier === tier)
        .map((c) => ({ slug: c.slug, label: c.label, itemCount: c.itemCount })),
    };
  });
}
