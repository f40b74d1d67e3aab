/** Course completion and reading reports: shapes shared by the services, REST handlers and pages. */
import { z } from "zod";

/** PUT /api/courses/{idOrSlug}/completion-rule body. */
export const courseRuleBodySchema = z
  .object({
    minLessonsPercent: z
      .number({ message: "expected a whole number from 1 to 100" })
      .int("expected a whole number from 1 to 100")
      .min(1, "must be at least 1")
      .max(100, "must be at most 100"),
    minSeconds: z
      .number({ message: "expected a number of seconds or null" })
      .int("expected whole seconds")
      .min(0, "must not be negative")
      .max(1_000_000, "must be at most 1000000")
      .nullable()
      .optional(),
  })
  .strict();

export interface CourseRule {
  courseId: string;
  /** 1..100: the share of the course's lessons to complete. */
  minLessonsPercent: number;
  /** Reading time on the course and its lessons, if any is required. */
  minSeconds: number | null;
  /** False while the course has no stored rule (the default: every lesson). */
  custom: boolean;
  updatedAt: string | null;
}

/** A certificate id: 32 base64url characters (24 random bytes). */
export const certificateIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "expected a certificate id");

export type CertificateStatus = "valid" | "revoked";

/** What anyone may see of a certificate (the verification page and JSON). */
export interface CertificateVerification {
  id: string;
  status: CertificateStatus;
  recipientName: string;
  courseTitle: string;
  issuedAt: string;
  revokedAt: string | null;
  issuer: string;
  verificationUrl: string;
}

/** The signed-in reader's own certificate (the completions panel). */
export interface MyCertificate extends CertificateVerification {
  courseId: string;
  courseSlug: string | null;
}

/** A course the reader has started and not finished (the completions panel). */
export interface CourseInProgress {
  courseId: string;
  courseSlug: string;
  courseTitle: string;
  completed: number;
  total: number;
  percent: number;
  lastAt: string;
}

export interface Completions {
  certificates: MyCertificate[];
  inProgress: CourseInProgress[];
}

export const REPORT_RANGES = [7, 30, 90] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];

/** ?range= of the reports API and page: 7, 30 or 90 (default 30). */
export const reportRangeSchema = z
  .union([z.literal("7"), z.literal("30"), z.literal("90")], { message: "expected 7, 30 or 90" })
  .optional()
  .transform((v) => (v === undefined ? 30 : (Number(v) as ReportRange)));

export interface ReportDay {
  day: string;
  items: number;
  minutes: number;
  lessons: number;
}

export interface ReportSection {
  section: string;
  minutes: number;
  items: number;
}

export interface ReadingReport {
  range: ReportRange;
  from: string;
  to: string;
  days: ReportDay[];
  sections: ReportSection[];
  streak: { current: number; longest: number };
  totals: { minutes: number; items: number; lessons: number; activeDays: number };
}
