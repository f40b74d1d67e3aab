/**
 * The public certificate page: the certificate itself (recipient, course title, issue date, issuer),
 * its verification status and URL (copyable), a print button with an A4-landscape print sheet that
 * shows the certificate only (no app chrome), and the PDF download. Never the course body.
 */
import { BadgeCheck, CircleX, FileDown, FileQuestion, House, Printer } from "lucide-react";
import { Link } from "react-router";
import type { CertificateVerification } from "../../../server/modules/learning/learning.schemas.ts";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { CopyLinkButton } from "./copy-link.tsx";

/** Print: A4 landscape, only the certificate (everything else hidden). Inline styles are allowed by the CSP. */
const PRINT_CSS = `@page { size: A4 landscape; margin: 0; }
@media print {
  body * { visibility: hidden !important; }
  #certificate, #certificate * { visibility: visible !important; }
  #certificate { position: fixed; inset: 0; margin: 0; border-radius: 0; box-shadow: none; background: #fff; color: #111;
    display: flex; flex-direction: column; justify-content: center; padding: 18mm; }
  #certificate .cert-frame { border-color: #334d99 !important; }
}`;

export const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

export function CertificateView({ certificate }: { certificate: CertificateVerification }) {
  const valid = certificate.status === "valid";
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-1 py-4">
      <style>{PRINT_CSS}</style>
      <div
        role="status"
        className={`flex items-start gap-3 rounded-xl border p-4 print:hidden ${
          valid
            ? "border-ok-line bg-ok-soft text-ok-text"
            : "border-danger-line bg-danger-soft text-danger-text"
        }`}
      >
        {valid ? (
          <BadgeCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        ) : (
          <CircleX aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        )}
        <div>
          <p className="font-semibold" data-testid="certificate-status">
            {valid ? "Valid" : "Revoked"}
          </p>
          <p className="text-sm">
            {valid
              ? `${certificate.issuer} issued this certificate to ${certificate.recipientName} on ${longDate(certificate.issuedAt)}.`
              : `${certificate.issuer} revoked this certificate${certificate.revokedAt ? ` on ${longDate(certificate.revokedAt)}` : ""}. It is no longer valid.`}
          </p>
        </div>
      </div>

      <section
        id="certificate"
        aria-label="Certificate"
        className="rounded-2xl border border-line bg-elevated p-3 shadow-sm sm:p-4"
      >
        <div className="cert-frame flex flex-col items-center gap-3 rounded-xl border-4 border-double border-accent-line px-4 py-10 text-center sm:px-10 sm:py-14">
          <p className="text-xs font-semibold uppercase tracking-[0.3em] text-ink-subtle">
            {certificate.issuer}
          </p>
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-4xl">
            Certificate of Completion
          </h1>
          <p className="mt-4 text-sm text-ink-muted">This certifies that</p>
          <p className="text-2xl font-semibold text-ink sm:text-3xl" data-testid="certificate-recipient">
            {certificate.recipientName}
          </p>
          <p className="text-sm text-ink-muted">has completed the course</p>
          <p
            className="max-w-2xl text-xl font-semibold text-accent-text sm:text-2xl"
            data-testid="certificate-course"
          >
            {certificate.courseTitle}
          </p>
          <p className="mt-4 text-sm text-ink-muted">
            Issued {longDate(certificate.issuedAt)} by {certificate.issuer}
          </p>
          {!valid && <p className="text-sm font-semibold text-danger-text">Revoked: no longer valid</p>}
          <p className="mt-6 break-all text-xs text-ink-subtle">Verify at {certificate.verificationUrl}</p>
        </div>
      </section>

      <div className="space-y-3 rounded-xl border border-line bg-elevated p-4 print:hidden">
        <h2 className="text-sm font-semibold text-ink">Verification link</h2>
        <p className="text-sm text-ink-muted">
          Anyone with this link can check that the certificate is genuine.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code
            className="min-w-0 flex-1 break-all rounded-lg border border-line bg-sunken px-3 py-2 text-xs text-ink"
            data-testid="verification-url"
          >
            {certificate.verificationUrl}
          </code>
          <CopyLinkButton url={certificate.verificationUrl} label="Copy verification link" />
        </div>
        <div className="flex flex-wrap gap-2 pt-1">
          <Button variant="primary" size="sm" onClick={() => window.print()}>
            <Printer aria-hidden="true" className="size-4" />
            Print / Save as PDF
          </Button>
          <a
            className={buttonClass("secondary", "sm")}
            href={`/api/certificates/${certificate.id}/pdf`}
            download
          >
            <FileDown aria-hidden="true" className="size-4" />
            Download PDF
          </a>
        </div>
      </div>
    </div>
  );
}

export function CertificateNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
      <div className="mb-6 flex size-14 items-center justify-center rounded-2xl border border-line bg-sunken text-ink-muted">
        <FileQuestion aria-hidden="true" className="size-6" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Certificate not found</h1>
      <p className="mt-3 text-ink-muted">
        No certificate has this address. Check the link you were given: it must be copied in full.
      </p>
      <Link to="/" className={buttonClass("primary", "md", "mt-8")}>
        <House aria-hidden="true" className="size-4" />
        Return Home
      </Link>
    </div>
  );
}
