/**
 * `import <ghost|markdown> <path>`: content from a Ghost JSON export or a folder of Markdown files
 * (decision 036, `server/modules/imports/`). The value is the report (created / updated /
 * unchanged / skipped per item, with reasons); `--dry-run` changes nothing.
 */
import {
  ImportInputError,
  ImportNotFoundError,
  type ImportReport,
  importContent,
} from "../../modules/imports/imports.service.ts";
import {
  type CliArgs,
  type CliCommand,
  type CliContext,
  CliNotFoundError,
  CliUsageError,
} from "../command.ts";

const VALUE_OPTIONS = ["images", "section", "tier", "author", "tier-map"];

function value(args: CliArgs, name: string): string | null {
  const v = args.flags[name];
  if (v === undefined) return null;
  if (typeof v !== "string" || v.trim() === "") throw new CliUsageError(`--${name} needs a value`);
  return v;
}

function printReport(ctx: CliContext, report: ImportReport): void {
  for (const entry of report.entries) {
    const name = entry.name && entry.name !== entry.source ? ` → ${entry.name}` : "";
    const reason = entry.reason ? `: ${entry.reason}` : "";
    ctx.out(`${entry.action.padEnd(9)} ${entry.kind.padEnd(8)} ${entry.source}${name}${reason}`);
    for (const warning of entry.warnings ?? []) ctx.out(`          warning: ${warning}`);
  }
  const { created, updated, unchanged, skipped } = report.summary;
  ctx.out(
    `${report.dryRun ? "Dry run (nothing changed): would create" : "Created"} ${created}, ${report.dryRun ? "update" : "updated"} ${updated}, unchanged ${unchanged}, skipped ${skipped}.`,
  );
}

export const importCommand: CliCommand = {
  name: "import",
  summary: "Import content from a Ghost export or a folder of Markdown files",
  usage: [
    "import <ghost|markdown> <path> [--dry-run] [--images DIR] [--section S] [--tier T] [--author EMAIL] [--tier-map a=b,...]",
    "",
    "  ghost <export.json>    posts, pages, tags, authors, members and tiers of a Ghost JSON export",
    "  markdown <folder>      .md/.mdx files with YAML front matter (Hugo, Jekyll, Docusaurus, this hub's export)",
    "",
    "  --dry-run              report what would change; change nothing",
    "  --images DIR           Ghost's content/images folder (feature images and images in posts)",
    "  --section S            the section of items that name none (e.g. documentation)",
    "  --tier T               Markdown: the tier of files that name none (Free, Basic, Pro, Enterprise)",
    "  --author EMAIL         the author of items that name none (default: the platform owner)",
    "  --tier-map a=b,...     Ghost: map Ghost tiers (slug or name) to tiers here, e.g. gold=pro",
    "",
    "Running the same import again updates what changed and leaves the rest as it is.",
  ].join("\n"),
  valueOptions: VALUE_OPTIONS,
  options: ["dry-run", ...VALUE_OPTIONS],

  async run(ctx: CliContext, args: CliArgs): Promise<ImportReport> {
    const [source, target, ...extra] = args.positional;
    if (source !== "ghost" && source !== "markdown") {
      throw new CliUsageError(
        source
          ? `unknown import source “${source}” (expected ghost or markdown)`
          : "name a source: ghost or markdown",
      );
    }
    if (!target)
      throw new CliUsageError(`name the ${source === "ghost" ? "export file" : "folder"} to import`);
    if (extra.length) throw new CliUsageError(`unexpected argument “${extra[0]}”`);
    const dryRun = args.flags["dry-run"];
    if (dryRun !== undefined && dryRun !== true) throw new CliUsageError("--dry-run takes no value");
    const images = value(args, "images");
    if (images && source !== "ghost") throw new CliUsageError("--images is for Ghost imports");
    const runtime = await ctx.runtime();
    try {
      const report = await importContent(
        {
          db: runtime.database.db,
          contents: runtime.services.content,
          media: runtime.services.contentModels.media,
        },
        {
          source,
          path: target,
          dryRun: dryRun === true,
          images,
          section: value(args, "section"),
          tier: value(args, "tier"),
          author: value(args, "author"),
          tierMap: value(args, "tier-map"),
          via: "cli",
          progress: (label, done, total) => ctx.progress(label, done, total),
        },
      );
      if (!report.dryRun) await runtime.contentChanges.check();
      printReport(ctx, report);
      return report;
    } catch (error) {
      if (error instanceof ImportInputError) throw new CliUsageError(error.message);
      if (error instanceof ImportNotFoundError) throw new CliNotFoundError(error.message);
      throw error;
    }
  },
};
