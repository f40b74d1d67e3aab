import { describe, expect, it } from "vitest";
import { checkStructuredData, lineColumnAt, structuredDataText } from "./structured-data.ts";

describe("checkStructuredData", () => {
  it("accepts nothing, an object, or a list of objects", () => {
    expect(checkStructuredData("  ")).toEqual({ ok: true, value: null });
    expect(checkStructuredData('{"@type":"Article"}')).toEqual({ ok: true, value: { "@type": "Article" } });
    expect(checkStructuredData('[{"a":1},{"b":2}]')).toMatchObject({ ok: true });
  });

  it("refuses other JSON values with a reason", () => {
    expect(checkStructuredData("42")).toMatchObject({ ok: false, message: expect.stringMatching(/object/) });
    expect(checkStructuredData('[{"a":1}, 2]')).toMatchObject({
      ok: false,
      message: "Item 2 of the list is not a JSON object.",
    });
    expect(checkStructuredData(JSON.stringify(Array.from({ length: 51 }, () => ({}))))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/at most 50/),
    });
  });

  it("names the line and column of a syntax error", () => {
    const text = '{\n  "@type": "Article",\n  "name": oops\n}';
    expect(checkStructuredData(text)).toEqual({
      ok: false,
      line: 3,
      column: 11,
      message: 'Line 3, column 11: expected a value but found "o".',
    });
    expect(checkStructuredData('{"a": 1,}')).toMatchObject({
      line: 1,
      column: 8,
      message: expect.stringMatching(/trailing comma/),
    });
    expect(checkStructuredData('{"a": "b')).toMatchObject({
      line: 1,
      column: 7,
      message: expect.stringMatching(/not closed/),
    });
    expect(checkStructuredData("{'a': 1}")).toMatchObject({
      line: 1,
      column: 2,
      message: expect.stringMatching(/double quotes/),
    });
    expect(checkStructuredData('{"a": 1} x')).toMatchObject({ line: 1, column: 10 });
    expect(checkStructuredData('{"a": [1, 2')).toMatchObject({
      message: expect.stringMatching(/the end of the text/),
    });
  });

  it("counts lines and columns from 1", () => {
    expect(lineColumnAt("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });

  it("shows stored data as pretty JSON", () => {
    expect(structuredDataText(null)).toBe("");
    expect(structuredDataText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
