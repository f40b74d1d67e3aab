import { describe, expect, it } from "vitest";
import { certificatePdf } from "./certificate-pdf.ts";
import { csvField, streaksOf } from "./reports.service.ts";

describe("streaksOf", () => {
  it("counts the current run ending today or yesterday, and the longest run", () => {
    expect(streaksOf([], "2026-03-10")).toEqual({ current: 0, longest: 0 });
    expect(streaksOf(["2026-03-08", "2026-03-09", "2026-03-10"], "2026-03-10")).toEqual({
      current: 3,
      longest: 3,
    });
    // Nothing yet today: the run through yesterday still counts.
    expect(streaksOf(["2026-03-08", "2026-03-09"], "2026-03-10")).toEqual({ current: 2, longest: 2 });
    // A gap breaks it.
    expect(streaksOf(["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-08"], "2026-03-10")).toEqual({
      current: 0,
      longest: 3,
    });
    // Across a month end.
    expect(streaksOf(["2026-02-27", "2026-02-28", "2026-03-01"], "2026-03-01")).toEqual({
      current: 3,
      longest: 3,
    });
  });
});

describe("csvField", () => {
  it("quotes commas, quotes and line breaks; defuses formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(2.5)).toBe("2.5");
    expect(csvField('Say "hi", then')).toBe('"Say ""hi"", then"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("@cmd")).toBe("'@cmd");
    expect(csvField(-3)).toBe("-3");
  });
});

describe("certificatePdf", () => {
  const cert = {
    id: "abcdefghijklmnopqrstuvwxyz012345",
    status: "valid" as const,
    recipientName: "Zoë (Test) \\ Ünal 李",
    courseTitle: "Prompting (Basics)",
    issuedAt: "2026-03-10T12:00:00.000Z",
    revokedAt: null,
    issuer: "Lumen Hub",
    verificationUrl: "https://hub.example/certificates/abcdefghijklmnopqrstuvwxyz012345",
  };

  it("writes a one-page PDF whose xref offsets point at its objects", () => {
    const text = Buffer.from(certificatePdf(cert)).toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(text).toContain("/MediaBox [0 0 842 595]");
    const startxref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe("xref");
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(7);
    offsets.forEach((offset, i) => {
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
  });

  it("escapes PDF string characters and replaces what the standard fonts cannot draw", () => {
    const text = Buffer.from(certificatePdf(cert)).toString("latin1");
    expect(text).toContain("(Zo\u00eb \\(Test\\) \\\\ \u00dcnal ?)");
    expect(text).toContain("(Prompting \\(Basics\\))");
    expect(text).not.toContain("REVOKED");
    expect(Buffer.from(certificatePdf({ ...cert, status: "revoked" })).toString("latin1")).toContain(
      "REVOKED",
    );
  });
});
