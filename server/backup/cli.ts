/** The small command-line helpers of `npm run backup`, `restore` and `db:rehearse`. */

/** `--flag` switches (only the known ones) and positional arguments; exits 2 on an unknown flag. */
export function cliArgs<F extends string>(
  argv: string[],
  known: readonly F[],
  usage: string,
): { positional: string[]; flags: Record<F, boolean> } {
  const flags = Object.fromEntries(known.map((k) => [k, false])) as Record<F, boolean>;
  const positional: string[] = [];
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(`Usage: ${usage}\n`);
      process.exit(0);
    }
    if (arg.startsWith("--")) {
      const name = arg.slice(2) as F;
      if (!known.includes(name)) {
        process.stderr.write(`Unknown option ${arg}.\nUsage: ${usage}\n`);
        process.exit(2);
      }
      flags[name] = true;
    } else positional.push(arg);
  }
  return { positional, flags };
}

/** Progress on standard error: one line per step, counts updated in place on a terminal. */
export function progressLine(step: string, done?: number, total?: number): void {
  const tty = process.stderr.isTTY;
  if (done === undefined) process.stderr.write(`${tty ? "\r\x1b[K" : ""}${step}…${tty ? "" : "\n"}`);
  else if (tty) process.stderr.write(`\r\x1b[K${step} ${done}/${total}`);
  else if (done === total) process.stderr.write(`${step} ${done}/${total}\n`);
  if (tty && done !== undefined && done === total) process.stderr.write("\n");
}

/** Prints an expected failure as one line (exit 1); anything else with its stack. */
export function fail(error: unknown, expected: new (...args: never[]) => Error): never {
  if (process.stderr.isTTY) process.stderr.write("\n");
  if (error instanceof expected) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
