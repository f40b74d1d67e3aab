/** Shapes of the pricing page's data, shared by its loader and components. */
import type { Tier } from "../../../core/index.ts";
import type {
  BillingInterval,
  PlanUnlocks,
  PlanView,
} from "../../../server/modules/billing/billing.types.ts";

/** Who is looking: decides each plan's call to action. */
export interface PricingViewer {
  signedIn: boolean;
  /** The tier the reader reads with now (null for a visitor). */
  tier: Tier | null;
  /** Administers an organisation (buys seats on /business/dashboard). */
  orgAdmin: boolean;
}

export interface PricingData {
  /** Offered plans in order: the individual ones, then the organisations' seat plans. */
  plans: PlanView[];
  unlocks: PlanUnlocks[];
  interval: BillingInterval;
  viewer: PricingViewer;
}

/** What the library holds at one tier (the content feature's tier inventory, by shape). */
export interface PlanInventory {
  tier: Tier;
  items: number;
  byType: Partial<Record<string, number>>;
  categories: Array<{ slug: string; label: string; itemCount: number }>;
}
