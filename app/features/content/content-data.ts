/** Shapes of the content loaders' data, shared by server loaders and components. */
import type { Tier } from "../../../core/index.ts";
import type { PlanView } from "../../../server/modules/billing/billing.types.ts";
import type { PageEngagement } from "../../../server/modules/engagement/engagement.schemas.ts";
import type {
  CategoryInfo,
  ContentPage,
  ContentSummary,
  ContentType,
  SectionInfo,
} from "../../../server/services.ts";

export interface ListingFilters {
  category: string | null;
  tier: Tier | null;
  type: ContentType | null;
  cursor: string | null;
}

export type ListingScope =
  | { kind: "section"; section: SectionInfo }
  | { kind: "category"; category: CategoryInfo };

export interface ListingData {
  scope: ListingScope;
  /** Categories offered as filter chips (those of the section; none on a category page). */
  categories: CategoryInfo[];
  items: ContentSummary[];
  nextCursor: string | null;
  filters: ListingFilters;
}

export interface ContentPageData {
  page: ContentPage;
  /** Absolute URL of the page: the content's canonical URL, else this page's own URL. */
  canonicalUrl: string;
  origin: string;
  /** Counters for everyone; the like and course progress for a signed-in reader (absent on error). */
  engagement?: PageEngagement | null;
  /** A writer's "preview as" (`?previewAs=`): the page is what that reader sees. */
  preview?: PagePreview | null;
  /** A tier-locked item: the cheapest plan that opens it and what else it opens (the paywall sells). */
  offer?: PaywallOffer | null;
}

/** The paywall's offer: "Pro — $19/month", "and 13 more Pro items, including …". */
export interface PaywallOffer {
  plan: PlanView;
  /** Items of the plan's own tier besides this one. */
  moreItems: number;
  /** A few of them (this item left out). */
  highlights: Array<{ title: string; slug: string; type: string }>;
}

export interface PagePreview {
  /** The `previewAs` value ("Pro", "visitor", "role:Editor"). */
  value: string;
  /** "a Pro reader". */
  label: string;
  /** Whether that reader is signed in (the paywall then offers no 'Sign In'). */
  signedIn: boolean;
}

export interface ContentMissingData {
  page: null;
  slug: string;
  error: string;
}

export interface HomeData {
  featured: ContentSummary[];
  latest: Array<{ section: SectionInfo; items: ContentSummary[] }>;
  search: string | null;
}
