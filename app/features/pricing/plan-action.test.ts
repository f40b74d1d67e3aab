import { describe, expect, it } from "vitest";
import type { PlanView } from "../../../server/modules/billing/billing.types.ts";
import { planAction } from "./plan-action.ts";
import type { PricingViewer } from "./pricing-data.ts";

function plan(id: string, tier: PlanView["tier"], kind: PlanView["kind"] = "individual"): PlanView {
  return {
    id,
    name: id === "team" ? "Team Pro" : id[0]!.toUpperCase() + id.slice(1),
    tier,
    kind,
    description: "",
    currency: "usd",
    monthlyPriceCents: tier === "free" ? 0 : 1900,
    yearlyPriceCents: tier === "free" ? 0 : 19000,
    yearlySavingCents: 0,
    yearlySavingPercent: 0,
    perSeat: kind === "organization",
    minSeats: 1,
    maxSeats: null,
    features: [],
    sortOrder: 0,
    archived: false,
  };
}

const visitor: PricingViewer = { signedIn: false, tier: null, orgAdmin: false };
const basicReader: PricingViewer = { signedIn: true, tier: "Basic", orgAdmin: false };
const orgAdmin: PricingViewer = { signedIn: true, tier: "Enterprise", orgAdmin: true };

describe("planAction", () => {
  it("a visitor: a free account, or sign-in on the way to the checkout's review", () => {
    expect(planAction(plan("free", "free"), visitor, "month")).toMatchObject({
      kind: "link",
      to: "/auth/signup",
      label: "Create free account",
    });
    expect(planAction(plan("pro", "pro"), visitor, "year")).toEqual({
      kind: "link",
      to: `/auth/signin?redirect=${encodeURIComponent("/checkout?plan=pro&interval=year")}`,
      label: "Get Pro",
      primary: true,
    });
  });

  it("a signed-in reader: upgrade above, manage their own, change below", () => {
    expect(planAction(plan("pro", "pro"), basicReader, "month")).toEqual({
      kind: "checkout",
      planId: "pro",
      interval: "month",
      returnTo: "/pricing",
      label: "Upgrade to Pro",
    });
    expect(planAction(plan("basic", "basic"), basicReader, "month")).toMatchObject({
      to: "/subscription",
      label: "Manage subscription",
    });
    expect(planAction(plan("free", "free"), basicReader, "month")).toMatchObject({
      to: "/subscription",
      label: "Change on your subscription page",
    });
  });

  it("seat plans: the organisation's admin buys seats, a visitor signs up as a business, an individual is told", () => {
    const team = plan("team", "pro", "organization");
    expect(planAction(team, orgAdmin, "month")).toMatchObject({ to: "/business/dashboard", primary: true });
    expect(planAction(team, visitor, "month")).toMatchObject({ to: "/auth/signup?account=business" });
    const individual = planAction(team, basicReader, "month");
    expect(individual).toMatchObject({ kind: "link", to: "/business/start" });
    expect(individual.kind === "link" && individual.note).toMatch(/administrator/);
  });
});
