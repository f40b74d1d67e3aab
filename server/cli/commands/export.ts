/** `export`: the whole library as Markdown files with front matter, or as one JSON document. */
import path from "node:path";
import { exportJson, exportMarkdown } from "../../modules/exports/library-export.ts";
import { type CliCommand, CliUsageError } from "../command.ts";
import { noMorePositionals } from "../operator.ts";

export const exportCommand: CliCommand = {
  name: "export",
  summary: "Export the whole library as Markdown files or one JSON document",
  usage: `Usage: npm run hub -- export [--format markdown|json] [--out DIR]

  Every content item, whatever its status or tier, with its body as stored:
  - markdown (default): one file per item, DIR/<section>/<slug>.md, YAML front matter (title, slug,
    type, section, category, tier, status, summary, tags, author, date, updated, draft, image,
    imageAlt, ogImage, media) then the body; the Markdown importer reads these files back;
  - json: DIR/library.json, { format, version, exportedAt, categories, items }.

  --format F   markdown or json (default: markdown)
  --out DIR    a new or empty folder (default: ./exports/lumen-hub-<UTC time>)`,
  valueOptions: ["format", "out"],
  async run(ctx, args) {
    noMorePositionals(args, 0);
    const format = typeof args.flags.format === "string" ? args.flags.format.toLowerCase() : "markdown";
    if (format !== "markdown" && format !== "json") {
      throw new CliUsageError(`--format is markdown or json, not "${args.flags.format}".`);
    }
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    const dir = path.resolve(
      typeof args.flags.out === "string" ? args.flags.out : path.join("exports", `lumen-hub-${stamp}`),
    );
    const runtime = await ctx.runtime();
    const deps = { db: runtime.database.db, storage: runtime.storage };
    const progress = (done: number, total: number) => ctx.progress("Exporting", done, total);
    const summary =
      format === "json"
        ? await exportJson(deps, dir, { progress })
        : await exportMarkdown(deps, dir, { progress });
    const statuses = Object.entries(summary.statuses)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ");
    ctx.out(`Exported ${summary.items} items (${statuses || "none"}) to ${summary.path}`);
    if (summary.missingBodies.length > 0) {
      ctx.out(
        `  warning: ${summary.missingBodies.length} item(s) name a body storage does not have, exported without it: ${summary.missingBodies.slice(0, 5).join(", ")}`,
      );
    }
    return summary;
  },
};
