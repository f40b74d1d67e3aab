/**
 * Content imports (decision 036): a Ghost JSON export or a folder of Markdown files, read into a
 * plan and applied by the engine (`import-engine.ts`). The command line's `import` command calls
 * `importContent`; tests call it directly.
 */
import { stat } from "node:fs/promises";
import { APP_OWNER_GROUP, parseTier, TIERS, type Tier } from "../../../core/index.ts";
import { isSectionSlug, SECTIONS } from "../content/sections.ts";
import { GhostExportError, type PlanPrice, parseTierMap, readGhostExport } from "./ghost.ts";
import type { ImportReport, ImportSource } from "./import.types.ts";
import { type ImportDeps, runImport } from "./import-engine.ts";
import { readMarkdownFolder } from "./markdown-folder.ts";

export type { ImportReport } from "./import.types.ts";
export type { ImportDeps } from "./import-engine.ts";

/** The request is wrong (an option, a file that is not an export): nothing was read or written. */
export class ImportInputError extends Error {
  override name = "ImportInputError";
}

/** Something the request names does not exist (the path, the author). */
export class ImportNotFoundError extends Error {
  override name = "ImportNotFoundError";
}

export interface ImportRequest {
  source: ImportSource;
  /** The export file (ghost) or the folder (markdown). */
  path: string;
  dryRun?: boolean;
  /** Ghost's content/images folder. */
  images?: string | null;
  /** The section of items that name none. */
  section?: string | null;
  /** Markdown: the tier of files that name none. */
  tier?: string | null;
  /** The e-mail address of the author of items that name none (default: the platform owner). */
  author?: string | null;
  /** Ghost: `ghost-tier=tier,…`. */
  tierMap?: string | null;
  /** Where the run came from, for the audit log. */
  via?: string;
  progress?: (label: string, done: number, total: number | null) => void;
}

async function kindOf(file: string): Promise<"file" | "dir" | null> {
  try {
    const info = await stat(file);
    return info.isDirectory() ? "dir" : info.isFile() ? "file" : null;
  } catch {
    return null;
  }
}

export async function importContent(deps: ImportDeps, request: ImportRequest): Promise<ImportReport> {
  const { db } = deps;
  const section = request.section?.trim() || null;
  if (section && !isSectionSlug(section)) {
    throw new ImportInputError(
      `--section: unknown section “${section}” (expected one of ${SECTIONS.map((s) => s.slug).join(", ")})`,
    );
  }
  let tier: Tier | null = null;
  if (request.tier) {
    tier = parseTier(request.tier);
    if (!tier)
      throw new ImportInputError(
        `--tier: unknown tier “${request.tier}” (expected one of ${TIERS.join(", ")})`,
      );
  }
  const found = await kindOf(request.path);
  if (!found) throw new ImportNotFoundError(`${request.path}: no such file or folder`);

  // The default author: the one named, else the platform owner.
  let author: { id: string; email: string } | undefined;
  if (request.author) {
    const email = request.author.trim().toLowerCase();
    author = await db
      .selectFrom("user")
      .select(["id", "email"])
      .where("email", "=", email)
      .executeTakeFirst();
    if (!author) throw new ImportNotFoundError(`--author: no user has the e-mail address ${request.author}`);
  } else {
    author = await db
      .selectFrom("user")
      .innerJoin("user_group", "user_group.userId", "user.id")
      .select(["user.id as id", "user.email as email"])
      .where("user_group.groupName", "=", APP_OWNER_GROUP)
      .orderBy("user.createdAt")
      .orderBy("user.id")
      .executeTakeFirst();
    if (!author)
      throw new ImportInputError("no platform owner to be the author: name one with --author EMAIL");
  }

  let plan: Awaited<ReturnType<typeof readMarkdownFolder>>;
  if (request.source === "ghost") {
    if (found !== "file") throw new ImportInputError(`${request.path}: a Ghost export is a .json file`);
    if (request.images && (await kindOf(request.images)) !== "dir") {
      throw new ImportNotFoundError(`--images: ${request.images} is not a folder`);
    }
    const plans: PlanPrice[] = (
      await db
        .selectFrom("plan")
        .select(["tier", "monthlyPriceCents", "currency"])
        .where("archivedAt", "is", null)
        .where("kind", "=", "individual")
        .execute()
    ).flatMap((p) => {
      const t = parseTier(p.tier);
      return t ? [{ tier: t, monthlyPriceCents: Number(p.monthlyPriceCents), currency: p.currency }] : [];
    });
    try {
      plan = await readGhostExport(request.path, {
        images: request.images ?? null,
        tierMap: parseTierMap(request.tierMap),
        section,
        plans,
      });
    } catch (error) {
      if (error instanceof GhostExportError) throw new ImportInputError(error.message);
      throw error;
    }
  } else {
    if (found !== "dir") throw new ImportInputError(`${request.path}: a Markdown import reads a folder`);
    if (request.tierMap) throw new ImportInputError("--tier-map is for Ghost imports");
    plan = await readMarkdownFolder(request.path, { section, tier, author: request.author ?? null });
  }
  return runImport(deps, plan, {
    dryRun: request.dryRun === true,
    defaultAuthorId: author.id,
    via: request.via ?? "cli",
    progress: request.progress,
  });
}
