/** The Amazon SNS SMS sender against a local SNS Query API double (no network). */
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeSns, startFakeSns } from "../../tests/helpers/fake-sns.ts";
import { parseSmsUrl } from "./sms-config.ts";
import { createSmsSender, createSnsSms, SmsSendError } from "./sms-sns.ts";

describe("Amazon SNS SMS sender", () => {
  let fake: FakeSns;
  beforeAll(async () => {
    fake = await startFakeSns();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake.publishes.length = 0;
    fake.failWith = null;
  });

  const sender = (senderId?: string) =>
    createSnsSms({
      region: "us-east-2",
      endpoint: fake.url,
      senderId,
      credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret" },
    });

  it("publishes one signed, transactional SMS straight to the phone number", async () => {
    await sender("LumenHub").send({ to: "+14155550123", text: "Lumen Hub: your code is 123456." });
    expect(fake.publishes).toHaveLength(1);
    const [sent] = fake.publishes;
    expect(sent).toMatchObject({
      action: "Publish",
      phoneNumber: "+14155550123",
      message: "Lumen Hub: your code is 123456.",
      attributes: { "AWS.SNS.SMS.SMSType": "Transactional", "AWS.SNS.SMS.SenderID": "LumenHub" },
    });
    expect(sent!.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-2\/sns\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    );
  });

  it("throws a clear error when SNS refuses the message (nothing is lost silently)", async () => {
    fake.failWith = { code: "InvalidParameter", message: "Invalid parameter: PhoneNumber Reason: blocked" };
    const error = await sender()
      .send({ to: "+14155550123", text: "code" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect((error as Error).message).toMatch(
      /Amazon SNS did not send the SMS \(InvalidParameter\w*: Invalid parameter: PhoneNumber/,
    );
  });

  it("throws a clear error when SNS cannot be reached", async () => {
    const unreachable = createSnsSms({
      region: "us-east-2",
      endpoint: "http://127.0.0.1:9",
      credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret" },
    });
    await expect(unreachable.send({ to: "+14155550123", text: "code" })).rejects.toBeInstanceOf(SmsSendError);
  });

  it("SMS_URL picks the sender: the outbox by default, SNS for sns://", async () => {
    const outboxDir = path.join("/nonexistent", "outbox");
    expect(createSmsSender({ outboxDir }).kind).toBe("outbox");
    expect(createSmsSender({ smsUrl: "outbox", outboxDir }).kind).toBe("outbox");
    const sns = createSmsSender({
      smsUrl: `sns://?region=us-east-2&endpoint=${fake.url}&accessKeyId=AKIDTEST&secretAccessKey=s`,
      outboxDir,
    });
    expect(sns.kind).toBe("sns");
    await sns.send({ to: "+447700900123", text: "hello" });
    expect(fake.publishes.map((p) => p.phoneNumber)).toEqual(["+447700900123"]);
  });

  it("parses SMS_URL and names what is wrong", () => {
    expect(parseSmsUrl("sns://?region=eu-west-1&senderId=Lumen")).toEqual({
      kind: "sns",
      region: "eu-west-1",
      senderId: "Lumen",
    });
    expect(() => parseSmsUrl("twilio://x")).toThrow(/expected outbox or sns:\/\//);
    expect(() => parseSmsUrl("sns://?endpoint=http://x")).toThrow(/AWS region/);
    expect(() => parseSmsUrl("sns://?region=us-east-2&endpoint=ftp://x")).toThrow(/http\(s\) URL/);
    expect(() => parseSmsUrl("sns://?region=us-east-2&senderId=123")).toThrow(/senderId/);
    expect(() => parseSmsUrl("sns://?region=us-east-2&accessKeyId=A")).toThrow(/go together/);
    expect(() => parseSmsUrl("sns://?region=us-east-2&topic=x")).toThrow(/unknown parameter "topic"/);
  });
});
