import { describe, expect, it } from "vitest";
import { applyMarkdownCommand, insertImage, type TextEdit, type TextState } from "./markdown-commands.ts";

/** The text after an edit, with the new selection marked by [ and ]. */
function run(edit: TextEdit, state: TextState): string {
  const text = state.text.slice(0, edit.from) + edit.insert + state.text.slice(edit.to);
  return `${text.slice(0, edit.selectFrom)}[${text.slice(edit.selectFrom, edit.selectTo)}]${text.slice(edit.selectTo)}`;
}
const at = (text: string, from: number, to = from): TextState => ({ text, from, to });

describe("markdown commands", () => {
  it("wraps and unwraps bold, italic and code", () => {
    expect(run(applyMarkdownCommand("bold", at("say hi", 4, 6)), at("say hi", 4, 6))).toBe("say **[hi]**");
    const wrapped = at("say **hi**", 6, 8);
    expect(run(applyMarkdownCommand("bold", wrapped), wrapped)).toBe("say [hi]");
    expect(run(applyMarkdownCommand("italic", at("", 0)), at("", 0))).toBe("_[italic text]_");
    expect(run(applyMarkdownCommand("code", at("x", 1)), at("x", 1))).toBe("x`[code]`");
  });

  it("marks where the public preview ends, on a line of its own", () => {
    const state = at("Intro paragraph.\nSecret part.", 16);
    expect(run(applyMarkdownCommand("previewMarker", state), state)).toBe(
      "Intro paragraph.\n\n<!-- more -->[]\nSecret part.",
    );
  });

  it("makes a link, selecting what to type next", () => {
    expect(run(applyMarkdownCommand("link", at("docs", 0, 4)), at("docs", 0, 4))).toBe("[docs]([https://])");
    expect(run(applyMarkdownCommand("link", at("", 0)), at("", 0))).toBe("[[link text]](https://)");
  });

  it("toggles line prefixes on every selected line", () => {
    const two = at("one\ntwo", 0, 7);
    expect(run(applyMarkdownCommand("bulletList", two), two)).toBe("[- one\n- two]");
    expect(run(applyMarkdownCommand("numberedList", two), two)).toBe("[1. one\n2. two]");
    const listed = at("- one\n- two", 0, 11);
    expect(run(applyMarkdownCommand("bulletList", listed), listed)).toBe("[one\ntwo]");
    expect(run(applyMarkdownCommand("heading", at("Title", 2)), at("Title", 2))).toBe("## Title[]");
    expect(run(applyMarkdownCommand("quote", at("a\nb", 2)), at("a\nb", 2))).toBe("a\n> b[]");
  });

  it("puts code blocks and tables on lines of their own", () => {
    const state = at("Intro", 5);
    expect(run(applyMarkdownCommand("codeBlock", state), state)).toBe("Intro\n\n```[ts]\ncode\n```\n");
    const table = at("", 0);
    expect(run(applyMarkdownCommand("table", table), table)).toBe(
      "| [Column] | Column |\n| ------ | ------ |\n| Cell   | Cell   |\n",
    );
  });

  it("inserts an image reference with its alt text selected", () => {
    expect(run(insertImage(at("a ", 2), "media:abc", "A [chart]"), at("a ", 2))).toBe(
      "a ![[A chart]](media:abc)",
    );
  });
});
