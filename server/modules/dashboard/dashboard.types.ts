/** What the reader's /dashboard shows (server/modules/dashboard/dashboard.service.ts). */
import type { Tier } from "../../../core/index.ts";
import type { ContentSummary, ContentType } from "../content/content.types.ts";

export interface NextLesson {
  id: string;
  slug: string;
  title: string;
}

export interface CourseProgressCard {
  completed: number;
  total: number;
  percent: number;
  complete: boolean;
  /** The first lesson not completed yet; null when every lesson is done. */
  nextLesson: NextLesson | null;
}

export interface ContinueItem {
  item: ContentSummary;
  /** When the reader was last on it (reading, a completed lesson or a view). */
  lastAt: string;
  /** Seconds read over all days (0 when only a view or progress is known). */
  secondsRead: number;
  /** Courses only. */
  progress: CourseProgressCard | null;
}

export interface SavedItem {
  item: ContentSummary;
  savedAt: string;
}

export interface UpgradeTeaser {
  /** The next plan up. */
  tier: Tier;
  /** Published items whose own tier is exactly that plan. */
  items: number;
  byType: Partial<Record<ContentType, number>>;
  /** A few titles the public listing already shows. */
  highlights: Array<{ title: string; slug: string; type: ContentType }>;
}

export type DashboardSectionName = "continue" | "saved" | "fresh" | "recommended" | "upgrade";

export interface DashboardData {
  tier: Tier;
  /** The reader's plan comes from an organisation seat (they cannot upgrade it themselves). */
  organisationPlan: { orgName: string | null } | null;
  continueReading: ContinueItem[];
  saved: SavedItem[];
  /** Total saved items (the list shows the newest). */
  savedCount: number;
  fresh: { since: string; firstVisit: boolean; items: ContentSummary[] };
  recommended: ContentSummary[];
  /** null on Enterprise (nothing above it). */
  upgrade: UpgradeTeaser | null;
  /** Sections that could not be read this time (shown as such; the rest still shows). */
  unavailable: DashboardSectionName[];
}

export interface BookmarkState {
  contentId: string;
  saved: boolean;
}
