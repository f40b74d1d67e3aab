/** `import`: provided by the importers; this build has none. */
import { type CliCommand, CliUsageError } from "../command.ts";

export const importCommand: CliCommand = {
  name: "import",
  summary: "Import content (not available in this build)",
  usage: "Usage: npm run hub -- import …",
  async run() {
    throw new CliUsageError("import: not available in this build");
  },
};
