import { describe, expect, it } from "vitest";
import { keyLabel, SHORTCUTS, shortcutFor } from "./shortcuts.ts";

const press = (
  code: string,
  mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {},
) => ({
  key: code.replace(/^Key|^Digit/, ""),
  code,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  shiftKey: mods.shift ?? false,
  altKey: mods.alt ?? false,
});

describe("shortcuts", () => {
  it("are unique", () => {
    expect(new Set(SHORTCUTS.map((s) => s.key)).size).toBe(SHORTCUTS.length);
  });

  it("match Ctrl on other systems and ⌘ on Apple ones", () => {
    expect(shortcutFor(press("KeyS", { ctrl: true }), false)?.action).toBe("save");
    expect(shortcutFor(press("KeyS", { meta: true }), true)?.action).toBe("save");
    expect(shortcutFor(press("KeyS", { meta: true }), false)).toBeNull();
    expect(shortcutFor(press("KeyB"), false)).toBeNull();
  });

  it("tell Shift and Alt apart and read digits by key position", () => {
    expect(shortcutFor(press("Digit8", { ctrl: true, shift: true }), false)?.action).toBe("bulletList");
    expect(shortcutFor(press("Digit8", { ctrl: true }), false)).toBeNull();
    expect(shortcutFor(press("KeyC", { ctrl: true, alt: true }), false)?.action).toBe("codeBlock");
  });

  it("are shown the way each system writes them", () => {
    expect(keyLabel("Mod-Shift-8", false)).toBe("Ctrl+Shift+8");
    expect(keyLabel("Mod-Shift-8", true)).toBe("⌘⇧8");
  });
});
