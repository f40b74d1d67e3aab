/**
 * Structured outputs: the output must be a JSON object holding the listed keys, each of the
 * expected type. Catches the common failure of a model renaming or dropping a field.
 */

export type KeyType = "string" | "number" | "boolean" | "array" | "object";

export function checkJsonKeys(output: string, keys: Record<string, KeyType>): string | null {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return "not valid JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const record = value as Record<string, unknown>;
  for (const [key, type] of Object.entries(keys)) {
    if (!(key in record)) return `missing key "${key}"`;
    const actual = Array.isArray(record[key]) ? "array" : typeof record[key];
    if (actual !== type) return `key "${key}" is ${actual}, expected ${type}`;
  }
  return null;
}
