import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "../../env.ts";
import { stripeConfigProblem } from "./stripe-config.ts";

const KEY = "sk_test_abc123";
const SECRET = "whsec_abc123";

describe("the Stripe configuration at start (decision 019)", () => {
  it("no Stripe variables: manual billing, nothing to say", () => {
    expect(stripeConfigProblem({})).toBeNull();
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("a key with its webhook secret starts", () => {
    expect(stripeConfigProblem({ STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET })).toBeNull();
    expect(parseEnv({ STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET })).toMatchObject({
      STRIPE_SECRET_KEY: KEY,
      STRIPE_WEBHOOK_SECRET: SECRET,
    });
  });

  it("a key without the webhook secret stops with one line naming both", () => {
    expect(() => parseEnv({ STRIPE_SECRET_KEY: KEY })).toThrow(ConfigError);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: KEY })).toThrow(
      /^Invalid configuration: STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not — [^\n]+$/,
    );
  });

  it("the key itself never appears in the message", () => {
    expect(stripeConfigProblem({ STRIPE_SECRET_KEY: KEY })).not.toContain(KEY);
  });

  it("BILLING_PROVIDER=stripe without a key stops", () => {
    expect(() => parseEnv({ BILLING_PROVIDER: "stripe" })).toThrow(
      /^Invalid configuration: BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY/,
    );
  });

  it("BILLING_PROVIDER=manual keeps a configured key unused without complaint", () => {
    expect(stripeConfigProblem({ BILLING_PROVIDER: "manual", STRIPE_SECRET_KEY: KEY })).toBeNull();
  });

  it("a live key is only sent over https", () => {
    const live = { STRIPE_SECRET_KEY: "sk_live_abc123", STRIPE_WEBHOOK_SECRET: SECRET };
    expect(stripeConfigProblem({ ...live, STRIPE_API_URL: "http://127.0.0.1:12111" })).toMatch(
      /^Invalid configuration: STRIPE_API_URL="http:\/\/127.0.0.1:12111" — a live Stripe key/,
    );
    expect(stripeConfigProblem({ ...live, STRIPE_API_URL: "https://stripe-proxy.example.com" })).toBeNull();
    expect(
      stripeConfigProblem({
        STRIPE_SECRET_KEY: KEY,
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_URL: "http://127.0.0.1:1",
      }),
    ).toBeNull();
  });
});
