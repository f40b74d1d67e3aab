/** The commands of `npm run hub`, in the order `--help` lists them. */
import type { CliCommand } from "../command.ts";
import { backupCommand } from "./backup.ts";
import { createAdminCommand } from "./create-admin.ts";
import { exportCommand } from "./export.ts";
import { grantPlanCommand } from "./grant-plan.ts";
import * as importModule from "./import.ts";
import { reindexCommand } from "./reindex.ts";
import { resetPasswordCommand } from "./reset-password.ts";
import { syncRepositoriesCommand } from "./sync-repositories.ts";
import { unlockCommand } from "./unlock.ts";

const isCommand = (value: unknown): value is CliCommand =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as CliCommand).name === "string" &&
  typeof (value as CliCommand).run === "function";

/** The import command, whichever name its module exports it under. */
const importCommands = Object.values(importModule as Record<string, unknown>).filter(isCommand);

export const COMMANDS: readonly CliCommand[] = [
  createAdminCommand,
  resetPasswordCommand,
  unlockCommand,
  grantPlanCommand,
  exportCommand,
  ...importCommands,
  reindexCommand,
  syncRepositoriesCommand,
  backupCommand,
];
