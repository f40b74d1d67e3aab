import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./db/seed/accounts.ts";
import { loadEnv } from "./env.ts";
import { type RunningServer, startServer } from "./server.ts";

const env = loadEnv();

// Graceful shutdown (decision 027): the first SIGTERM or SIGINT drains the process within
// SHUTDOWN_TIMEOUT_MS (exit 0, or 1 when time ran out); a second one exits at once (1). A signal
// during start-up stops the process right away: migrations run in transactions, and the start-up
// lock goes with the process.
let running: RunningServer | undefined;
let signalled = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (signalled || !running) {
    running?.runtime.logger.warn({ signal }, "second signal: exiting without waiting");
    process.exit(1);
  }
  signalled = true;
  const { logger } = running.runtime;
  logger.info({ signal, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, "shutting down: draining requests");
  running.shutdown(env.SHUTDOWN_TIMEOUT_MS).then(
    (outcome) => {
      if (outcome === "clean") {
        logger.info("stopped");
        process.exit(0);
      }
      logger.error(
        { timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
        "shutdown did not finish within SHUTDOWN_TIMEOUT_MS: open connections destroyed",
      );
      process.exit(1);
    },
    (error: unknown) => {
      logger.error({ err: error }, "shutdown failed");
      process.exit(1);
    },
  );
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

try {
  running = await startServer(env);
  const { logger } = running.runtime;
  logger.info({ url: running.url }, `Lumen Hub listening on ${running.url}`);
  if (env.SEED_DEMO === "1") {
    const lines = DEMO_ACCOUNTS.map(
      (a) =>
        `  ${a.email.padEnd(24)} ${a.description}${a.totpSecret ? `\n  ${"".padEnd(24)} TOTP secret ${a.totpSecret}, backup codes ${a.key}-backup-1…5` : ""}`,
    ).join("\n");
    process.stdout.write(
      `\nDemo accounts (password ${DEMO_PASSWORD}; staff sign in with a code of their TOTP secret, 6 digits every 30 s):\n${lines}\n\n`,
    );
  }
} catch (error) {
  process.stderr.write(`Lumen Hub could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
