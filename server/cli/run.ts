/**
 * The runner of the operator's command line (`npm run hub -- <command> [options]`, decision 035):
 * splits the arguments, answers `--help`, builds the runtime only for the commands that ask for
 * it (with its scheduled jobs stopped at once: the command line never runs background work) and
 * closes it at the end, prints the result and maps errors to the exit codes of `command.ts`.
 */
import { Writable } from "node:stream";
import type { Logger } from "pino";
import { type Env, parseEnv } from "../env.ts";
import { isAppError } from "../errors.ts";
import { createAppLogger } from "../logging.ts";
import type { Runtime } from "../runtime.ts";
import {
  type CliArgs,
  type CliCommand,
  type CliContext,
  CliNotFoundError,
  CliUsageError,
} from "./command.ts";

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_NOT_FOUND = 3;

/** Where the command line reads and writes; tests pass their own. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  /** The environment the hub is configured by (DATA_DIR, DATABASE_URL, …). */
  env: Record<string, string | undefined>;
  /** Builds the runtime (default: `createRuntime` without the demo seed). */
  createRuntime?: (env: Env, logger: Logger) => Promise<Runtime>;
}

const GLOBAL_OPTIONS = ["json", "help"];

/** Splits `argv` (after the command name) by the command's declared options. */
export function parseArgs(command: CliCommand, argv: readonly string[]): CliArgs & { help: boolean } {
  const valueOptions = new Set(command.valueOptions ?? []);
  const known = new Set([...(command.options ?? []), ...valueOptions, ...GLOBAL_OPTIONS]);
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") throw new CliUsageError(`Unknown option ${arg}.`);
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!known.has(name)) throw new CliUsageError(`Unknown option --${name}.`);
    if (name === "help") {
      help = true;
      continue;
    }
    // --json is the context's (`ctx.json`), not a command's flag.
    if (name === "json") {
      if (eq !== -1) throw new CliUsageError("--json takes no value.");
      continue;
    }
    if (valueOptions.has(name)) {
      let value: string | undefined;
      if (eq !== -1) value = arg.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) value = argv[++i];
      if (value === undefined || value === "") throw new CliUsageError(`--${name} needs a value.`);
      if (name in flags) throw new CliUsageError(`--${name} is given twice.`);
      flags[name] = value;
    } else {
      if (eq !== -1) throw new CliUsageError(`--${name} takes no value.`);
      flags[name] = true;
    }
  }
  return { positional, flags, help };
}

/** The overview `npm run hub -- --help` prints. */
export function hubHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "Usage: npm run hub -- <command> [arguments] [options]",
    "",
    "The operator's command line of Lumen Hub: it works on the hub that the environment names",
    "(DATA_DIR, DATABASE_URL, STORAGE_URL, …), as the installation's operator.",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Options of every command:",
    "  --json   print the result as JSON on stdout (no other output there)",
    "  --help   show the command's usage",
    "",
    "Exit codes: 0 done, 1 failed (refused or broke), 2 wrong usage, 3 nothing matched (e.g. no such user).",
    "",
  ].join("\n");
}

function commandHelp(command: CliCommand): string {
  return `${command.summary}\n\n${command.usage.trimEnd()}\n\nEvery command also takes --json and --help.\n`;
}

/**
 * A progress reporter: a bar redrawn in place on a terminal (at most every 50 ms), otherwise a
 * plain line per step: when a step starts, at every tenth of its work and when it ends.
 */
