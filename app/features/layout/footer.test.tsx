import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Footer } from "./footer.tsx";

function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function render(year?: number) {
  return renderToString(
    <MemoryRouter>
      <Footer productName="Lumen Hub" tagline="Education, Tools, Resources" year={year} />
    </MemoryRouter>,
  );
}

describe("Footer", () => {
  it("shows the current year and the brand line by default", () => {
    const year = new Date().getFullYear();
    expect(text(render())).toContain(`© ${year} Lumen Hub — Education, Tools, Resources`);
  });

  it("shows the given year", () => {
    const html = render(2031);
    expect(text(html)).toContain("© 2031 Lumen Hub — Education, Tools, Resources");
    expect(text(html)).not.toContain(String(new Date().getFullYear()));
  });

  it("links to Documentation and Dashboard", () => {
    const html = render(2030);
    expect(html).toMatch(/<a[^>]*href="\/documentation"[^>]*>Documentation<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/dashboard"[^>]*>Dashboard<\/a>/);
  });
});
