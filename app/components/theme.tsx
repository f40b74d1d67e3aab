import { Monitor, Moon, Sun } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { DEFAULT_THEME, parseTheme, THEME_STORAGE_KEY, type Theme } from "../../core/index.ts";
import { SIDEBAR_STORAGE_KEY } from "../lib/sidebar-state.ts";
import { cx } from "./ui/cx.ts";

/**
 * Runs inline in <head> before the body paints: applies the stored theme (default 'system', which
 * follows prefers-color-scheme) as `class="dark"` on <html>, and the stored sidebar state as
 * `data-sidebar`, so neither flashes. Kept tiny and dependency-free.
 */
export function themeBootstrapScript(): string {
  const key = JSON.stringify(THEME_STORAGE_KEY);
  const sidebarKey = JSON.stringify(SIDEBAR_STORAGE_KEY);
  const fallback = JSON.stringify(DEFAULT_THEME);
  return `(function(){var d=document.documentElement;try{var t=localStorage.getItem(${key});if(t!=="light"&&t!=="dark"&&t!=="system")t=${fallback};var k=t==="dark"||(t==="system"&&window.matchMedia("(prefers-color-scheme: dark)").matches);d.classList.toggle("dark",k);d.style.colorScheme=k?"dark":"light";d.setAttribute("data-theme",t);if(localStorage.getItem(${sidebarKey})==="collapsed")d.setAttribute("data-sidebar","collapsed");}catch(e){}})();`;
}

interface ThemeValue {
  theme: Theme;
  resolved: "light" | "dark";
  setTheme: (theme: Theme) => void;
}

const ThemeContext = createContext<ThemeValue | null>(null);

function systemPrefersDark(): boolean {
  return (
    typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches === true
  );
}

function applyTheme(theme: Theme) {
  const dark = theme === "dark" || (theme === "system" && systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
  root.setAttribute("data-theme", theme);
  return dark ? "dark" : "light";
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(DEFAULT_THEME);
  const [resolved, setResolved] = useState<"light" | "dark">("light");

  useEffect(() => {
    let stored: Theme = DEFAULT_THEME;
    try {
      stored = parseTheme(window.localStorage.getItem(THEME_STORAGE_KEY));
    } catch {
      // storage unavailable (private mode): keep the default
    }
    setThemeState(stored);
    setResolved(applyTheme(stored));
  }, []);

  useEffect(() => {
    if (theme !== "system") return;
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => setResolved(applyTheme("system"));
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [theme]);

  const setTheme = useCallback((next: Theme) => {
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // not persisted, still applied
    }
    setThemeState(next);
    setResolved(applyTheme(next));
  }, []);

  const value = useMemo(() => ({ theme, resolved, setTheme }), [theme, resolved, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useTheme must be used within a ThemeProvider");
  return value;
}

const OPTIONS: Array<{ value: Theme; label: string; Icon: typeof Sun }> = [
  { value: "light", label: "Light theme", Icon: Sun },
  { value: "dark", label: "Dark theme", Icon: Moon },
  { value: "system", label: "System theme", Icon: Monitor },
];

/** Light / dark / system as a small segmented control (radio-like buttons with aria-pressed). */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, setTheme } = useTheme();
  return (
    <fieldset
      className={cx(
        "inline-flex items-center gap-0.5 rounded-lg border border-line bg-sunken p-0.5",
        className,
      )}
    >
      <legend className="sr-only">Colour theme</legend>
      {OPTIONS.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          title={label}
          aria-label={label}
          aria-pressed={theme === value}
          onClick={() => setTheme(value)}
          className={cx(
            "inline-flex size-7 items-center justify-center rounded-md transition-colors",
            theme === value
              ? "bg-elevated text-ink shadow-sm dark:bg-zinc-700"
              : "text-ink-subtle hover:text-ink",
          )}
        >
          <Icon aria-hidden="true" className="size-3.5" />
        </button>
      ))}
    </fieldset>
  );
}
