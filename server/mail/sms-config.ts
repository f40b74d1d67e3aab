/**
 * SMS_URL (read by server/env.ts): where SMS codes go.
 * - unset or `outbox`: text files in DATA_DIR/outbox (the embedded default; a developer reads codes there);
 * - `sns://?region=us-east-2[&endpoint=https://…][&senderId=Lumen][&accessKeyId=…&secretAccessKey=…]`:
 *   Amazon SNS (`Publish` to a phone number, transactional). Credentials come from the query, or
 *   else from the AWS SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
 *   AWS_SESSION_TOKEN, AWS_PROFILE and shared config files, container or instance roles).
 * No SDK is imported here, so parsing the configuration stays cheap.
 */

export type SmsConfig =
  | { kind: "outbox" }
  | {
      kind: "sns";
      region: string;
      /** Another SNS endpoint (a VPC endpoint, a local test double); AWS's regional one when absent. */
      endpoint?: string;
      /** Alphanumeric sender id shown by the phone where the country allows it (1–11 characters). */
      senderId?: string;
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

export const SMS_URL_FORMAT = "expected outbox or sns://?region=us-east-2[&endpoint=…][&senderId=…]";

const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9]{1,11}$/;
const KNOWN = new Set(["region", "endpoint", "senderId", "accessKeyId", "secretAccessKey", "sessionToken"]);

export class SmsConfigError extends Error {
  override name = "SmsConfigError";
}

/** Parses SMS_URL; a bad value throws SmsConfigError with what is wrong. */
export function parseSmsUrl(value: string | undefined): SmsConfig {
  if (value === undefined || value === "" || value === "outbox") return { kind: "outbox" };
  const match = /^sns:\/\/\/?(?:\?(.*))?$/.exec(value);
  if (!match) throw new SmsConfigError(SMS_URL_FORMAT);
  const query = new URLSearchParams(match[1] ?? "");
  for (const key of query.keys()) {
    if (!KNOWN.has(key)) throw new SmsConfigError(`unknown parameter "${key}"; ${SMS_URL_FORMAT}`);
  }
  const region = query.get("region") ?? "";
  if (!REGION.test(region)) throw new SmsConfigError(`expected an AWS region, e.g. region=us-east-2`);
  const endpoint = query.get("endpoint") ?? undefined;
  if (endpoint !== undefined) {
    let ok = false;
    try {
      ok = ["http:", "https:"].includes(new URL(endpoint).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new SmsConfigError("endpoint must be an http(s) URL");
  }
  const senderId = query.get("senderId") ?? undefined;
  if (senderId !== undefined && !SENDER_ID.test(senderId)) {
    throw new SmsConfigError("senderId must be 1–11 letters or digits, with at least one letter");
  }
  const accessKeyId = query.get("accessKeyId");
  const secretAccessKey = query.get("secretAccessKey");
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new SmsConfigError("accessKeyId and secretAccessKey go together");
  }
  return {
    kind: "sns",
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(senderId ? { senderId } : {}),
    ...(accessKeyId && secretAccessKey
      ? {
          credentials: {
            accessKeyId,
            secretAccessKey,
            ...(query.get("sessionToken") ? { sessionToken: query.get("sessionToken")! } : {}),
          },
        }
      : {}),
  };
}
