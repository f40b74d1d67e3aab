/** `unlock <email>`: clears a sign-in lockout, as the administrators' screen does. */
import type { CliCommand } from "../command.ts";
import { emailArgument, noMorePositionals, operator, userByEmail } from "../operator.ts";

export const unlockCommand: CliCommand = {
  name: "unlock",
  summary: "Clear the sign-in lockout of an account",
  usage: `Usage: npm run hub -- unlock <email> [--note TEXT]

  Clears the lockout after failed sign-ins (the "Unlock" of /super-admin/users).

  --note TEXT   a note for the audit log`,
  valueOptions: ["note"],
  async run(ctx, args) {
    const email = emailArgument(args);
    noMorePositionals(args, 1);
    const runtime = await ctx.runtime();
    const user = await userByEmail(runtime, email);
    const note = typeof args.flags.note === "string" ? args.flags.note : "";
    const result = await runtime.services.usersAdmin.unlock(operator(runtime), user.id, { note }, null);
    ctx.out(result.unlocked ? `Unlocked ${email}.` : `${email} was not locked; nothing to clear.`);
    return { id: user.id, email, unlocked: result.unlocked };
  },
};
