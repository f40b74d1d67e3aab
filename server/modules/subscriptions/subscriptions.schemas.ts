/**
 * zod schemas for what the subscriptions repository stores as JSON.
 */
import { jsonObjectSchema } from "../../db/json.ts";

/** UserSubscription.metadata: a JSON object (billing references, notes). */
export const subscriptionMetadataSchema = jsonObjectSchema;
