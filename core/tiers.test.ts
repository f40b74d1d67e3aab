import { describe, expect, it } from "vitest";
import { canAccessContent } from "./access.ts";
import {
  AUTH_TIERS,
  type AuthTier,
  authTierFromTier,
  authTierLevel,
  compareTiers,
  hasAuthTier,
  isAuthTier,
  isTier,
  maxTier,
  meetsContentTier,
  parseTier,
  planRank,
  TIERS,
  type Tier,
  tierFromAuthTier,
  tierLabel,
  tierLevel,
  tierOfFolder,
  tierSpellings,
  tiersAtOrBelow,
} from "./tiers.ts";

describe("tier orderings", () => {
  it("lists the four plans in ascending order", () => {
    expect(TIERS).toEqual(["Free", "Basic", "Pro", "Enterprise"]);
    expect(AUTH_TIERS).toEqual(["Visitor", "Free", "Basic", "Pro", "Enterprise"]);
  });

  it("authentication reading: Visitor 0, Free 1, Basic 2, Pro 3, Enterprise 4", () => {
    expect(AUTH_TIERS.map(authTierLevel)).toEqual([0, 1, 2, 3, 4]);
    expect(authTierLevel("Visitor")).toBe(0);
    expect(authTierLevel("Enterprise")).toBe(4);
  });

  it("content reading: Free 0, Basic 1, Pro 2, Enterprise 3", () => {
    expect(TIERS.map(tierLevel)).toEqual([0, 1, 2, 3]);
  });

  it("both readings are derived from the one list and agree on the order of the plans", () => {
    for (const a of TIERS) {
      expect(authTierLevel(a)).toBe(tierLevel(a) + 1);
      for (const b of TIERS) {
        expect(Math.sign(authTierLevel(a) - authTierLevel(b))).toBe(Math.sign(compareTiers(a, b)));
      }
    }
  });
});

describe("parseTier", () => {
  const cases: Array<[unknown, Tier | null]> = [
    ["free", "Free"],
    ["Free", "Free"],
    ["FREE", "Free"],
    ["basic", "Basic"],
    ["Basic", "Basic"],
    ["BASIC", "Basic"],
    ["pro", "Pro"],
    ["Pro", "Pro"],
    ["PRO", "Pro"],
    ["pRo", "Pro"],
    ["business", "Enterprise"],
    ["Business", "Enterprise"],
    ["BUSINESS", "Enterprise"],
    ["enterprise", "Enterprise"],
    ["Enterprise", "Enterprise"],
    ["ENTERPRISE", "Enterprise"],
    ["  pro  ", "Pro"],
    ["\tbasic\n", "Basic"],
    ["visitor", null],
    ["Visitor", null],
    ["legend", null],
    ["premium", null],
    ["pro plus", null],
    ["professional", null],
    ["", null],
    ["   ", null],
    ["toString", null],
    ["__proto__", null],
    ["constructor", null],
    [null, null],
    [undefined, null],
    [2, null],
    [true, null],
    [{}, null],
    [["pro"], null],
  ];
  it.each(cases)("parseTier(%j) → %j", (input, expected) => {
    expect(parseTier(input)).toBe(expected);
  });
});

describe("isTier / isAuthTier", () => {
  it("accepts exact names only", () => {
    for (const t of TIERS) expect(isTier(t)).toBe(true);
    expect(isTier("Visitor")).toBe(false);
    expect(isTier("pro")).toBe(false);
    expect(isTier(undefined)).toBe(false);
    for (const t of AUTH_TIERS) expect(isAuthTier(t)).toBe(true);
    expect(isAuthTier("visitor")).toBe(false);
  });
});

