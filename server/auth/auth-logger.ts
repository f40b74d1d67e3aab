import type { BetterAuthOptions } from "better-auth";
import { isAPIError } from "better-auth/api";
import type { Logger } from "pino";

type AuthLogLevel = "debug" | "info" | "warn" | "error";
const LEVELS: AuthLogLevel[] = ["debug", "info", "warn", "error"];

/**
 * Better Auth's own log lines go to our pino logger (JSON on stdout), never to the console: its
 * level follows pino's (off when pino is silent), and an Error among the arguments becomes `err`.
 */
export function betterAuthLogger(logger: Logger): NonNullable<BetterAuthOptions["logger"]> {
  const level = LEVELS.find((l) => logger.isLevelEnabled(l));
  if (!level) return { disabled: true };
  return {
    level,
    log(at, message, ...args) {
      const err = args.find((a) => a instanceof Error);
      const rest = args.filter((a) => a !== err);
      logger[at]({ component: "better-auth", err, args: rest.length > 0 ? rest : undefined }, message);
    },
  };
}

/**
 * Errors of Better Auth's endpoints: a refusal of the client's request (4xx: wrong password,
 * locked account, common password…) is routine and logged at debug; a failure on our side (5xx or
 * anything that is not an APIError) at error. Better Auth would otherwise print each of them with
 * console.error.
 */
export function betterAuthApiErrors(logger: Logger): NonNullable<BetterAuthOptions["onAPIError"]> {
  return {
    onError(error) {
      if (isAPIError(error) && error.statusCode < 500) {
        logger.debug(
          {
            component: "better-auth",
            status: error.statusCode,
            code: (error.body as { code?: unknown })?.code,
          },
          error.message,
        );
        return;
      }
      logger.error({ component: "better-auth", err: error }, "auth endpoint failed");
    },
  };
}
