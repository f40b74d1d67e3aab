import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import {
  DEBUG_STORAGE_KEY,
  isDebugMode,
  isDebugToggleShortcut,
  toggledDebugFlag,
} from "../../../core/index.ts";

function readStoredFlag(): string | null {
  try {
    return window.localStorage.getItem(DEBUG_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function writeStoredFlag(flag: string | null) {
  try {
    if (flag === null) window.localStorage.removeItem(DEBUG_STORAGE_KEY);
    else window.localStorage.setItem(DEBUG_STORAGE_KEY, flag);
  } catch {
    // storage unavailable
  }
}

/**
 * Debug mode: on when the URL has debug=true (known on the server) or the stored flag is set (known
 * after hydration). Ctrl+Shift+D toggles the stored flag and reloads.
 */
export function useDebugMode(fromUrl: boolean): boolean {
  const location = useLocation();
  const [stored, setStored] = useState<string | null>(null);

  useEffect(() => {
    setStored(readStoredFlag());
    const onKey = (e: KeyboardEvent) => {
      if (!isDebugToggleShortcut(e)) return;
      e.preventDefault();
      writeStoredFlag(toggledDebugFlag(readStoredFlag()));
      window.location.reload();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return fromUrl || isDebugMode(location.search, stored);
}
