/**
 * A local stand-in for the Amazon SNS Query API (`Action=Publish`), for the SMS sender tests:
 * it records each request (form fields and the SigV4 Authorization header) and answers with the
 * XML the SDK parses, or with an SNS error when told to fail.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SnsPublish {
  action: string | null;
  phoneNumber: string | null;
  message: string | null;
  /** MessageAttributes.entry.N.Name → StringValue */
  attributes: Record<string, string>;
  authorization: string | null;
  messageId: string;
}

export interface FakeSns {
  url: string;
  publishes: SnsPublish[];
  /** Answer every request with this SNS error (HTTP 400) until set back to null. */
  failWith: { code: string; message: string } | null;
  close(): Promise<void>;
}

export async function startFakeSns(): Promise<FakeSns> {
  let counter = 0;
  const fake: FakeSns = {
    url: "",
    publishes: [],
    failWith: null,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      res.setHeader("content-type", "text/xml");
      if (fake.failWith) {
        res.statusCode = 400;
        res.end(
          `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${fake.failWith.code}</Code><Message>${fake.failWith.message}</Message></Error><RequestId>req-${counter}</RequestId></ErrorResponse>`,
        );
        return;
      }
      const attributes: Record<string, string> = {};
      for (let i = 1; form.has(`MessageAttributes.entry.${i}.Name`); i++) {
        attributes[form.get(`MessageAttributes.entry.${i}.Name`)!] =
          form.get(`MessageAttributes.entry.${i}.Value.StringValue`) ?? "";
      }
      counter += 1;
      const messageId = `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`;
      fake.publishes.push({
        action: form.get("Action"),
        phoneNumber: form.get("PhoneNumber"),
        message: form.get("Message"),
        attributes,
        authorization: req.headers.authorization ?? null,
        messageId,
      });
      res.end(
        `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>${messageId}</MessageId></PublishResult><ResponseMetadata><RequestId>req-${counter}</RequestId></ResponseMetadata></PublishResponse>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** The SMS_URL of a server that sends through the fake (static test credentials). */
export function fakeSnsUrl(fake: FakeSns, extra = ""): string {
  return `sns://?region=us-east-2&endpoint=${fake.url}&accessKeyId=AKIDTEST&secretAccessKey=test-secret${extra}`;
}
