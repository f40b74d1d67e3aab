/** What the commands share: the operator actor, users named by e-mail, passwords from stdin. */
import { randomBytes } from "node:crypto";
import { newPasswordProblem } from "../auth/password-policy.ts";
import { type Actor, operatorActor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";
import { type CliArgs, CliNotFoundError, CliUsageError } from "./command.ts";

/** The installation's operator: the platform owner's scope, audited as the system with via "cli". */
export function operator(runtime: Runtime): Actor {
  return operatorActor(runtime.env.NODE_ENV);
}

/** The one e-mail address a command names; a usage error when missing or not an address. */
export function emailArgument(args: CliArgs, position = 0): string {
  const email = args.positional[position]?.trim().toLowerCase();
  if (!email) throw new CliUsageError("Name the account by its e-mail address.");
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliUsageError(`"${email}" is not an e-mail address.`);
  return email;
}

/** Refuses positional arguments beyond `count`. */
export function noMorePositionals(args: CliArgs, count: number): void {
  const extra = args.positional.slice(count);
  if (extra.length) throw new CliUsageError(`Unexpected argument ${JSON.stringify(extra[0])}.`);
}

/** The account with this e-mail, or exit 3. */
export async function userByEmail(
  runtime: Runtime,
  email: string,
): Promise<{ id: string; email: string; name: string }> {
  const user = await runtime.database.db
    .selectFrom("user")
    .select(["id", "email", "name"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (!user) throw new CliNotFoundError(`There is no account with the e-mail ${email}.`);
  return user;
}

/** Standard input as text (the password of `--password-stdin`), without the final line break. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliUsageError("--password-stdin reads a pipe: echo … | npm run hub -- …");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** A password the sign-up rules accept (refused with their message, exit 1). */
export async function acceptablePassword(password: string): Promise<string> {
  const problem = await newPasswordProblem(password);
  if (problem) throw new PasswordRefusedError(problem);
  return password;
}

export class PasswordRefusedError extends Error {
  override name = "PasswordRefusedError";
}

/** A random password (24 characters of four kinds), printed once by the command that made it. */
export function generatedPassword(): string {
  const raw = randomBytes(18).toString("base64url");
  return `${raw.slice(0, 20)}-Aa7`;
}
