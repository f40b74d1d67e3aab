/** `create-admin <email>`: a platform administrator, through sign-up's own rules. */
import { APP_ADMIN_GROUP, GROUP_PRECEDENCE } from "../../../core/index.ts";
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from "../../auth/validation.ts";
import { BadInputError, ConflictError } from "../../errors.ts";
import { createUsersRepo } from "../../modules/users/users.repo.ts";
import type { Runtime } from "../../runtime.ts";
import { type CliCommand, CliUsageError } from "../command.ts";
import {
  acceptablePassword,
  emailArgument,
  generatedPassword,
  noMorePositionals,
  operator,
  readStdin,
} from "../operator.ts";

/** A free username from the e-mail's local part (letters, digits, dots and underscores). */
async function freeUsername(runtime: Runtime, email: string): Promise<string> {
  let base = (email.split("@")[0] ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, "_")
    .slice(0, USERNAME_MAX_LENGTH - 4);
  if (base.length < USERNAME_MIN_LENGTH) base = `admin_${base}`.slice(0, USERNAME_MAX_LENGTH - 4);
  for (let n = 0; n < 50; n++) {
    const candidate = n === 0 ? base : `${base}${n + 1}`;
    const taken = await runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("username", "=", candidate)
      .executeTakeFirst();
    if (!taken) return candidate;
  }
  throw new CliUsageError("No free username derives from this e-mail address: give one with --username.");
}

function signUpMessage(error: unknown): string {
  const body = (error as { body?: { message?: unknown } }).body;
  if (typeof body?.message === "string" && body.message) return body.message;
  return error instanceof Error ? error.message : String(error);
}

export const createAdminCommand: CliCommand = {
  name: "create-admin",
  summary: "Create a platform administrator account (group app-admin)",
  usage: `Usage: npm run hub -- create-admin <email> [--name NAME] [--username NAME] [--password-stdin]

  Creates the account the way sign-up does (same fields and password rules), marks its e-mail
  address as confirmed and adds it to app-admin. The administrator enrols a second factor at the
  first sign-in, as every staff account does.

  --name NAME        the display name (default: the e-mail's local part)
  --username NAME    the sign-in name (default: derived from the e-mail address)
  --password-stdin   read the password from standard input; without it a strong password is
                     generated and printed once (with --json: in the "password" field)`,
  valueOptions: ["name", "username"],
  options: ["password-stdin"],
  async run(ctx, args) {
    const email = emailArgument(args);
    noMorePositionals(args, 1);
    const given = args.flags["password-stdin"] === true;
    const password = await acceptablePassword(given ? await readStdin() : generatedPassword());
    const runtime = await ctx.runtime();
    const db = runtime.database.db;
    if (await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst()) {
      throw new ConflictError(
        `An account with the e-mail ${email} already exists: add it to app-admin on /super-admin/users.`,
      );
    }
    const name = typeof args.flags.name === "string" ? args.flags.name : (email.split("@")[0] ?? email);
    const username =
      typeof args.flags.username === "string" ? args.flags.username : await freeUsername(runtime, email);
    try {
      await runtime.auth.api.signUpEmail({ body: { email, password, name, username } });
    } catch (error) {
      // Sign-up refused a field (the username, the name): its own message, exit 1.
      throw new BadInputError(signUpMessage(error), { cause: error });
    }
    const users = createUsersRepo(db);
    const user = await users.getByEmail(email);
    if (!user) throw new Error(`the account ${email} was not created`);
    await users.update(user.id, { emailVerified: true });
    // A hub started without the demo data has no staff groups yet: the first administrator makes it.
    await users.ensureGroups([{ name: APP_ADMIN_GROUP, precedence: GROUP_PRECEDENCE[APP_ADMIN_GROUP] }]);
    const { groups } = await runtime.services.usersAdmin.changeGroups(operator(runtime), user.id, {
      add: [APP_ADMIN_GROUP],
      note: "Platform administrator created on the command line",
    });
    ctx.out(`Created the platform administrator ${email} (username ${user.username ?? username}).`);
    if (!given) ctx.out(`Password (shown once, keep it safe): ${password}`);
    ctx.out("A second factor is enrolled at the first sign-in.");
    return {
      id: user.id,
      email,
      username: user.username ?? username,
      groups,
      ...(given ? {} : { password }),
    };
  },
};
