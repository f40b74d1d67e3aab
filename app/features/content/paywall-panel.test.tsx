import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { PlanView } from "../../../server/modules/billing/billing.types.ts";
import type { PaywallOffer } from "./content-data.ts";
import { type GatedAccess, PaywallPanel, PublicPreview } from "./paywall-panel.tsx";

function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function render(
  access: GatedAccess,
  signedIn: boolean,
  currentPath = "/content/prompt-patterns",
  rolesRequired: string[] = [],
  offer: PaywallOffer | null = null,
) {
  return renderToString(
    <MemoryRouter>
      <PaywallPanel
        access={access}
        signedIn={signedIn}
        currentPath={currentPath}
        rolesRequired={rolesRequired}
        offer={offer}
      />
    </MemoryRouter>,
  );
}

describe("PaywallPanel", () => {
  it("offers a visitor the upgrade and a Sign In button that returns to the page", () => {
    const html = render({ kind: "signin", requiredTier: "Pro" }, false);
    const t = text(html);
    expect(t).toContain("Premium Content");
    expect(t).toContain("This content requires a Pro subscription or higher.");
    expect(t).toContain("Upgrade to Pro");
    expect(t).toContain("Sign In");
    expect(html).toMatch(/href="\/pricing"[^>]*>.*Upgrade to Pro/s);
    expect(html).toContain('href="/auth/signin?redirect=%2Fcontent%2Fprompt-patterns"');
  });

  it("offers a signed-in user only the upgrade", () => {
    const html = render({ kind: "tier", requiredTier: "Enterprise" }, true);
    const t = text(html);
    expect(t).toContain("Premium Content");
    expect(t).toContain("This content requires a Enterprise subscription or higher.");
    expect(t).toContain("Upgrade to Enterprise");
    expect(t).not.toContain("Sign In");
    expect(html).not.toContain("/auth/signin");
  });

  it("explains a role gate instead of a plan", () => {
    const t = text(render({ kind: "role", rolesRequired: ["Editor"] }, true));
    expect(t).toContain("This content is only available to editors.");
    expect(t).not.toContain("Premium Content");
    expect(t).not.toContain("Sign In");
  });

  it("offers a visitor Sign In on a role gate", () => {
    const t = text(render({ kind: "role", rolesRequired: ["ContentManager", "AdminUser"] }, false));
    expect(t).toContain("content managers and admins");
    expect(t).toContain("Sign In");
  });

  it("asks a visitor only to sign in when no plan is needed", () => {
    const html = render({ kind: "signin", requiredTier: "Free" }, false, "/content/style-guide", [
      "ContentManager",
    ]);
    const t = text(html);
    expect(t).toContain("Sign In Required");
    expect(t).toContain("This content is only available to content managers. Sign in to continue.");
    expect(t).not.toContain("Upgrade to Free");
    expect(html).toContain('href="/auth/signin?redirect=%2Fcontent%2Fstyle-guide"');
  });

  describe("with an offer (the cheapest plan that opens the item)", () => {
    const pro: PlanView = {
      id: "pro",
      name: "Pro",
      tier: "pro",
      kind: "individual",
      description: "",
      currency: "usd",
      monthlyPriceCents: 1900,
      yearlyPriceCents: 19000,
      yearlySavingCents: 3800,
      yearlySavingPercent: 17,
      perSeat: false,
      minSeats: 1,
      maxSeats: null,
      features: [],
      sortOrder: 2,
      archived: false,
    };
    const offer: PaywallOffer = {
      plan: pro,
      moreItems: 13,
      highlights: [
        { title: "Responsible AI", slug: "responsible-ai", type: "course" },
        { title: "Prompt review rubric", slug: "prompt-review-rubric", type: "article" },
      ],
    };

    it("names the plan, its price and what else it opens", () => {
      const t = text(render({ kind: "tier", requiredTier: "Pro" }, true, "/content/x", [], offer));
      expect(t).toContain("Premium Content");
      expect(t).toContain("This content requires a Pro subscription or higher.");
      expect(t).toContain("Pro — $19/month");
      expect(t).toContain(
        "and 13 more Pro items, including the Responsible AI course and “Prompt review rubric”",
      );
    });

    it("gives a signed-in reader one click: a POST form to /checkout with the plan and the way back", () => {
      const html = render({ kind: "tier", requiredTier: "Pro" }, true, "/content/prompt-patterns", [], offer);
      const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html);
      expect(form?.[0]).toMatch(/method="post"/);
      expect(form?.[0]).toMatch(/action="\/checkout"/);
      expect(form?.[1]).toContain('name="planId" value="pro"');
      expect(form?.[1]).toContain('name="interval" value="month"');
      expect(form?.[1]).toContain('name="returnTo" value="/content/prompt-patterns"');
      expect(text(form?.[1] ?? "")).toBe("Upgrade to Pro");
      expect(html).not.toContain("/auth/signin");
      expect(html).toContain('href="/pricing"');
    });

    it("sends a visitor through sign-in to the checkout review, and offers Sign In and the plans", () => {
      const html = render(
        { kind: "signin", requiredTier: "Pro" },
        false,
        "/content/prompt-patterns",
        [],
        offer,
      );
      expect(html).not.toContain("<form");
      const review = encodeURIComponent(
        "/checkout?plan=pro&interval=month&returnTo=%2Fcontent%2Fprompt-patterns",
      );
      expect(html).toMatch(
        new RegExp(
          `href="/auth/signin\\?redirect=${review.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>.*Upgrade to Pro`,
          "s",
        ),
      );
      expect(html).toContain('href="/auth/signin?redirect=%2Fcontent%2Fprompt-patterns"');
      expect(text(html)).toContain("See plans");
      expect(html).toMatch(/href="\/pricing"[^>]*>See plans/);
    });

    it("says nothing of other items when the plan opens none", () => {
      const t = text(
        render({ kind: "tier", requiredTier: "Pro" }, true, "/content/x", [], { ...offer, moreItems: 0 }),
      );
      expect(t).toContain("Pro — $19/month");
      expect(t).not.toContain("more Pro");
    });

    it("offers no plan on a role gate", () => {
      const t = text(render({ kind: "role", rolesRequired: ["Editor"] }, true, "/content/x", [], offer));
      expect(t).not.toContain("$19");
    });
  });

  describe("PublicPreview", () => {
    it("shows the server's sanitized preview, and nothing without one", () => {
      const html = renderToString(<PublicPreview html="<p>The opening.</p>" />);
      expect(html).toContain("<p>The opening.</p>");
      expect(html).toContain('aria-label="Preview"');
      expect(renderToString(<PublicPreview html={null} />)).toBe("");
    });
  });
});
