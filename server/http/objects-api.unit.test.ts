import { describe, expect, it } from "vitest";
import { byteRange } from "./objects-api.ts";

describe("byteRange", () => {
  it("reads one bytes= range, clamped to the object", () => {
    expect(byteRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange("bytes=500-", 1000)).toEqual({ start: 500, end: 999 });
    expect(byteRange("bytes=900-5000", 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
  });

  it("sends the whole object without a usable single range", () => {
    expect(byteRange(undefined, 1000)).toBeNull();
    expect(byteRange("bytes=-", 1000)).toBeNull();
    expect(byteRange("bytes=0-1,5-9", 1000)).toBeNull();
    expect(byteRange("items=0-9", 1000)).toBeNull();
    expect(byteRange("bytes=0-9", 1000, { header: '"old"', eTag: '"new"' })).toBeNull();
    expect(byteRange("bytes=0-9", 1000, { header: '"new"', eTag: '"new"' })).toEqual({ start: 0, end: 9 });
  });

  it("refuses a range outside the object", () => {
    expect(byteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(byteRange("bytes=9-3", 1000)).toBe("unsatisfiable");
    expect(byteRange("bytes=-0", 1000)).toBe("unsatisfiable");
  });
});
