/** The commands of `npm run hub`, in the order `--help` lists them. */
import type { CliCommand } from "../command.ts";
import { backupCommand } from "./backup.ts";
import { createAdminCommand } from "./create-admin.ts";
import { exportCommand } from "./export.ts";
import { grantPlanCommand } from "./grant-plan.ts";
import { importCommand } from "./import.ts";
import { reindexCommand } from "./reindex.ts";
import { resetPasswordCommand } from "./reset-password.ts";
import { syncRepositoriesCommand } from "./sync-repositories.ts";
import { unlockCommand } from "./unlock.ts";

export const COMMANDS: readonly CliCommand[] = [
  createAdminCommand,
  resetPasswordCommand,
  unlockCommand,
  grantPlanCommand,
  exportCommand,
  importCommand,
  reindexCommand,
  syncRepositoriesCommand,
  backupCommand,
];
