import { z } from "zod";
import { parseSmsUrl, SmsConfigError } from "./mail/sms-config.ts";
import { stripeConfigProblem } from "./modules/billing/stripe-config.ts";

/**
 * Configuration, parsed once. This is the only module that reads process.env.
 * An invalid value stops the process at start with one line naming the variable
 * and what it expects (see `loadEnv`).
 */
/** A rate limit (units per minute, decision 014): a whole number from 1. */
const perMinute = (fallback: number, max = 1_000_000) =>
  z.coerce
    .number({ message: "expected a whole number of requests per minute" })
    .int("expected a whole number of requests per minute")
    .min(1, "expected at least 1 per minute")
    .max(max, `expected at most ${max} per minute`)
    .default(fallback);
/** GraphQL cost is counted in objects (one query may cost hundreds), so its bound is higher. */
const COST_PER_MINUTE_MAX = 100_000_000;

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ message: "expected a port number between 1 and 65535" })
    .int("expected a whole number")
    .min(0, "expected a port number between 0 and 65535")
    .max(65535, "expected a port number between 0 and 65535")
    .default(3000),
  HOST: z.string().min(1, "expected a host name or address").default("127.0.0.1"),
  DATA_DIR: z.string().min(1, "expected a folder path").default("./data"),
  DATABASE_URL: z
    .string()
    .refine((v) => v === "" || /^postgres(ql)?:\/\/.+/.test(v) || !/^[a-z]+:\/\//i.test(v), {
      message: "expected postgres://user@host:port/database or a SQLite file path",
    })
    .optional(),
  STORAGE_URL: z
    .string()
    .refine((v) => v === "" || /^s3:\/\/[^/?]+/.test(v) || !/^[a-z0-9]+:\/\//i.test(v), {
      message: "expected s3://bucket?endpoint=…&region=… or a folder path",
    })
    .optional(),
  SMTP_URL: z
    .string()
    .refine((v) => v === "" || /^smtps?:\/\/.+/.test(v), {
      message: "expected smtp://host:port or smtps://…",
    })
    .optional(),
  /**
   * Where mail and SMS are written without SMTP_URL / SMS_URL (default DATA_DIR/outbox). Several
   * processes point it at one shared folder, or use SMTP (decision 028).
   */
  OUTBOX_DIR: z.string().min(1, "expected a folder path").optional(),
  /**
   * The folder of local repositories (default DATA_DIR/repositories). Several processes point it
   * at one shared folder so each can sync them and show every branch and commit (decision 028).
   */
  REPOSITORIES_DIR: z.string().min(1, "expected a folder path").optional(),
  /** SMS codes: the outbox files by default, or Amazon SNS (server/mail/sms-config.ts). */
  SMS_URL: z
    .string()
    .superRefine((v, ctx) => {
      try {
        parseSmsUrl(v);
      } catch (error) {
        if (!(error instanceof SmsConfigError)) throw error;
        ctx.addIssue({ code: "custom", message: error.message });
      }
    })
    .optional(),
  AUTH_SECRET: z.string().min(32, "expected at least 32 characters").optional(),
  PUBLIC_URL: z.url({ message: "expected an absolute URL such as https://hub.example.com" }).optional(),
  SEED_DEMO: z.enum(["0", "1"], { message: "expected 0 or 1" }).default("1"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "expected one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  TRUST_PROXY: z.enum(["0", "1"], { message: "expected 0 or 1" }).default("0"),
  /** Redis for the API rate-limit counters (decision 033); without it they live in the database. */
  REDIS_URL: z
    .string()
    .refine((v) => v === "" || /^rediss?:\/\/.+/.test(v), {
      message: "expected redis://[user:password@]host:port[/db] or rediss://…",
    })
    .optional(),
  /**
   * Bearer token for `GET /metrics` (Prometheus, decision 030); without it the endpoint answers 404.
   */
  METRICS_TOKEN: z
    .string()
    .refine((v) => v === "" || /^[\x21-\x7e]{16,256}$/.test(v), {
      message: "expected 16 to 256 printable characters without spaces",
    })
    .optional(),
  /**
   * Graceful shutdown (decision 027): how long a SIGTERM/SIGINT waits for requests in flight, the
   * running job tick and the database to close before it destroys what is left and exits 1.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ message: "expected a whole number of milliseconds" })
    .int("expected a whole number of milliseconds")
    .min(0, "expected 0 or more milliseconds")
    .max(600_000, "expected at most 600000 milliseconds (10 minutes)")
    .default(10_000),
  /** GitHub repositories (decision 008): an optional token raises the API rate limit. */
  GITHUB_TOKEN: z.string().min(1).optional(),
  GITHUB_API_URL: z.url({ message: "expected an absolute URL such as https://api.github.com" }).optional(),
  /**
   * Billing (decision 019): Stripe when STRIPE_SECRET_KEY is set, else the manual provider.
   * STRIPE_API_URL points the SDK at another host (tests run a local server that answers it).
   */
  BILLING_PROVIDER: z.enum(["manual", "stripe"], { message: "expected manual or stripe" }).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "expected a Stripe secret key (sk_test_… or sk_live_…)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "expected a webhook signing secret (whsec_…)")
    .optional(),
  STRIPE_API_URL: z.url({ message: "expected an absolute URL such as http://127.0.0.1:12111" }).optional(),
  /** Manual provider: may a reader confirm their own checkout? Default: on with the demo seed. */
  BILLING_MANUAL_SELF_SERVE: z.enum(["0", "1"], { message: "expected 0 or 1" }).optional(),
  /** Days a reader keeps a plan after a failed renewal payment. */
  BILLING_GRACE_DAYS: z.coerce
    .number({ message: "expected a whole number of days" })
    .int("expected a whole number of days")
    .min(0, "expected 0 or more days")
    .max(60, "expected at most 60 days")
    .default(7),
  /**
   * Webhooks (decision 037): 1 lets endpoints point at private network addresses (10/8, 172.16/12,
   * 192.168/16, link-local, …); refused by default against server-side request forgery.
   */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: z.enum(["0", "1"], { message: "expected 0 or 1" }).default("0"),
  /** API rate limits per minute (decision 014): per signed-in user (or key) and per client address. */
  RATE_LIMIT_READS_PER_USER: perMinute(300),
  RATE_LIMIT_READS_PER_ADDRESS: perMinute(600),
  RATE_LIMIT_WRITES_PER_USER: perMinute(60),
  RATE_LIMIT_WRITES_PER_ADDRESS: perMinute(300),
  RATE_LIMIT_COMMENTS_PER_USER: perMinute(10),
  RATE_LIMIT_GRAPHQL_COST_PER_USER: perMinute(3000, COST_PER_MINUTE_MAX),
  RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: perMinute(6000, COST_PER_MINUTE_MAX),
});

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A value as it may be printed: URL passwords and secret query parameters masked. */
function redact(value: string): string {
  return value
    .replace(/(\/\/[^/:@?#]*:)[^@/?#]*@/, "$1***@")
    .replace(/((?:secretAccessKey|sessionToken)=)[^&]*/g, "$1***");
}

/** Parse configuration from a record (process.env by default). Throws ConfigError with one clear line. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? "configuration");
    throw new ConfigError(
      `Invalid configuration: ${name}=${JSON.stringify(redact(cleaned[name] ?? ""))} — ${issue.message}`,
    );
  }
  // Billing (decision 019): a Stripe key needs its webhook secret, and Stripe needs a key.
  const stripeProblem = stripeConfigProblem(result.data);
  if (stripeProblem) throw new ConfigError(stripeProblem);
  return result.data;
}

/** Parse process.env, or print the one-line reason and exit(1). */
export function loadEnv(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
