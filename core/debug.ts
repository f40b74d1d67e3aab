/**
 * Debug mode (spec §2 "Debug mode"): the debug page is chosen when the URL has debug=true or the
 * stored debug-mode flag is set; Ctrl+Shift+D toggles the flag (the UI then reloads).
 */

export const DEBUG_STORAGE_KEY = "lumen.debug-mode";
export const DEBUG_QUERY_PARAM = "debug";

/**
 * True when the query has debug=true (value compared case-insensitively after trimming) or the stored
 * flag is exactly "true". `search` may be a query string with or without the leading "?".
 */
export function isDebugMode(search: string | URLSearchParams, storedFlag: string | null): boolean {
  if (storedFlag === "true") return true;
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  return params.getAll(DEBUG_QUERY_PARAM).some((v) => v.trim().toLowerCase() === "true");
}

/** Ctrl+Shift+D, with the key compared case-insensitively (Shift usually makes it "D"). */
export function isDebugToggleShortcut(e: { ctrlKey: boolean; shiftKey: boolean; key: string }): boolean {
  return (
    e.ctrlKey === true && e.shiftKey === true && typeof e.key === "string" && e.key.toLowerCase() === "d"
  );
}

/** The stored flag after a toggle: "true" when debug mode was off, null (remove the key) when it was on. */
export function toggledDebugFlag(storedFlag: string | null): "true" | null {
  return storedFlag === "true" ? null : "true";
}
