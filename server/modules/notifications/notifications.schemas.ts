/** Notification kinds and the followable sections, checked at every boundary. */
import { z } from "zod";

export const NOTIFICATION_KINDS = ["replies", "followed_sections", "weekly_digest"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The content sections a reader may follow (server/modules/content/sections.ts). */
export const FOLLOWABLE_SECTIONS = [
  "ai-education",
  "workforce-tools",
  "resources",
  "ai-news",
  "documentation",
] as const;
export type FollowableSection = (typeof FOLLOWABLE_SECTIONS)[number];

export const KIND_LABELS: Record<NotificationKind, string> = {
  replies: "reply",
  followed_sections: "followed section",
  weekly_digest: "weekly digest",
};

export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export const sectionSchema = z.enum(FOLLOWABLE_SECTIONS);

/** PUT /api/me/notifications: any subset of the kinds, each a boolean. */
export const preferencesPatchSchema = z
  .object({
    replies: z.boolean().optional(),
    followed_sections: z.boolean().optional(),
    weekly_digest: z.boolean().optional(),
  })
  .strict();
export type PreferencesPatch = z.infer<typeof preferencesPatchSchema>;

export const isNotificationKind = (value: unknown): value is NotificationKind =>
  notificationKindSchema.safeParse(value).success;
export const isFollowableSection = (value: unknown): value is FollowableSection =>
  sectionSchema.safeParse(value).success;
