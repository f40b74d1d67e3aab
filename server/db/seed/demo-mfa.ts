/**
 * Demo staff accounts get an authenticator app (TOTP) and backup codes at seed, with the secrets
 * published in the README and printed by `npm start`, because staff rights need a second factor
 * (docs/decisions/012-staff-mfa.md). Only the demo seed calls this, and only for an account it
 * has just created: real accounts always enrol themselves in /settings.
 */
import { symmetricEncrypt } from "better-auth/crypto";
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { Auth } from "../../auth/auth.ts";
import type { DB } from "../schema.ts";
import type { DemoAccount } from "./accounts.ts";

export async function enrolDemoTotp(
  db: Kysely<DB>,
  auth: Auth,
  userId: string,
  account: Pick<DemoAccount, "totpSecret" | "backupCodes">,
): Promise<void> {
  if (!account.totpSecret) return;
  const { secretConfig } = await auth.$context;
  // Better Auth reads a `base32:`-prefixed secret as the base32 key an authenticator app shows.
  const secret = await symmetricEncrypt({ key: secretConfig, data: `base32:${account.totpSecret}` });
  const backupCodes = await symmetricEncrypt({
    key: secretConfig,
    data: JSON.stringify(account.backupCodes ?? []),
  });
  await db.deleteFrom("twoFactor").where("userId", "=", userId).execute();
  await db
    .insertInto("twoFactor")
    .values({ id: uuidv7(), userId, secret, backupCodes, verified: true })
    .execute();
  await db.updateTable("user").set({ twoFactorEnabled: true }).where("id", "=", userId).execute();
}
