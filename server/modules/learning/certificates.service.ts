/**
 * Course completion (issue 15): completion rules per course, certificates issued once when a reader
 * meets the rule, public verification, and the reader's own completions.
 *
 * - Rule: `minLessonsPercent` (1..100, default 100: every lesson) of the course's lessons (its
 *   published `related` items, as on the page) and optionally `minSeconds` of reading time on the
 *   course and its lessons (reading_activity). Read and changed by content writers who may change
 *   the item: anyone who may publish, or the item's author (readers 403); changes are audited.
 * - Issue: the engagement service calls `evaluate` after a lesson is marked complete. When the rule
 *   is met a certificate is inserted once per user and course (the unique index decides a race or
 *   a double click; the loser reads the winner's row). Unmarking a lesson never revokes.
 * - Verification: anyone (visitors too) may read a certificate by its unguessable id: recipient
 *   name, course title, issue date, status. Never the course body.
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { canAccessContent, canPublishContent, canWriteContent } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { badInputFromZod, ForbiddenError, NotFoundError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { type Content, createContentRepo } from "../content/content.repo.ts";
import { chooseTemplate } from "../content/content-projection.ts";
import {
  type CertificateVerification,
  type Completions,
  type CourseInProgress,
  type CourseRule,
  certificateIdSchema,
  courseRuleBodySchema,
  type MyCertificate,
} from "./learning.schemas.ts";

export const CERTIFICATE_ISSUER = "Lumen Hub";

export interface CertificatesServiceDeps {
  db: Kysely<DB>;
  /** The hub's public origin (no trailing slash): verification URLs are absolute. */
  publicUrl: string;
  now?: () => number;
  /** After a revocation: drops cached visitor pages so the certificate page shows Revoked at once. */
  onRevoked?: () => void;
}

/** What the engagement service knows after a lesson was marked complete. */
export interface CompletionInput {
  userId: string;
  course: Pick<Content, "id" | "title" | "version">;
  lessonIds: string[];
  completedLessonIds: string[];
}

export const newCertificateId = () => randomBytes(24).toString("base64url");

