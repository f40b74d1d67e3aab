/** The client side of /api/me/notifications and /api/me/follows (issue 15). */
import { api } from "../../lib/api.ts";

export type NotificationKind = "replies" | "followed_sections" | "weekly_digest";
export type NotificationPreferences = Record<NotificationKind, boolean>;
export interface SectionFollow {
  section: string;
  createdAt: string;
}

export const KINDS: { kind: NotificationKind; label: string; description: string }[] = [
  {
    kind: "replies",
    label: "Replies to my comments",
    description: "An e-mail when someone replies to one of your comments on an item you can read.",
  },
  {
    kind: "followed_sections",
    label: "New items in followed sections",
    description: "An e-mail when an item you can read is published in a section you follow.",
  },
  {
    kind: "weekly_digest",
    label: "Weekly digest",
    description: "On Mondays, the week's new items you can read (up to ten). Nothing new, no e-mail.",
  },
];

/** Section slugs and their names (server/modules/content/sections.ts). */
export const SECTION_LABELS: Record<string, string> = {
  "ai-education": "AI Education",
  "workforce-tools": "Workforce Tools",
  resources: "Resources",
  "ai-news": "AI News",
  documentation: "Documentation",
};

export const sectionPath = (section: string) => (section in SECTION_LABELS ? `/${section}` : "/");

export const notificationsApi = {
  preferences: () => api.get<{ preferences: NotificationPreferences }>("/api/me/notifications"),
  setPreference: (kind: NotificationKind, enabled: boolean) =>
    api.put<{ preferences: NotificationPreferences }>("/api/me/notifications", { [kind]: enabled }),
  follows: () => api.get<{ follows: SectionFollow[] }>("/api/me/follows"),
  follow: (section: string) =>
    api.put<{ follows: SectionFollow[] }>(`/api/me/follows/${encodeURIComponent(section)}`),
  unfollow: (section: string) =>
    api.delete<{ follows: SectionFollow[] }>(`/api/me/follows/${encodeURIComponent(section)}`),
};
