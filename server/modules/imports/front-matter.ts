/**
 * YAML front matter (`---` … `---` at the top of a Markdown file) and the small readings every
 * importer shares: slugs, dates, lists, titles.
 */
import { parse as parseYaml } from "yaml";

export class FrontMatterError extends Error {
  override name = "FrontMatterError";
}

export interface ParsedMarkdown {
  data: Record<string, unknown>;
  body: string;
}

/**
 * Splits `text` into its front matter (an object; empty without one) and body. Throws
 * FrontMatterError for unclosed or unreadable front matter, for TOML (`+++`), and for YAML that
 * is not a mapping.
 */
export function parseFrontMatter(text: string): ParsedMarkdown {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (source.startsWith("+++\n")) {
    throw new FrontMatterError("TOML front matter (+++) is not read: write it as YAML between --- lines");
  }
  if (!/^---[ \t]*\n/.test(source)) return { data: {}, body: source };
  const rest = source.slice(source.indexOf("\n") + 1);
  const end = /^(?:---|\.\.\.)[ \t]*$/m.exec(rest);
  if (!end) throw new FrontMatterError("front matter is not closed: add a line with --- after it");
  const yamlText = rest.slice(0, end.index);
  let data: unknown;
  try {
    data = parseYaml(yamlText, { prettyErrors: true }) ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new FrontMatterError(`front matter is not valid YAML: ${message}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new FrontMatterError("front matter must be a mapping of keys to values");
  }
  const body = rest.slice(end.index + end[0].length).replace(/^\n/, "");
  return { data: data as Record<string, unknown>, body };
}

/** A slug in the content rule's form (lowercase letters, digits, single hyphens), or "" for none. */
export function slugify(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200)
    .replace(/-+$/g, "");
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** "getting-started_now" → "Getting started now". */
export function humanize(name: string): string {
  const words = name
    .replace(/^\d+[-_.\s]+/, "")
    .replace(/[-_]+/g, " ")
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/** A trimmed non-empty string, else null. */
export function text(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/** A list of strings from a YAML list or a comma-separated string. */
export function stringList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return items.flatMap((v) => {
    const t = text(v);
    return t ? [t] : [];
  });
}

/** A date (YAML timestamp, ISO string, "2024-01-02 10:00") as ISO-8601; undefined when absent, null when unreadable. */
export function isoDate(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value.trim()) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  return date.toISOString();
}

/** The first `# Heading` of a Markdown body. */
export function firstHeading(body: string): string | null {
  const m = /^#\s+(.+?)\s*#*\s*$/m.exec(body);
  return m ? m[1]!.trim() : null;
}
