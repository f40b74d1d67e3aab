import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { CourseProgress } from "../../../server/modules/engagement/engagement.schemas.ts";
import type { ContentSummary } from "../../../server/services.ts";
import { CourseProgressProvider, CourseProgressSummary, LessonToggle } from "./course-progress.tsx";
import { EngagementBar, ViewCount } from "./engagement-bar.tsx";
import { formatViews, shareLinks } from "./engagement-client.ts";

const PATH = "/content/prompt-patterns";

function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

const render = (node: ReactNode) =>
  renderToString(<MemoryRouter initialEntries={[PATH]}>{node}</MemoryRouter>);

const counts = { viewCount: 1234, likeCount: 12, shareCount: 3 };

describe("engagement bar", () => {
  it("offers a visitor a 'Sign in to like' link back to the page, and the counts", () => {
    const html = render(
      <EngagementBar
        contentId="c1"
        title="Prompt patterns"
        url="https://hub.example/content/prompt-patterns"
        engagement={{ ...counts, liked: null, progress: null }}
        signedIn={false}
      />,
    );
    expect(text(html)).toContain("12 likes · Sign in to like");
    expect(html).toContain(`href="/auth/signin?redirect=${encodeURIComponent(PATH)}"`);
    expect(html).not.toContain("aria-pressed");
  });

  it("renders the signed-in like as a pressed toggle, disabled until the page hydrates", () => {
    const html = render(
      <EngagementBar
        contentId="c1"
        title="Prompt patterns"
        url="https://hub.example/content/prompt-patterns"
        engagement={{ ...counts, liked: true, progress: null }}
        signedIn
      />,
    );
    expect(html).toMatch(/<button[^>]*aria-pressed="true"[^>]*disabled=""/);
    expect(text(html)).toContain("Like 12 likes");
    expect(text(html)).not.toContain("Sign in to like");
  });

  it("works without JavaScript: share links are plain links; 'Copy link' needs the hydrated page", () => {
    const url = "https://hub.example/content/prompt-patterns?a=1&b=2";
    const html = render(
      <EngagementBar
        contentId="c1"
        title="Prompt & patterns"
        url={url}
        engagement={{ ...counts, liked: false, progress: null }}
        signedIn
      />,
    );
    const links = shareLinks(url, "Prompt & patterns");
    expect(links.x).toBe(
      "https://x.com/intent/post?url=https%3A%2F%2Fhub.example%2Fcontent%2Fprompt-patterns%3Fa%3D1%26b%3D2&text=Prompt%20%26%20patterns",
    );
    expect(links.linkedin).toContain(`url=${encodeURIComponent(url)}`);
    expect(links.email.startsWith("mailto:?subject=Prompt%20%26%20patterns&body=")).toBe(true);
    for (const href of Object.values(links)) expect(html).toContain(`href="${href.replace(/&/g, "&amp;")}"`);
    expect(html).toContain("<details");
    expect(text(html)).not.toContain("Copy link");
    expect(text(html)).toContain("Share 3 shares");
  });

  it("formats the view count for the metadata line", () => {
    expect(formatViews(1234)).toBe("1,234 views");
    expect(formatViews(1)).toBe("1 view");
    expect(text(render(<ViewCount engagement={{ ...counts, liked: null, progress: null }} />))).toBe(
      "1,234 views",
    );
    expect(render(<ViewCount engagement={null} />)).toBe("");
  });
});

describe("course progress", () => {
  const lesson = (id: string, locked = false) =>
    ({ id, slug: id, title: `Lesson ${id}`, locked }) as unknown as ContentSummary;
  const progress = (done: string[]): CourseProgress => ({
    courseId: "course",
    lessonIds: ["a", "b", "c", "d", "e"],
    completedLessonIds: done,
    total: 5,
    completed: done.length,
    percent: Math.floor((done.length * 100) / 5),
    complete: done.length === 5,
    ...(done.length === 5 ? { completedAt: "2026-05-10T12:00:00.000Z" } : {}),
  });
  const course = (p: CourseProgress | null, signedIn: boolean, lessons = [lesson("a"), lesson("e", true)]) =>
    render(
      <CourseProgressProvider courseId="course" progress={p} signedIn={signedIn}>
        <CourseProgressSummary />
        {lessons.map((l) => (
          <LessonToggle key={l.id} lesson={l} />
        ))}
      </CourseProgressProvider>,
    );

  it("shows the bar and per-lesson toggles to a signed-in reader (none on locked lessons)", () => {
    const html = course(progress(["a", "b", "c"]), true);
    expect(text(html)).toContain("3 of 5 lessons complete");
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="60"');
    expect(text(html)).not.toContain("Course complete");
    expect(html.match(/Mark complete/g)).toHaveLength(1);
    expect(html).toMatch(/aria-pressed="true"[^>]*>.*Lesson a/);
  });

  it("announces a finished course", () => {
    const html = course(progress(["a", "b", "c", "d", "e"]), true);
    expect(text(html)).toContain("Course complete");
    expect(text(html)).toContain("5 of 5 lessons complete");
  });

  it("asks visitors to sign in, with no toggles", () => {
    const html = course(null, false);
    expect(text(html)).toContain("Sign in to track your progress");
    expect(html).toContain(`href="/auth/signin?redirect=${encodeURIComponent(PATH)}"`);
    expect(html).not.toContain("Mark complete");
    expect(html).not.toContain("progressbar");
  });
});
