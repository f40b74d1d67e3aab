/**
 * SMS through Amazon SNS with the official SDK (`@aws-sdk/client-sns`, the same family as the S3
 * client): one `Publish` per message, straight to the phone number, as a transactional SMS.
 */
import type { MessageAttributeValue, SNSClient } from "@aws-sdk/client-sns";
import { createOutboxSms, type SmsSender } from "./mailer.ts";
import { parseSmsUrl, type SmsConfig } from "./sms-config.ts";

/** The provider refused the message or could not be reached (the code did not leave). */
export class SmsSendError extends Error {
  override name = "SmsSendError";
}

export type SnsSmsOptions = Omit<Extract<SmsConfig, { kind: "sns" }>, "kind">;

/** The SDK is imported and the client made with the first SMS (not at start). */
export function createSnsSms(options: SnsSmsOptions): SmsSender {
  let sdk: Promise<{
    client: SNSClient;
    PublishCommand: typeof import("@aws-sdk/client-sns").PublishCommand;
  }> | null = null;
  const connect = () => {
    sdk ??= import("@aws-sdk/client-sns").then(({ PublishCommand, SNSClient }) => ({
      PublishCommand,
      client: new SNSClient({
        region: options.region,
        endpoint: options.endpoint,
        credentials: options.credentials,
        // A sign-in waits for this: fail in seconds rather than hang, and retry once.
        maxAttempts: 2,
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 10_000 },
      }),
    }));
    sdk.catch(() => {
      sdk = null;
    });
    return sdk;
  };
  const attributes: Record<string, MessageAttributeValue> = {
    "AWS.SNS.SMS.SMSType": { DataType: "String", StringValue: "Transactional" },
  };
  if (options.senderId) {
    attributes["AWS.SNS.SMS.SenderID"] = { DataType: "String", StringValue: options.senderId };
  }
  return {
    kind: "sns",
    async send(message) {
      let messageId: string | undefined;
      try {
        const { client, PublishCommand } = await connect();
        const out = await client.send(
          new PublishCommand({
            PhoneNumber: message.to,
            Message: message.text,
            MessageAttributes: attributes,
          }),
        );
        messageId = out.MessageId;
      } catch (error) {
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new SmsSendError(`Amazon SNS did not send the SMS (${reason})`, { cause: error });
      }
      if (!messageId) throw new SmsSendError("Amazon SNS answered without a message id");
    },
  };
}

/** The SMS sender SMS_URL names: the outbox files by default, or Amazon SNS. */
export function createSmsSender(options: { smsUrl?: string; outboxDir: string }): SmsSender {
  const config = parseSmsUrl(options.smsUrl);
  if (config.kind === "outbox") return createOutboxSms(options.outboxDir);
  const { kind: _kind, ...sns } = config;
  return createSnsSms(sns);
}
