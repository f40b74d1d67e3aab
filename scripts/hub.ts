/**
 * `npm run hub -- <command> [arguments] [--json] [--help]`: the operator's command line
 * (decision 035; the commands are in server/cli/commands/). Exit codes: 0 done, 1 failed,
 * 2 wrong usage, 3 nothing matched.
 */
import { COMMANDS } from "../server/cli/commands/index.ts";
import { runCli } from "../server/cli/run.ts";

const code = await runCli(process.argv.slice(2), COMMANDS, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
// Everything is closed; a lingering handle (a pool's idle timer) must not keep the process up.
process.stdout.write("", () => process.exit(code));
