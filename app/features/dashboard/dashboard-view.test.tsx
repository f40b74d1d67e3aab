import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { ContentSummary } from "../../../server/modules/content/content.types.ts";
import { ContinueCard } from "./dashboard-cards.tsx";
import { UpgradeCard } from "./dashboard-view.tsx";

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
const render = (node: ReactNode) => renderToString(<MemoryRouter>{node}</MemoryRouter>);

const course = {
  id: "c1",
  slug: "prompting-fundamentals",
  title: "Prompting Fundamentals",
  type: "course",
  templateId: null,
  section: "ai-education",
  categorySlug: null,
  categoryLabel: "Prompt Engineering",
  tier: "Free",
  rolesRequired: [],
  excerpt: null,
  tags: [],
  authorName: null,
  publishedAt: "2026-02-03T09:00:00.000Z",
  updatedAt: "2026-02-03T09:00:00.000Z",
  featured: false,
  featuredImage: null,
  featuredImageAlt: null,
  readingMinutes: 3,
  locked: false,
  bodyS3Key: null,
} as unknown as ContentSummary;

const upgrade = {
  tier: "Pro" as const,
  items: 3,
  byType: { article: 2, course: 1 },
  highlights: [{ title: "Responsible AI in Practice", slug: "responsible-ai", type: "course" as const }],
};

describe("dashboard cards", () => {
  it("shows a course's progress and links the next lesson", () => {
    const html = render(
      <ContinueCard
        entry={{
          item: course,
          lastAt: "2026-11-20T10:00:00.000Z",
          secondsRead: 0,
          progress: {
            completed: 1,
            total: 4,
            percent: 25,
            complete: false,
            nextLesson: { id: "l2", slug: "few-shot", title: "Few-Shot Examples" },
          },
        }}
      />,
    );
    expect(text(html)).toContain("1 of 4 lessons 25%");
    expect(html).toContain('aria-valuenow="25"');
    expect(html).toContain('href="/content/few-shot"');
    expect(text(html)).toContain("Next lesson: Few-Shot Examples");
  });

  it("says how long an item was read", () => {
    const html = render(
      <ContinueCard
        entry={{
          item: { ...course, type: "article" },
          lastAt: "2026-11-20T10:00:00.000Z",
          secondsRead: 600,
          progress: null,
        }}
      />,
    );
    expect(text(html)).toContain("10 min read so far");
  });

  it("sells the next plan to an individual reader", () => {
    const html = render(<UpgradeCard upgrade={upgrade} organisationPlan={null} />);
    expect(text(html)).toContain("What Pro would add");
    expect(text(html)).toContain("3 more items in the library: 2 articles, 1 course.");
    expect(html).toContain('href="/pricing"');
    expect(html).toContain('href="/content/responsible-ai"');
  });

  it("tells an organisation member that the plan comes from the organisation", () => {
    const html = render(<UpgradeCard upgrade={upgrade} organisationPlan={{ orgName: "Acme" }} />);
    expect(text(html)).toContain("Your plan comes from Acme");
    expect(html).not.toContain('href="/pricing"');
  });
});