export function createCertificatesService(deps: CertificatesServiceDeps) {
  const { db } = deps;
  const contents = createContentRepo(db);
  const now = deps.now ?? Date.now;
  const isoNow = () => new Date(now()).toISOString();
  const verificationUrl = (id: string) => `${deps.publicUrl}/certificates/${id}`;

  async function ruleOf(courseId: string): Promise<CourseRule> {
    const row = await db
      .selectFrom("course_rule")
      .selectAll()
      .where("courseId", "=", courseId)
      .executeTakeFirst();
    return row
      ? {
          courseId,
          minLessonsPercent: row.minLessonsPercent,
          minSeconds: row.minSeconds,
          custom: true,
          updatedAt: row.updatedAt,
        }
      : { courseId, minLessonsPercent: 100, minSeconds: null, custom: false, updatedAt: null };
  }

  /** A course (any status) a writer may change: may publish, or wrote it. Else 403/404. */
  async function editableCourse(actor: Actor, key: string): Promise<Content> {
    const access = actor.access;
    if (!access.isAuthenticated) throw new UnauthenticatedError("Sign in to manage course completion rules.");
    if (!canWriteContent(access)) {
      throw new ForbiddenError("Only content writers may see or change a course's completion rule.");
    }
    const item = await contents.getByIdOrSlug(key);
    if (!item || chooseTemplate(item) !== "course") throw new NotFoundError("Course", key);
    if (!canPublishContent(access) && item.authorId !== access.userId) {
      throw new ForbiddenError(`You may change the completion rule only of courses you wrote.`);
    }
    return item;
  }

  async function lessonsOf(course: Content): Promise<Content[]> {
    const rows = await Promise.all(course.related.map((slug) => contents.getBySlug(slug)));
    return rows.filter((r): r is Content => r !== null && r.status === "published");
  }

  async function secondsOn(userId: string, contentIds: string[]): Promise<number> {
    if (contentIds.length === 0) return 0;
    const row = await db
      .selectFrom("reading_activity")
      .select((eb) => eb.fn.sum<number | string | null>("seconds").as("total"))
      .where("userId", "=", userId)
      .where("contentId", "in", contentIds)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  function verification(row: {
    id: string;
    recipientName: string;
    courseTitle: string;
    issuedAt: string;
    revokedAt: string | null;
  }): CertificateVerification {
    return {
      id: row.id,
      status: row.revokedAt ? "revoked" : "valid",
      recipientName: row.recipientName,
      courseTitle: row.courseTitle,
      issuedAt: row.issuedAt,
      revokedAt: row.revokedAt,
      issuer: CERTIFICATE_ISSUER,
      verificationUrl: verificationUrl(row.id),
    };
  }

  async function existing(userId: string, courseId: string) {
    return db
      .selectFrom("certificate")
      .select("id")
      .where("userId", "=", userId)
      .where("courseId", "=", courseId)
      .executeTakeFirst();
  }

  async function find(id: string): Promise<CertificateVerification | null> {
    if (!certificateIdSchema.safeParse(id).success) return null;
    const row = await db.selectFrom("certificate").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? verification(row) : null;
  }

  return {
    verificationUrl,

    /** The user's certificate id for a course, or null. */
    async certificateIdFor(userId: string, courseId: string): Promise<string | null> {
      return (await existing(userId, courseId))?.id ?? null;
    },

    async getRule(actor: Actor, courseKey: string): Promise<CourseRule> {
      const course = await editableCourse(actor, courseKey);
      return ruleOf(course.id);
    },

    async setRule(actor: Actor, courseKey: string, input: unknown): Promise<CourseRule> {
      const course = await editableCourse(actor, courseKey);
      const parsed = courseRuleBodySchema.safeParse(input);
      if (!parsed.success) {
        throw badInputFromZod(parsed.error, {
          fallback: "body",
          message: (field, problem) => `Invalid ${field}: ${problem}`,
        });
      }
      const at = isoNow();
      const values = {
        minLessonsPercent: parsed.data.minLessonsPercent,
        minSeconds: parsed.data.minSeconds ?? null,
        updatedBy: actor.access.userId ?? null,
        updatedAt: at,
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("course_rule")
          .values({ courseId: course.id, ...values })
          .onConflict((oc) => oc.column("courseId").doUpdateSet(values))
          .execute();
        await createAuditRepo(trx).append({
          action: "course.completion_rule.update",
          actorId: actor.access.userId ?? null,
          targetType: "content",
          targetId: course.id,
          details: { minLessonsPercent: values.minLessonsPercent, minSeconds: values.minSeconds },
          at,
        });
      });
      return ruleOf(course.id);
    },

    /**
     * Issues the certificate when `input` meets the course's rule (once: an existing certificate's
     * id is returned). null while the rule is not met. Called by the engagement service.
     */
    async evaluate(input: CompletionInput): Promise<string | null> {
      const { userId, course } = input;
      const already = await existing(userId, course.id);
      if (already) return already.id;
      const total = input.lessonIds.length;
      if (total === 0) return null;
      const rule = await ruleOf(course.id);
      if (input.completedLessonIds.length * 100 < rule.minLessonsPercent * total) return null;
      if (rule.minSeconds && (await secondsOn(userId, [course.id, ...input.lessonIds])) < rule.minSeconds) {
        return null;
      }
      const user = await db
        .selectFrom("user")
        .select(["name", "displayName", "email"])
        .where("id", "=", userId)
        .executeTakeFirst();
      if (!user) return null;
      const recipientName = (user.displayName?.trim() || user.name?.trim() || user.email).slice(0, 200);
      await db
        .insertInto("certificate")
        .values({
          id: newCertificateId(),
          userId,
          courseId: course.id,
          courseTitle: course.title,
          recipientName,
          courseRevision: course.version,
          issuedAt: isoNow(),
          revokedAt: null,
          revokedReason: null,
        })
        .onConflict((oc) => oc.columns(["userId", "courseId"]).doNothing())
        .execute();
      const row = await existing(userId, course.id);
      return row?.id ?? null;
    },

    /** Public verification of a certificate; null for an unknown (or malformed) id. */
    find,

    /** Public verification of a certificate; unknown (or malformed) id → NotFoundError. */
    async verify(id: string): Promise<CertificateVerification> {
      const found = await find(id);
      if (!found) throw new NotFoundError("Certificate");
      return found;
    },

    /** Revokes a certificate (platform tooling and tests); the certificate then verifies as Revoked. */
    async revoke(id: string, reason: string): Promise<void> {
      await db
        .updateTable("certificate")
        .set({ revokedAt: isoNow(), revokedReason: reason })
        .where("id", "=", id)
        .execute();
      deps.onRevoked?.();
    },

    /** The signed-in reader's certificates and the courses they started and did not finish. */
    async completions(actor: Actor): Promise<Completions> {
      const access = actor.access;
      if (!access.isAuthenticated || !access.userId) {
        throw new UnauthenticatedError("Sign in to see your completed courses.");
      }
      const userId = access.userId;
      const rows = await db
        .selectFrom("certificate")
        .leftJoin("content", "content.id", "certificate.courseId")
        .select([
          "certificate.id",
          "certificate.courseId",
          "certificate.courseTitle",
          "certificate.recipientName",
          "certificate.issuedAt",
          "certificate.revokedAt",
          "content.slug as courseSlug",
        ])
        .where("certificate.userId", "=", userId)
        .orderBy("certificate.issuedAt", "desc")
        .execute();
      const certificates: MyCertificate[] = rows.map((r) => ({
        ...verification(r),
        courseId: r.courseId,
        courseSlug: r.courseSlug ?? null,
      }));
      const done = new Set(rows.map((r) => r.courseId));
      const started = await db
        .selectFrom("course_progress")
        .select(["courseId", (eb) => eb.fn.max("completedAt").as("lastAt")])
        .where("userId", "=", userId)
        .groupBy("courseId")
        .execute();
      const inProgress: CourseInProgress[] = [];
      for (const s of started) {
        if (done.has(s.courseId)) continue;
        const course = await contents.getByIdOrSlug(s.courseId);
        if (course?.status !== "published" || chooseTemplate(course) !== "course") continue;
        if (!canAccessContent({ minTier: course.tier, rolesRequired: course.rolesRequired }, access))
          continue;
        const lessons = await lessonsOf(course);
        if (lessons.length === 0) continue;
        const completedRows = await db
          .selectFrom("course_progress")
          .select("lessonId")
          .where("userId", "=", userId)
          .where("courseId", "=", course.id)
          .execute();
        const doneIds = new Set(completedRows.map((r) => r.lessonId));
        const completed = lessons.filter((l) => doneIds.has(l.id)).length;
        if (completed >= lessons.length) continue;
        inProgress.push({
          courseId: course.id,
          courseSlug: course.slug,
          courseTitle: course.title,
          completed,
          total: lessons.length,
          percent: Math.floor((completed * 100) / lessons.length),
          lastAt: String(s.lastAt),
        });
      }
      inProgress.sort((a, b) => (a.lastAt < b.lastAt ? 1 : -1));
      return { certificates, inProgress };
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
