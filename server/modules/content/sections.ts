import type { SectionInfo, SectionSlug } from "./content.types.ts";

/** The product's five sections; each has its own page (core route registry) and a /section/{slug} view. */
export const SECTIONS: readonly SectionInfo[] = [
  {
    slug: "ai-education",
    label: "AI Education",
    description:
      "Courses, lessons and explainers that take you from your first prompt to a working understanding of how models learn, fail and should be governed.",
    path: "/ai-education",
  },
  {
    slug: "workforce-tools",
    label: "Workforce Tools",
    description:
      "Practical guidance for putting AI to work in real teams: automation recipes, management playbooks and the skills your people need.",
    path: "/workforce-tools",
  },
  {
    slug: "resources",
    label: "Resources",
    description:
      "Templates, checklists, curated collections and playbooks you can copy, adapt and put in front of your team.",
    path: "/resources",
  },
  {
    slug: "ai-news",
    label: "AI News",
    description: "Dated analysis of the trends, regulations and practices shaping applied AI.",
    path: "/ai-news",
  },
  {
    slug: "documentation",
    label: "Documentation",
    description:
      "How Lumen Hub works: getting started, plans and tiers, shortcuts, account security and the content API.",
    path: "/documentation",
  },
];

export function isSectionSlug(value: string): value is SectionSlug {
  return SECTIONS.some((s) => s.slug === value);
}
