/**
 * The server's logger: pino JSON lines. Every line logged while a request runs carries the
 * request's id (`reqId`, server/http/request-context.ts), and the runtime binds the process id
 * (`proc`, as the infrastructure screen names it), so lines from several processes behind a proxy
 * can be told apart and one request followed through them.
 */
import { type DestinationStream, type Logger, pino } from "pino";
import { requestLogMixin } from "./http/request-context.ts";

export function createAppLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: undefined, mixin: requestLogMixin };
  return destination ? pino(options, destination) : pino(options);
}
