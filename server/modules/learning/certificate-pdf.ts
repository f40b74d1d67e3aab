/**
 * A certificate as a one-page PDF (A4 landscape), written directly: the standard Helvetica fonts
 * (no embedding), WinAnsi text, a border and centred lines. No dependency (see
 * docs/api/learning.md, "Why no PDF library"). Characters outside Latin-1 are replaced by "?" (the standard fonts cannot draw them).
 */
import type { CertificateVerification } from "./learning.schemas.ts";

const WIDTH = 842;
const HEIGHT = 595;

/** Approximate Helvetica advance widths (per 1000 em) for centring. */
function textWidth(text: string, size: number, bold: boolean): number {
  let units = 0;
  for (const ch of text) {
    if (ch === " ") units += 278;
    else if (/[il.,:;'|!]/.test(ch)) units += 250;
    else if (/[A-Z]/.test(ch)) units += bold ? 722 : 667;
    else if (/[mwMW]/.test(ch)) units += 833;
    else units += bold ? 611 : 556;
  }
  return (units * size) / 1000;
}

/** Latin-1 only, PDF string escapes. */
function pdfString(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 63;
    const c = code > 255 || code < 32 ? "?" : ch;
    out += c === "(" || c === ")" || c === "\\" ? `\\${c}` : c;
  }
  return `(${out})`;
}

function centred(text: string, y: number, size: number, bold = false, gray = 0): string {
  const x = Math.max(40, (WIDTH - textWidth(text, size, bold)) / 2);
  return `${gray} g BT /${bold ? "F2" : "F1"} ${size} Tf ${x.toFixed(1)} ${y} Td ${pdfString(text)} Tj ET\n`;
}

const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

export function certificatePdf(cert: CertificateVerification): Uint8Array {
  const title = cert.courseTitle.length > 70 ? `${cert.courseTitle.slice(0, 67)}...` : cert.courseTitle;
  let content = "";
  content += "0.2 0.3 0.6 RG 4 w 24 24 794 547 re S\n0.5 w 34 34 774 527 re S\n";
  content += centred(cert.issuer.toUpperCase(), 500, 16, true, 0.3);
  content += centred("Certificate of Completion", 440, 34, true);
  content += centred("This certifies that", 390, 14, false, 0.35);
  content += centred(cert.recipientName, 345, 28, true);
  content += centred("has completed the course", 305, 14, false, 0.35);
  content += centred(title, 265, 22, true);
  content += centred(`Issued ${longDate(cert.issuedAt)} by ${cert.issuer}`, 205, 12, false, 0.35);
  if (cert.status === "revoked")
    content += centred("REVOKED: this certificate is no longer valid", 175, 14, true);
  content += centred(`Verify at ${cert.verificationUrl}`, 80, 10, false, 0.35);
  content += centred(`Certificate ${cert.id}`, 64, 9, false, 0.5);

  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${WIDTH} ${HEIGHT}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}endstream`,
    `<< /Title ${pdfString(`Certificate: ${title}`)} /Producer (Lumen Hub) >>`,
  ];
  let pdf = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) pdf += `${String(o).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, "latin1"));
}