export function createProgress(stderr: CliIo["stderr"], now: () => number = Date.now) {
  const tty = stderr.isTTY === true;
  let open = false;
  let label = "";
  let lastDraw = 0;
  let lastTenth = -1;
  const line = (done: number, total: number | null) =>
    total === null ? (done > 0 ? `${label} ${done}` : `${label}…`) : `${label} ${done}/${total}`;
  return {
    report(step: string, done: number, total: number | null) {
      const fresh = step !== label;
      if (fresh) {
        if (open) stderr.write("\n");
        open = false;
        label = step;
        lastTenth = -1;
      }
      const finished = total !== null && done >= total;
      if (tty) {
        if (!fresh && !finished && now() - lastDraw < 50) return;
        lastDraw = now();
        const columns = Math.max(40, Math.min(stderr.columns ?? 80, 120));
        const count = line(done, total).slice(step.length + 1);
        let bar = "";
        if (total !== null && total > 0) {
          const size = Math.max(10, columns - step.length - count.length - 6);
          const filled = Math.min(size, Math.round((done / total) * size));
          bar = ` [${"#".repeat(filled)}${".".repeat(size - filled)}]`;
        }
        stderr.write(`\r\x1b[K${step}${bar} ${count}`);
        open = !finished;
        if (finished) stderr.write("\n");
        return;
      }
      const tenth = total === null || total === 0 ? done : Math.floor((done * 10) / total);
      if (!fresh && !finished && tenth === lastTenth) return;
      if (!fresh && finished && lastTenth === 10) return;
      lastTenth = finished ? 10 : tenth;
      stderr.write(`${line(done, total)}\n`);
    },
    /** Ends a bar left open (before an error or the result). */
    finish() {
      if (open) stderr.write("\n");
      open = false;
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A logger on stderr (stdout stays the command's), quiet unless LOG_LEVEL asks for more. */
function cliLogger(env: Record<string, string | undefined>, stderr: CliIo["stderr"]): Logger {
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      stderr.write(String(chunk));
      callback();
    },
  });
  return createAppLogger(env.LOG_LEVEL || "warn", destination);
}

async function defaultCreateRuntime(env: Env, logger: Logger): Promise<Runtime> {
  const { createRuntime } = await import("../runtime.ts");
  return createRuntime(env, { seed: false, logger });
}

/**
 * Runs one command line (`argv` without `node scripts/hub.ts`) and answers its exit code. Never
 * exits the process itself.
 */
export async function runCli(
  argv: readonly string[],
  commands: readonly CliCommand[],
  io: CliIo,
): Promise<number> {
  const { stdout, stderr } = io;
  const first = argv.findIndex((a) => !a.startsWith("-"));
  const name = first === -1 ? undefined : argv[first];
  const before = first === -1 ? argv : argv.slice(0, first);
  const json = argv.includes("--json");
  if (name === undefined) {
    const unknown = before.find((a) => !["--help", "-h", "--json"].includes(a));
    if (unknown || !(before.includes("--help") || before.includes("-h"))) {
      stderr.write(`${unknown ? `Unknown option ${unknown}.\n` : "Name a command.\n"}\n${hubHelp(commands)}`);
      return EXIT_USAGE;
    }
    stdout.write(hubHelp(commands));
    return EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    stderr.write(`Unknown command "${name}".\n\n${hubHelp(commands)}`);
    return EXIT_USAGE;
  }
  const wrongUsage = (message: string) => {
    if (json) stdout.write(`${JSON.stringify({ error: { code: "USAGE", message } })}\n`);
    stderr.write(`${message}\n\n${command.usage.trimEnd()}\n`);
    return EXIT_USAGE;
  };
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(command, [...before, ...argv.slice(first + 1)]);
  } catch (error) {
    if (error instanceof CliUsageError) return wrongUsage(error.message);
    throw error;
  }
  if (args.help) {
    stdout.write(commandHelp(command));
    return EXIT_OK;
  }

  const progress = createProgress(stderr);
  const built: { runtime: Promise<Runtime> | null } = { runtime: null };
  const ctx: CliContext = {
    json,
    runtime() {
      built.runtime ??= (async () => {
        const env = parseEnv(io.env);
        const logger = cliLogger(io.env, stderr);
        const runtime = await (io.createRuntime ?? defaultCreateRuntime)(env, logger);
        // The command line does its one piece of work: no scheduled jobs, sweeps or syncs.
        await runtime.stopBackground();
        return runtime;
      })();
      return built.runtime;
    },
    out(line) {
      if (!json) stdout.write(`${line}\n`);
    },
    progress(label, done, total) {
      if (!json) progress.report(label, done, total);
    },
  };

  let code = EXIT_OK;
  try {
    const result = await command.run(ctx, { positional: args.positional, flags: args.flags });
    progress.finish();
    if (json) stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
  } catch (error) {
    progress.finish();
    if (error instanceof CliUsageError) code = wrongUsage(error.message);
    else {
      code = error instanceof CliNotFoundError ? EXIT_NOT_FOUND : EXIT_FAILED;
      const known = error instanceof CliNotFoundError || isAppError(error) || isExpected(error);
      const message = errorMessage(error);
      if (json) {
        const errorCode =
          error instanceof CliNotFoundError ? "NOT_FOUND" : isAppError(error) ? error.code : "FAILED";
        const field = isAppError(error) && error.field ? { field: error.field } : {};
        stdout.write(`${JSON.stringify({ error: { code: errorCode, message, ...field } })}\n`);
      }
      stderr.write(`${command.name}: ${message}\n`);
      if (!known && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
    }
  } finally {
    if (built.runtime) {
      try {
        await (await built.runtime).close();
      } catch (error) {
        // A runtime that never started has nothing to close.
        if (code === EXIT_OK) {
          stderr.write(`${command.name}: ${errorMessage(error)}\n`);
          code = EXIT_FAILED;
        }
      }
    }
  }
  return code;
}

const EXPECTED_ERRORS = new Set([
  "BackupError",
  "ExportError",
  "PasswordRefusedError",
  "ReindexFailedError",
  "SyncFailedError",
]);

/** Errors whose message is the whole story (named failures of modules, not programming errors). */
function isExpected(error: unknown): boolean {
  return error instanceof Error && EXPECTED_ERRORS.has(error.name);
}
