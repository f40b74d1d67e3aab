/**
 * The reader's completions (for /dashboard): certificates with their verification links (open,
 * copy to share) and the courses started but not finished, with their progress. Data from
 * `loadCompletions` (learning.server.ts) or GET /api/me/certificates.
 */
import { Award, BookOpen } from "lucide-react";
import { Link } from "react-router";
import type { Completions } from "../../../server/modules/learning/learning.schemas.ts";
import { Card } from "../../components/ui/card.tsx";
import { longDate } from "./certificate-view.tsx";
import { CopyLinkButton } from "./copy-link.tsx";

export function CompletionsPanel({ data }: { data: Completions }) {
  const { certificates, inProgress } = data;
  return (
    <Card className="p-5" data-testid="completions-panel">
      <h2 className="mb-3 text-sm font-semibold text-ink">Courses and certificates</h2>
      {certificates.length === 0 && inProgress.length === 0 ? (
        <p className="text-sm text-ink-muted">
          Finish every lesson of a course to earn a certificate you can share. Courses you start appear here.
        </p>
      ) : null}
      {certificates.length > 0 && (
        <>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-subtle">Completed</h3>
          <ul className="mb-4 divide-y divide-line">
            {certificates.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center gap-3 py-3">
                <Award aria-hidden="true" className="size-5 shrink-0 text-accent-text" />
                <div className="min-w-0 flex-1">
                  <Link to={`/certificates/${c.id}`} className="font-medium text-ink hover:underline">
                    {c.courseTitle}
                  </Link>
                  <p className="text-xs text-ink-muted">
                    Certificate issued {longDate(c.issuedAt)}
                    {c.status === "revoked" ? " · revoked" : ""}
                  </p>
                </div>
                <CopyLinkButton url={c.verificationUrl} label="Share verification link" />
              </li>
            ))}
          </ul>
        </>
      )}
      {inProgress.length > 0 && (
        <>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-subtle">In progress</h3>
          <ul className="divide-y divide-line">
            {inProgress.map((c) => (
              <li key={c.courseId} className="flex items-center gap-3 py-3">
                <BookOpen aria-hidden="true" className="size-5 shrink-0 text-ink-subtle" />
                <div className="min-w-0 flex-1">
                  <Link to={`/content/${c.courseSlug}`} className="font-medium text-ink hover:underline">
                    {c.courseTitle}
                  </Link>
                  <div className="mt-1 flex items-center gap-2">
                    <div
                      className="h-1.5 flex-1 overflow-hidden rounded-full bg-sunken"
                      role="progressbar"
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={c.percent}
                      aria-label={`${c.courseTitle}: ${c.completed} of ${c.total} lessons`}
                    >
                      <div className="h-full rounded-full bg-accent" style={{ width: `${c.percent}%` }} />
                    </div>
                    <span className="text-xs text-ink-muted">
                      {c.completed}/{c.total} lessons
                    </span>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
