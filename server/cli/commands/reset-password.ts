/** `reset-password <email>`: a new password (the sign-up rules), every session of the account ended. */
import { createAuditRepo } from "../../modules/audit/audit.repo.ts";
import type { CliCommand } from "../command.ts";
import {
  acceptablePassword,
  emailArgument,
  generatedPassword,
  noMorePositionals,
  operator,
  readStdin,
  userByEmail,
} from "../operator.ts";

export const resetPasswordCommand: CliCommand = {
  name: "reset-password",
  summary: "Set a new password for an account and sign it out everywhere",
  usage: `Usage: npm run hub -- reset-password <email> [--password-stdin]

  Sets the password (refused, exit 1, when the sign-up rules refuse it) and revokes every session
  of the account, as the administrators' "sign out everywhere" does.

  --password-stdin   read the new password from standard input; without it a strong password is
                     generated and printed once (with --json: in the "password" field)`,
  options: ["password-stdin"],
  async run(ctx, args) {
    const email = emailArgument(args);
    noMorePositionals(args, 1);
    const given = args.flags["password-stdin"] === true;
    const password = await acceptablePassword(given ? await readStdin() : generatedPassword());
    const runtime = await ctx.runtime();
    const user = await userByEmail(runtime, email);
    const auth = await runtime.auth.$context;
    const hash = await auth.password.hash(password);
    if (await auth.internalAdapter.findCredentialAccount(user.id)) {
      await auth.internalAdapter.updatePassword(user.id, hash);
    } else {
      await auth.internalAdapter.createAccount({
        userId: user.id,
        providerId: "credential",
        accountId: user.id,
        password: hash,
      });
    }
    const actor = operator(runtime);
    await createAuditRepo(runtime.database.db).append({
      action: "password_reset",
      actorId: actor.userId,
      targetType: "user",
      targetId: user.id,
      details: { email: user.email, sessionsRevoked: true },
    });
    const { revoked } = await runtime.services.usersAdmin.revokeSessions(actor, user.id, null, {
      note: "Password reset on the command line",
    });
    ctx.out(`New password set for ${email}; ${revoked} session(s) revoked.`);
    if (!given) ctx.out(`Password (shown once, keep it safe): ${password}`);
    return { id: user.id, email, sessionsRevoked: revoked, ...(given ? {} : { password }) };
  },
};
