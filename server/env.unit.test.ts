import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("applies the runtime contract's defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "127.0.0.1",
      DATA_DIR: "./data",
      SEED_DEMO: "1",
      TRUST_PROXY: "0",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_SECRET).toBeUndefined();
  });

  it("has API rate limits by default (decision 014), per minute", () => {
    expect(parseEnv({})).toMatchObject({
      RATE_LIMIT_READS_PER_USER: 300,
      RATE_LIMIT_READS_PER_ADDRESS: 600,
      RATE_LIMIT_WRITES_PER_USER: 60,
      RATE_LIMIT_WRITES_PER_ADDRESS: 300,
      RATE_LIMIT_COMMENTS_PER_USER: 10,
      RATE_LIMIT_GRAPHQL_COST_PER_USER: 3000,
      RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: 6000,
    });
    expect(parseEnv({ RATE_LIMIT_READS_PER_USER: "1200" }).RATE_LIMIT_READS_PER_USER).toBe(1200);
  });

  it("gives a graceful shutdown 10 s by default (decision 027)", () => {
    expect(parseEnv({}).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(parseEnv({ SHUTDOWN_TIMEOUT_MS: "2500" }).SHUTDOWN_TIMEOUT_MS).toBe(2500);
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "http", /^Invalid configuration: PORT="http" — expected a port number/],
    ["PORT", "70000", /^Invalid configuration: PORT="70000" — expected a port number between 0 and 65535$/],
    [
      "DATABASE_URL",
      "mysql://x",
      /^Invalid configuration: DATABASE_URL="mysql:\/\/x" — expected postgres:\/\//,
    ],
    [
      "STORAGE_URL",
      "ftp://bucket",
      /^Invalid configuration: STORAGE_URL="ftp:\/\/bucket" — expected s3:\/\//,
    ],
    ["SMTP_URL", "mail.example.com", /^Invalid configuration: SMTP_URL=.* — expected smtp:\/\//],
    [
      "AUTH_SECRET",
      "short",
      /^Invalid configuration: AUTH_SECRET="short" — expected at least 32 characters$/,
    ],
    ["SEED_DEMO", "yes", /^Invalid configuration: SEED_DEMO="yes" — expected 0 or 1$/],
    [
      "SHUTDOWN_TIMEOUT_MS",
      "soon",
      /^Invalid configuration: SHUTDOWN_TIMEOUT_MS="soon" — expected a whole number of milliseconds$/,
    ],
    [
      "SHUTDOWN_TIMEOUT_MS",
      "-1",
      /^Invalid configuration: SHUTDOWN_TIMEOUT_MS="-1" — expected 0 or more milliseconds$/,
    ],
    ["PUBLIC_URL", "hub.example.com", /^Invalid configuration: PUBLIC_URL=.* — expected an absolute URL/],
    ["LOG_LEVEL", "loud", /^Invalid configuration: LOG_LEVEL="loud" — expected one of/],
    [
      "SMS_URL",
      "twilio://acct",
      /^Invalid configuration: SMS_URL="twilio:\/\/acct" — expected outbox or sns:\/\//,
    ],
    ["SMS_URL", "sns://?region=mars", /^Invalid configuration: SMS_URL=.* — expected an AWS region/],
    [
      "RATE_LIMIT_READS_PER_USER",
      "0",
      /^Invalid configuration: RATE_LIMIT_READS_PER_USER="0" — expected at least 1 per minute$/,
    ],
    [
      "RATE_LIMIT_COMMENTS_PER_USER",
      "many",
      /^Invalid configuration: RATE_LIMIT_COMMENTS_PER_USER="many" — expected a whole number/,
    ],
  ])("rejects %s=%s with one line naming the variable", (name, value, message) => {
    let error: unknown;
    try {
      parseEnv({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("accepts PostgreSQL, S3 and SMTP URLs", () => {
    const env = parseEnv({
      DATABASE_URL: "postgres://app@db:5432/lumen",
      STORAGE_URL: "s3://bucket?endpoint=http://127.0.0.1:4569&region=us-east-2",
      SMTP_URL: "smtp://mail:25",
    });
    expect(env.DATABASE_URL).toBe("postgres://app@db:5432/lumen");
  });

  it("accepts SMS_URL for Amazon SNS; unset means the outbox", () => {
    expect(parseEnv({}).SMS_URL).toBeUndefined();
    expect(parseEnv({ SMS_URL: "outbox" }).SMS_URL).toBe("outbox");
    const url = "sns://?region=us-east-2&endpoint=http://127.0.0.1:4566&senderId=Lumen";
    expect(parseEnv({ SMS_URL: url }).SMS_URL).toBe(url);
  });

  it("never prints a secret of a rejected URL", () => {
    const message = (value: Record<string, string>) => {
      try {
        parseEnv(value);
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    };
    const sms = message({ SMS_URL: "sns://?region=x&accessKeyId=AKID&secretAccessKey=TOPSECRET" });
    expect(sms).toMatch(/^Invalid configuration: SMS_URL=/);
    expect(sms).not.toContain("TOPSECRET");
    const smtp = message({ SMTP_URL: "mail://user:TOPSECRET@host" });
    expect(smtp).toMatch(/^Invalid configuration: SMTP_URL=/);
    expect(smtp).not.toContain("TOPSECRET");
  });
});
