/**
 * The shape of one command of the operator's command line (`npm run hub -- <command>`).
 *
 * A command parses nothing itself: the runner (`scripts/hub.ts`) splits the arguments into
 * positionals and `--flag`/`--flag=value` options, answers `--help`, builds the runtime only for
 * commands that need it, prints the result (`--json`: the value `run` returns, as JSON on stdout;
 * otherwise the lines the command wrote through `ctx.out`) and maps errors to exit codes:
 * 0 done, 1 failed (the operation refused or broke), 2 wrong usage (`CliUsageError`),
 * 3 nothing matched (`CliNotFoundError`, e.g. no such user).
 *
 * The command line acts as the operator of the installation (someone with the server's shell and
 * its environment): the platform owner's scope, audited as the system actor with `via: "cli"`.
 */
import type { Runtime } from "../runtime.ts";

export interface CliArgs {
  positional: string[];
  /** `--name` → true, `--name=value` or `--name value` (for declared value options) → the string. */
  flags: Record<string, string | boolean>;
}

export interface CliContext {
  /** The hub of the environment (database, storage, services), built on first use. */
  runtime(): Promise<Runtime>;
  /** True with `--json`: human lines and progress are suppressed, `run`'s value is printed. */
  json: boolean;
  /** A human line on stdout (dropped with `--json`). */
  out(line: string): void;
  /** Progress of long work on stderr (a bar on a terminal, dropped with `--json`). */
  progress(label: string, done: number, total: number | null): void;
}

export interface CliCommand {
  name: string;
  /** One line for `npm run hub -- --help`. */
  summary: string;
  /** The usage line(s) and options for `npm run hub -- <name> --help`. */
  usage: string;
  /** Options that take a value (`--plan pro`); every other option is a boolean switch. */
  valueOptions?: string[];
  /** Options the command accepts (besides --json and --help); anything else is a usage error. */
  options?: string[];
  run(ctx: CliContext, args: CliArgs): Promise<unknown>;
}

/** Wrong usage: exit code 2, the message and the command's usage on stderr. */
export class CliUsageError extends Error {
  override name = "CliUsageError";
}

/** Nothing matched what was named (a user, a file): exit code 3. */
export class CliNotFoundError extends Error {
  override name = "CliNotFoundError";
}
