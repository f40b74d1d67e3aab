import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { PlanView } from "../../../server/modules/billing/billing.types.ts";
import type { PricingData } from "./pricing-data.ts";
import { PricingView } from "./pricing-view.tsx";

function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

const base = {
  description: "",
  currency: "usd",
  perSeat: false,
  minSeats: 1,
  maxSeats: null,
  features: [] as string[],
  archived: false,
  kind: "individual" as const,
};
const PLANS: PlanView[] = [
  {
    ...base,
    id: "free",
    name: "Free",
    tier: "free",
    monthlyPriceCents: 0,
    yearlyPriceCents: 0,
    yearlySavingCents: 0,
    yearlySavingPercent: 0,
    sortOrder: 0,
  },
  {
    ...base,
    id: "pro",
    name: "Pro",
    tier: "pro",
    monthlyPriceCents: 1900,
    yearlyPriceCents: 19000,
    yearlySavingCents: 3800,
    yearlySavingPercent: 17,
    sortOrder: 2,
    features: ["Priority answers"],
  },
  {
    ...base,
    id: "team",
    name: "Team Pro",
    tier: "pro",
    kind: "organization",
    perSeat: true,
    minSeats: 2,
    monthlyPriceCents: 1500,
    yearlyPriceCents: 15000,
    yearlySavingCents: 3000,
    yearlySavingPercent: 17,
    sortOrder: 4,
  },
];

function render(data: Partial<PricingData>) {
  const full: PricingData = {
    plans: PLANS,
    unlocks: [
      { planId: "free", tier: "free", newItems: 20, highlights: [] },
      {
        planId: "pro",
        tier: "pro",
        newItems: 14,
        highlights: [{ title: "Responsible AI", slug: "r", type: "course" }],
      },
    ],
    interval: "month",
    viewer: { signedIn: false, tier: null, orgAdmin: false },
    ...data,
  };
  return renderToString(
    <MemoryRouter initialEntries={["/pricing"]}>
      <PricingView data={full} inventory={[]} />
    </MemoryRouter>,
  );
}

describe("PricingView", () => {
  it("shows monthly prices, the unlocks and the seat plans, the Monthly link current", () => {
    const html = render({});
    const t = text(html);
    expect(t).toContain("$19 per month");
    expect(t).toContain("or $190 a year (save 17%)");
    expect(t).toContain("Pro unlocks 14 more items");
    expect(t).toContain(", including the Responsible AI course");
    expect(t).toContain("Priority answers");
    expect(t).toContain("For teams");
    expect(t).toContain("$15 per seat per month");
    expect(t).toContain("From 2 seats");
    expect(html).toMatch(/<legend[^>]*>Billing interval<\/legend>/);
    const links = [...html.matchAll(/<a [^>]*href="\/pricing\?interval=(month|year)"[^>]*>/g)];
    expect(links.map((m) => [m[1], m[0].includes('aria-current="true"')])).toEqual([
      ["month", true],
      ["year", false],
    ]);
  });

  it("shows yearly prices with the saving", () => {
    const t = text(render({ interval: "year" }));
    expect(t).toContain("$190 per year");
    expect(t).toContain("Save 17% — $38 a year");
    expect(t).toContain("Save 17% — $30 a year per seat");
  });

  it("marks the reader's plan and offers the upgrade form above it", () => {
    const html = render({ viewer: { signedIn: true, tier: "Free", orgAdmin: false } });
    expect(text(html)).toContain("Your plan");
    const form = /<form[^>]*action="\/checkout"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    expect(form?.[0]).toMatch(/method="post"/);
    expect(form?.[1]).toContain('name="planId" value="pro"');
    expect(form?.[1]).toContain('name="returnTo" value="/pricing"');
    expect(text(form?.[1] ?? "")).toBe("Upgrade to Pro");
  });
});
