/** Engagement shapes shared by the service, the REST handlers and the pages. */
import { z } from "zod";

export const SHARE_CHANNELS = ["link", "x", "linkedin", "email"] as const;
export type ShareChannel = (typeof SHARE_CHANNELS)[number];

/** POST /api/content/{idOrSlug}/share body. */
export const shareBodySchema = z
  .object({
    channel: z.enum(SHARE_CHANNELS, { message: `expected one of ${SHARE_CHANNELS.join(", ")}` }),
  })
  .strict();

/** An id or slug in a URL path (the content API's rule). */
export const contentKeySchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "expected an id or slug");

export interface EngagementCounts {
  viewCount: number;
  likeCount: number;
  shareCount: number;
}

/** A signed-in reader's progress through one course. */
export interface CourseProgress {
  courseId: string;
  /** The course's lessons in order (its published `related` items). */
  lessonIds: string[];
  /** The lessons marked complete, in course order. */
  completedLessonIds: string[];
  total: number;
  completed: number;
  /** 0..100, rounded down (100 only when every lesson is done). */
  percent: number;
  /** True when every lesson is done (and there is at least one). */
  complete: boolean;
  /** When the last lesson was completed; only when `complete`. */
  completedAt?: string;
  /** The reader's certificate for the course, once its completion rule is met (after a lesson update). */
  certificateId?: string;
}

/** What the content page shows: counters for everyone, the like and progress for a signed-in reader. */
export interface PageEngagement extends EngagementCounts {
  /** null for visitors (no per-user data in pages that may be cached). */
  liked: boolean | null;
  /** Courses, for a signed-in reader who may read the course; else null. */
  progress: CourseProgress | null;
  /** Whether a signed-in reader saved the item (set by the page loader); null or absent otherwise. */
  saved?: boolean | null;
  /**
   * An audience page (decision 039): the counters are the audience's, and the reader's own like,
   * Save and progress come from `GET /api/content/{slug}/engagement` once the page runs.
   */
  deferred?: true;
}