describe("hasAuthTier", () => {
  // Expected table written out: row = user, column = required.
  const table: Record<AuthTier, Record<AuthTier, boolean>> = {
    Visitor: { Visitor: true, Free: false, Basic: false, Pro: false, Enterprise: false },
    Free: { Visitor: true, Free: true, Basic: false, Pro: false, Enterprise: false },
    Basic: { Visitor: true, Free: true, Basic: true, Pro: false, Enterprise: false },
    Pro: { Visitor: true, Free: true, Basic: true, Pro: true, Enterprise: false },
    Enterprise: { Visitor: true, Free: true, Basic: true, Pro: true, Enterprise: true },
  };
  for (const user of AUTH_TIERS) {
    for (const required of AUTH_TIERS) {
      it(`${user} vs required ${required} → ${table[user][required]}`, () => {
        expect(hasAuthTier(user, required)).toBe(table[user][required]);
      });
    }
  }
  it("refuses unknown values from untyped input", () => {
    expect(hasAuthTier("Gold" as AuthTier, "Visitor")).toBe(false);
    expect(hasAuthTier("Enterprise", "Gold" as AuthTier)).toBe(false);
  });
});

describe("meetsContentTier", () => {
  const table: Record<Tier, Record<Tier, boolean>> = {
    Free: { Free: true, Basic: false, Pro: false, Enterprise: false },
    Basic: { Free: true, Basic: true, Pro: false, Enterprise: false },
    Pro: { Free: true, Basic: true, Pro: true, Enterprise: false },
    Enterprise: { Free: true, Basic: true, Pro: true, Enterprise: true },
  };
  for (const user of TIERS) {
    for (const required of TIERS) {
      it(`${user} vs required ${required} → ${table[user][required]}`, () => {
        expect(meetsContentTier(user, required)).toBe(table[user][required]);
      });
    }
  }

  it("a missing user tier counts as Free", () => {
    expect(meetsContentTier(null, "Free")).toBe(true);
    expect(meetsContentTier(undefined, "Free")).toBe(true);
    expect(meetsContentTier(null, "Basic")).toBe(false);
    expect(meetsContentTier(undefined, "Enterprise")).toBe(false);
  });

  it("a missing requirement is Free", () => {
    expect(meetsContentTier(null, null)).toBe(true);
    expect(meetsContentTier(undefined, undefined)).toBe(true);
    expect(meetsContentTier("Free", undefined)).toBe(true);
  });

  it("fails closed on an unknown requirement and treats an unknown user tier as Free", () => {
    expect(meetsContentTier("Enterprise", "Gold" as Tier)).toBe(false);
    expect(meetsContentTier("Gold" as Tier, "Free")).toBe(true);
    expect(meetsContentTier("Gold" as Tier, "Basic")).toBe(false);
    expect(meetsContentTier("Visitor" as Tier, "Basic")).toBe(false);
  });
});

describe("tiersAtOrBelow", () => {
  it("lists the plans a reader reaches, lowest first; no or an unreadable plan reaches Free only", () => {
    expect(tiersAtOrBelow("Enterprise")).toEqual(["Free", "Basic", "Pro", "Enterprise"]);
    expect(tiersAtOrBelow("Pro")).toEqual(["Free", "Basic", "Pro"]);
    expect(tiersAtOrBelow("Basic")).toEqual(["Free", "Basic"]);
    expect(tiersAtOrBelow("Free")).toEqual(["Free"]);
    expect(tiersAtOrBelow(null)).toEqual(["Free"]);
    expect(tiersAtOrBelow(undefined)).toEqual(["Free"]);
    expect(tiersAtOrBelow("Gold" as Tier)).toEqual(["Free"]);
  });

  it("agrees with meetsContentTier for every pair", () => {
    for (const user of [...TIERS, null]) {
      for (const t of TIERS) expect(tiersAtOrBelow(user).includes(t)).toBe(meetsContentTier(user, t));
    }
  });
});

describe("planRank", () => {
  it("ranks stored plan values in the content reading, unreadable below Free", () => {
    expect(["free", "Basic", "PRO", "business", "enterprise"].map(planRank)).toEqual([0, 1, 2, 3, 3]);
    expect(["gold", "", null, "visitor"].map(planRank)).toEqual([-1, -1, -1, -1]);
  });
});

