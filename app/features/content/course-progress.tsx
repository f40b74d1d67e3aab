import { Award, Check, LogIn, Trophy } from "lucide-react";
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { signInUrl } from "../../../core/index.ts";
import type { CourseProgress } from "../../../server/modules/engagement/engagement.schemas.ts";
import type { ContentSummary } from "../../../server/services.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { cx } from "../../components/ui/cx.ts";
import { formatDate } from "../../lib/format.ts";
import { sendLessonComplete } from "./engagement-client.ts";
import { runOptimistic, withLesson } from "./optimistic.ts";
import { useHydrated } from "./use-hydrated.ts";

interface CourseProgressValue {
  signedIn: boolean;
  progress: CourseProgress | null;
  hydrated: boolean;
  toggle(lessonId: string): void;
}

const CourseProgressContext = createContext<CourseProgressValue | null>(null);

export interface CourseProgressProviderProps {
  courseId: string;
  /** The reader's progress from the page data (null for visitors). */
  progress: CourseProgress | null;
  signedIn: boolean;
  children: ReactNode;
}

/** Holds a course's progress for the summary and the lesson toggles (optimistic, rolled back on error). */
export function CourseProgressProvider({
  courseId,
  progress,
  signedIn,
  children,
}: CourseProgressProviderProps) {
  const hydrated = useHydrated();
  const [state, setState] = useState(progress);
  const pending = useRef(new Set<string>());

  useEffect(() => setState(progress), [progress]);

  const toggle = (lessonId: string) => {
    if (!state || pending.current.has(lessonId)) return;
    pending.current.add(lessonId);
    const done = !state.completedLessonIds.includes(lessonId);
    void runOptimistic({
      before: state,
      optimistic: withLesson(state, lessonId, done, new Date().toISOString()),
      send: () => sendLessonComplete(courseId, lessonId, done),
      settle: (answer: CourseProgress) => answer,
      set: setState,
      onError: (message) => showToast("Your progress was not saved", { description: message }),
    }).finally(() => pending.current.delete(lessonId));
  };

  return (
    <CourseProgressContext.Provider value={{ signedIn, progress: state, hydrated, toggle }}>
      {children}
    </CourseProgressContext.Provider>
  );
}

/** The progress bar ('3 of 5 lessons complete'), the 'Course complete' banner, or the sign-in prompt. */
export function CourseProgressSummary() {
  const ctx = useContext(CourseProgressContext);
  const location = useLocation();
  if (!ctx) return null;
  if (!ctx.signedIn) {
    return (
      <p className="mb-6 flex flex-wrap items-center gap-2 rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink-muted">
        <LogIn aria-hidden="true" className="size-4 text-ink-subtle" />
        <Link
          to={signInUrl(location.pathname)}
          className="font-medium text-accent-text underline-offset-2 hover:underline"
        >
          Sign in to track your progress
        </Link>
      </p>
    );
  }
  const progress = ctx.progress;
  if (!progress || progress.total === 0) return null;
  const label = `${progress.completed} of ${progress.total} lessons complete`;
  const finished = formatDate(progress.completedAt);
  return (
    <section
      aria-labelledby="course-progress-title"
      className="mb-6 rounded-xl border border-line bg-elevated p-4"
    >
      <div aria-live="polite">
        {progress.complete ? (
          <div className="mb-4 flex items-start gap-3 rounded-lg border border-ok-line bg-ok-soft px-3 py-2.5">
            <Trophy aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ok-text" />
            <div className="min-w-0">
              <p className="font-semibold text-ink">Course complete</p>
              <p className="text-sm text-ink-muted">
                You finished every lesson{finished ? ` (${finished})` : ""}. Well done.
              </p>
            </div>
          </div>
        ) : null}
        {progress.certificateId ? (
          <p className="mb-4 flex flex-wrap items-center gap-2 text-sm" data-testid="course-certificate">
            <Award aria-hidden="true" className="size-4 text-accent-text" />
            <span className="text-ink">You earned a certificate.</span>
            <Link
              to={`/certificates/${progress.certificateId}`}
              className="font-medium text-accent-text underline-offset-2 hover:underline"
            >
              View your certificate
            </Link>
          </p>
        ) : null}
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h2 id="course-progress-title" className="text-sm font-semibold text-ink">
            Your progress
          </h2>
          <p className="text-sm text-ink-muted">{label}</p>
        </div>
      </div>
      <div
        role="progressbar"
        aria-labelledby="course-progress-title"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={label}
        className="mt-2 h-2 overflow-hidden rounded-full bg-sunken"
      >
        <div
          className={cx(
            "h-full rounded-full transition-[width] duration-300",
            progress.complete ? "bg-ok-text" : "bg-accent",
          )}
          style={{ width: `${progress.percent}%` }}
        />
      </div>
    </section>
  );
}

/** A lesson's 'Mark complete' toggle (signed-in readers, lessons they may read). */
export function LessonToggle({ lesson }: { lesson: ContentSummary }) {
  const ctx = useContext(CourseProgressContext);
  if (!ctx?.signedIn || !ctx.progress || lesson.locked || !ctx.progress.lessonIds.includes(lesson.id)) {
    return null;
  }
  const done = ctx.progress.completedLessonIds.includes(lesson.id);
  return (
    <button
      type="button"
      aria-pressed={done}
      disabled={!ctx.hydrated}
      onClick={() => ctx.toggle(lesson.id)}
      className={cx(
        "inline-flex h-8 items-center gap-1.5 rounded-lg border px-2 text-xs font-medium transition-colors sm:px-2.5",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus",
        "disabled:cursor-not-allowed disabled:opacity-60",
        done
          ? "border-ok-line bg-ok-soft text-ok-text"
          : "border-line-strong bg-elevated text-ink-muted hover:bg-sunken hover:text-ink",
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          "flex size-4 items-center justify-center rounded-full border",
          done ? "border-transparent bg-ok-text text-elevated" : "border-current",
        )}
      >
        {done ? <Check className="size-3" strokeWidth={3} /> : null}
      </span>
      <span className="sr-only sm:not-sr-only">Mark complete</span>
      <span className="sr-only">: {lesson.title}</span>
    </button>
  );
}
