import path from "node:path";
import { readOutbox } from "../../server/mail/mailer.ts";

export const E2E_OUTBOX = path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data", "outbox");

/** The newest 6-digit code e-mailed to `email` (waits up to 5 s for it to arrive). */
export async function latestCodeFor(email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    for (const eml of await readOutbox(E2E_OUTBOX)) {
      if (!new RegExp(`^To: .*${email.replace(/[.+]/g, "\\$&")}`, "im").test(eml)) continue;
      const code = /\b(\d{6})\b/.exec(
        eml
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join("\n"),
      );
      if (code) return code[1]!;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code e-mailed to ${email}`);
}
