import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./db/seed/accounts.ts";
import { loadEnv } from "./env.ts";
import { startServer } from "./server.ts";

const env = loadEnv();
try {
  const running = await startServer(env);
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
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
} catch (error) {
  process.stderr.write(`Lumen Hub could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
