import { describe, expect, it } from "vitest";
import { orgSlugOf, slugFromName } from "./organizations.service.ts";

describe("slugFromName", () => {
  it("lower-cases ASCII letters and digits, joined by single hyphens", () => {
    expect(slugFromName("Acme Learning Co.")).toBe("acme-learning-co");
    expect(slugFromName("  Zürich  Café & Bäckerei ")).toBe("zurich-cafe-backerei");
    expect(slugFromName("R&D -- 2026!")).toBe("r-d-2026");
  });

  it("falls back to 'org' when nothing is left, and keeps at most 48 characters", () => {
    expect(slugFromName("日本語")).toBe("org");
    expect(slugFromName("!!!")).toBe("org");
    const long = slugFromName(`${"a".repeat(47)} bcd`);
    expect(long.length).toBeLessThanOrEqual(48);
    expect(long).toBe("a".repeat(47));
  });

  it("never yields a member group that looks like another organisation's admin group", () => {
    expect(slugFromName("Acme Admin")).toBe("acme-admin-org");
    expect(slugFromName("Admin")).toBe("admin-org");
    // The organisation found from the groups is still the right one.
    const slug = slugFromName("Acme Admin");
    expect(orgSlugOf([`org-${slug}`, `org-${slug}-admin`])).toBe(slug);
  });

  it("avoids the words of the organisation API's paths", () => {
    expect(slugFromName("Mine")).toBe("mine-org");
  });
});
