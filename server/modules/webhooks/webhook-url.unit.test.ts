import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "./webhook-signing.ts";
import { isPrivateAddress, webhookUrlProblem } from "./webhook-url.ts";

const strict = { allowPrivateNetworks: false };

describe("webhookUrlProblem", () => {
  it.each([
    "https://example.com/hook",
    "https://hooks.example.com:8443/a?b=c",
    "http://localhost:3000/hook",
    "http://127.0.0.1:9/hook",
    "http://[::1]:8080/hook",
    "https://127.0.0.1/hook",
    "https://8.8.8.8/hook",
  ])("accepts %s", (url) => {
    expect(webhookUrlProblem(url, strict)).toBeNull();
  });

  it.each([
    ["http://example.com/hook", /https/],
    ["http://10.0.0.1/hook", /https/],
    ["ftp://example.com/x", /https/],
    ["javascript:alert(1)", /https/],
    ["not a url", /absolute URL/],
    ["https://user:pw@example.com/", /user name or password/],
    ["https://10.0.0.1/hook", /private network/],
    ["https://172.20.1.1/hook", /private network/],
    ["https://192.168.1.10/hook", /private network/],
    ["https://169.254.169.254/latest/meta-data", /private network/],
    ["https://100.64.0.1/", /private network/],
    ["https://[fd12::1]/", /private network/],
    ["https://[fe80::1]/", /private network/],
    ["https://[::ffff:10.0.0.1]/", /private network/],
    ["https://0.0.0.0/", /private network/],
    ["https://example.com/#frag", /fragment/],
  ])("refuses %s", (url, problem) => {
    expect(webhookUrlProblem(url, strict)).toMatch(problem);
  });

  it("allows private networks when the setting says so", () => {
    expect(webhookUrlProblem("https://10.0.0.1/hook", { allowPrivateNetworks: true })).toBeNull();
    // http stays loopback-only.
    expect(webhookUrlProblem("http://10.0.0.1/hook", { allowPrivateNetworks: true })).toMatch(/https/);
  });

  it("classifies resolved addresses", () => {
    expect(isPrivateAddress("10.1.2.3")).toBe(true);
    expect(isPrivateAddress("::ffff:192.168.0.1")).toBe(true);
    expect(isPrivateAddress("93.184.216.34")).toBe(false);
    expect(isPrivateAddress("127.0.0.1")).toBe(false);
    expect(isPrivateAddress("2606:2800:220:1::1")).toBe(false);
  });
});

describe("webhook signatures", () => {
  const secret = "whsec_abc";
  const body = '{"id":"1","type":"webhook.test","createdAt":"2026-01-01T00:00:00.000Z","data":{}}';

  it("is v1=<hex HMAC-SHA256 of timestamp.body>", () => {
    // printf '%s' '1700000000.<body>' | openssl dgst -sha256 -hmac whsec_abc
    const signature = signWebhook(secret, 1_700_000_000, body);
    expect(signature).toBe("v1=b1a54f33dccd5b39b3704a2be22cef472378e6f9ad17cd400d1eab93078fec5f");
    expect(signWebhook(secret, 1_700_000_001, body)).not.toBe(signature);
  });

  it("verifies the body, the secret and the timestamp's age", () => {
    const ts = 1_700_000_000;
    const signature = signWebhook(secret, ts, body);
    const headers = { timestamp: String(ts), signature };
    expect(verifyWebhook(secret, headers, body, ts + 10)).toBe(true);
    expect(verifyWebhook(secret, { ...headers, signature: `v0=abc ${signature}` }, body, ts)).toBe(true);
    expect(verifyWebhook("whsec_other", headers, body, ts)).toBe(false);
    expect(verifyWebhook(secret, headers, `${body} `, ts)).toBe(false);
    expect(verifyWebhook(secret, headers, body, ts + 301)).toBe(false);
    expect(verifyWebhook(secret, { timestamp: "abc", signature }, body, ts)).toBe(false);
  });
});