describe("tierSpellings", () => {
  it("lists every spelling parseTier reads as the plan", () => {
    expect(tierSpellings("Enterprise").sort()).toEqual(["business", "enterprise"]);
    expect(tierSpellings("Free")).toEqual(["free"]);
    for (const t of TIERS) for (const w of tierSpellings(t)) expect(parseTier(w)).toBe(t);
  });
});

describe("tierOfFolder", () => {
  it("reads the lower-case storage folders and nothing else", () => {
    expect(["free", "basic", "pro", "enterprise"].map(tierOfFolder)).toEqual([
      "Free",
      "Basic",
      "Pro",
      "Enterprise",
    ]);
    for (const other of ["business", "Pro", "PRO", "gold", "", undefined])
      expect(tierOfFolder(other)).toBeNull();
  });
});

describe("content API reading of the custom:tier claim (parseTier + the content reading)", () => {
  it.each([
    ["free", 0],
    ["basic", 1],
    ["pro", 2],
    ["enterprise", 3],
    ["business", 3],
    ["PRO", 2],
    ["Enterprise", 3],
    [undefined, 0],
    [null, 0],
    ["", 0],
    ["gold", 0],
    [3, 0],
  ] as Array<[unknown, number]>)("claim %j reaches level %i", (claim, level) => {
    expect(tiersAtOrBelow(parseTier(claim)).length - 1).toBe(level);
  });

  it("compares the claim with the content tier; an unreadable content tier requires Enterprise", () => {
    const allows = (claim: unknown, contentTier: string | undefined) =>
      canAccessContent({ tier: contentTier }, { tier: parseTier(claim) });
    expect(allows(undefined, "free")).toBe(true);
    expect(allows(undefined, undefined)).toBe(true);
    expect(allows(undefined, "")).toBe(true);
    expect(allows(undefined, "basic")).toBe(false);
    expect(allows("basic", "basic")).toBe(true);
    expect(allows("basic", "pro")).toBe(false);
    expect(allows("pro", "Basic")).toBe(true);
    expect(allows("business", "enterprise")).toBe(true);
    expect(allows("enterprise", "business")).toBe(true);
    // An unreadable content tier requires Enterprise (decision 003 §5): only the top plan passes.
    expect(allows("pro", "platinum")).toBe(false);
    expect(allows("enterprise", "platinum")).toBe(true);
  });
});

describe("conversions and helpers", () => {
  it("tierFromAuthTier maps Visitor to null and keeps plans", () => {
    expect(tierFromAuthTier("Visitor")).toBeNull();
    for (const t of TIERS) expect(tierFromAuthTier(t)).toBe(t);
  });

  it("authTierFromTier maps no plan to Visitor", () => {
    expect(authTierFromTier(null)).toBe("Visitor");
    expect(authTierFromTier(undefined)).toBe("Visitor");
    expect(authTierFromTier("Pro")).toBe("Pro");
  });

  it("tierLabel names each tier", () => {
    expect(AUTH_TIERS.map(tierLabel)).toEqual(["Visitor", "Free", "Basic", "Pro", "Enterprise"]);
    expect(tierLabel(null)).toBe("Visitor");
  });

  it("compareTiers sorts plans ascending", () => {
    expect(["Enterprise", "Free", "Pro", "Basic"].sort((a, b) => compareTiers(a as Tier, b as Tier))).toEqual(
      ["Free", "Basic", "Pro", "Enterprise"],
    );
    expect(compareTiers("Pro", "Pro")).toBe(0);
    expect(compareTiers("Basic", "Pro")).toBeLessThan(0);
    expect(compareTiers("Enterprise", "Free")).toBeGreaterThan(0);
  });

  it("maxTier picks the higher plan and ignores missing ones", () => {
    expect(maxTier("Basic", "Pro")).toBe("Pro");
    expect(maxTier("Enterprise", "Pro")).toBe("Enterprise");
    expect(maxTier(null, "Basic")).toBe("Basic");
    expect(maxTier("Basic", undefined)).toBe("Basic");
    expect(maxTier(null, null)).toBeNull();
  });
});
