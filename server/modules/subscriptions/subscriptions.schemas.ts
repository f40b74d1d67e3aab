/**
 * zod schemas for what the subscriptions repository stores as JSON.
 */
import { jsonObjectSchema } from "../../db/json.ts";

/** UserSubscription.metadata: a JSON object (billing references, notes). */
export const subscriptionMetadataSchema = jsonObjectSchema;

/** Statuses that grant the subscription's tier (until expiresAt / canceledAt). */
export const ACTIVE_SUBSCRIPTION_STATUSES = ["active", "trialing"] as const;
