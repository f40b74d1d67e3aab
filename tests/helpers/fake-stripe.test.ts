import { describe, expect, it } from "vitest";
import { parseStripeForm, startFakeStripe } from "./fake-stripe.ts";

describe("the fake Stripe", () => {
  it("reads form bodies as the SDK writes them (brackets, indexed arrays, empty values)", () => {
    const body =
      "items[0][id]=si_1&items[0][price]=price_pro_month&items[0][quantity]=3&metadata[checkoutId]=chk%201&cancel_at=&success_url=https%3A%2F%2Fhub%2Fcheckout%2F1%3Fsession_id%3D%7BCHECKOUT_SESSION_ID%7D";
    expect(parseStripeForm(body)).toEqual({
      items: [{ id: "si_1", price: "price_pro_month", quantity: "3" }],
      metadata: { checkoutId: "chk 1" },
      cancel_at: "",
      success_url: "https://hub/checkout/1?session_id={CHECKOUT_SESSION_ID}",
    });
  });

  it("answers one object per Idempotency-Key and refuses the key with other parameters", async () => {
    const fake = await startFakeStripe();
    try {
      const post = (body: string, key: string) =>
        fetch(`${fake.url}/v1/customers`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${fake.secretKey}`,
            "content-type": "application/x-www-form-urlencoded",
            "idempotency-key": key,
          },
          body,
        });
      const first = await (await post("email=a%40x.test", "k1")).json();
      const replay = await post("email=a%40x.test", "k1");
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await replay.json()).toEqual(first);
      expect(fake.customers.size).toBe(1);
      const other = await post("email=b%40x.test", "k1");
      expect(other.status).toBe(400);
      expect(((await other.json()) as { error: { type: string } }).error.type).toBe("idempotency_error");
      expect(fake.requests.map((r) => r.idempotencyKey)).toEqual(["k1", "k1", "k1"]);
      const wrongKey = await fetch(`${fake.url}/v1/customers/${first.id}`, {
        headers: { authorization: "Bearer sk_test_other" },
      });
      expect(wrongKey.status).toBe(401);
    } finally {
      await fake.close();
    }
  });
});
