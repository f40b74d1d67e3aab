/**
 * The structured-data box: JSON-LD as typed, checked on every keystroke. It must be one object or
 * a list of at most 50 objects (the server's rule); a syntax error is reported with its line,
 * column and reason.
 */
import { findJsonProblem } from "./json-position.ts";

export type StructuredDataCheck =
  | { ok: true; value: Record<string, unknown> | Record<string, unknown>[] | null }
  | { ok: false; message: string; line: number | null; column: number | null };

export const STRUCTURED_DATA_MAX_ITEMS = 50;

/** Line and column (1-based) of a character offset in `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

function syntaxError(text: string): StructuredDataCheck {
  const problem = findJsonProblem(text) ?? { offset: text.length, reason: "this is not valid JSON" };
  const { line, column } = lineColumnAt(text, problem.offset);
  return { ok: false, message: `Line ${line}, column ${column}: ${problem.reason}.`, line, column };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function checkStructuredData(text: string): StructuredDataCheck {
  if (text.trim() === "") return { ok: true, value: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return syntaxError(text);
  }
  const shape = (message: string): StructuredDataCheck => ({ ok: false, message, line: null, column: null });
  if (isObject(parsed)) return { ok: true, value: parsed };
  if (!Array.isArray(parsed)) return shape("Structured data must be a JSON object or a list of objects.");
  if (parsed.length > STRUCTURED_DATA_MAX_ITEMS) {
    return shape(`Structured data may hold at most ${STRUCTURED_DATA_MAX_ITEMS} objects.`);
  }
  const bad = parsed.findIndex((v) => !isObject(v));
  if (bad !== -1) return shape(`Item ${bad + 1} of the list is not a JSON object.`);
  return { ok: true, value: parsed as Record<string, unknown>[] };
}

/** The stored value as the box shows it: pretty JSON, "" when there is none. */
export function structuredDataText(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value, null, 2);
}
