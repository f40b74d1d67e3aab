import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { diffLines, diffStats, foldUnchanged } from "./diff-lines.ts";
import { DiffView, fieldLabel } from "./diff-view.tsx";

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "\n")
    .replace(/&quot;/g, '"')
    .replace(/\n+/g, "\n")
    .trim();

describe("body diff rows", () => {
  it("splits chunks into numbered lines, marked + and −", () => {
    const rows = diffLines([
      { op: "same", text: "# Title\n" },
      { op: "remove", text: "old line\nsecond old\n" },
      { op: "add", text: "new line\n" },
      { op: "same", text: "end" },
    ]);
    expect(rows.map((r) => [r.marker, r.text, r.oldNo, r.newNo])).toEqual([
      [" ", "# Title", 1, 1],
      ["−", "old line", 2, null],
      ["−", "second old", 3, null],
      ["+", "new line", null, 2],
      [" ", "end", 4, 3],
    ]);
    expect(
      diffStats([
        { op: "add", text: "a\nb\n" },
        { op: "remove", text: "c" },
      ]),
    ).toEqual({
      added: 2,
      removed: 1,
    });
  });

  it("folds long unchanged runs away from the changes", () => {
    const same = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const rows = foldUnchanged(
      diffLines([
        { op: "same", text: `${same}\n` },
        { op: "add", text: "added" },
      ]),
      3,
    );
    expect(rows[0]).toEqual({ kind: "fold", count: 17 });
    expect(rows.slice(1).map((r) => (r.kind === "line" ? r.text : r.count))).toEqual([
      "line 18",
      "line 19",
      "line 20",
      "added",
    ]);
  });

  it("shows a single unchanged line rather than folding it", () => {
    const rows = foldUnchanged(
      diffLines([
        { op: "add", text: "a\n" },
        { op: "same", text: "1\n2\n3\n4\n5\n6\n7\n" },
        { op: "add", text: "b" },
      ]),
      3,
    );
    expect(rows.every((r) => r.kind === "line")).toBe(true);
  });
});

describe("DiffView", () => {
  it("renders changed fields as a table and body lines with +/− and spoken labels", () => {
    const html = renderToString(
      <DiffView
        diff={{
          from: 2,
          to: "current",
          fields: [{ field: "metaDescription", before: "Old text", after: "" }],
          body: [
            { op: "same", text: "kept\n" },
            { op: "remove", text: "gone\n" },
            { op: "add", text: "<b>arrived</b>\n" },
          ],
        }}
      />,
    );
    const out = text(html);
    expect(out).toContain("Changes from version 2 to the current version");
    expect(out).toContain("Meta description\nOld text\nempty");
    expect(out).toContain("−\nRemoved: \ngone");
    expect(out).toContain("+\nAdded: \n");
    // Body text is text, never markup.
    expect(html).toContain("&lt;b&gt;arrived&lt;/b&gt;");
    expect(out).toContain("1 line added, 1 line removed");
  });

  it("says when two versions are the same", () => {
    const html = renderToString(
      <DiffView diff={{ from: 1, to: 3, fields: [], body: [{ op: "same", text: "x" }] }} />,
    );
    expect(text(html)).toContain("The two versions are the same.");
  });

  it("names fields for people", () => {
    expect(fieldLabel("seoTitle")).toBe("SEO title");
    expect(fieldLabel("featured_image_alt")).toBe("Featured image alt");
  });
});
