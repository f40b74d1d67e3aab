import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type {
  CertificateVerification,
  Completions,
} from "../../../server/modules/learning/learning.schemas.ts";
import { CertificateView } from "./certificate-view.tsx";
import { CompletionsPanel } from "./completions-panel.tsx";
import { ReportsTeaser } from "./reports-view.tsx";

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

const cert: CertificateVerification = {
  id: "abcdefghijklmnopqrstuvwxyz012345",
  status: "valid",
  recipientName: "Priya Pro",
  courseTitle: "Prompting Fundamentals",
  issuedAt: "2026-03-10T12:00:00.000Z",
  revokedAt: null,
  issuer: "Lumen Hub",
  verificationUrl: "https://hub.example/certificates/abcdefghijklmnopqrstuvwxyz012345",
};

describe("CompletionsPanel", () => {
  it("lists certificates with their links and courses in progress", () => {
    const data: Completions = {
      certificates: [{ ...cert, courseId: "c1", courseSlug: "prompting-fundamentals" }],
      inProgress: [
        {
          courseId: "c2",
          courseSlug: "responsible-ai",
          courseTitle: "Responsible AI",
          completed: 1,
          total: 3,
          percent: 33,
          lastAt: "2026-03-09T10:00:00.000Z",
        },
      ],
    };
    const html = renderToString(
      <MemoryRouter>
        <CompletionsPanel data={data} />
      </MemoryRouter>,
    );
    expect(html).toContain(`href="/certificates/${cert.id}"`);
    expect(html).toContain('href="/content/responsible-ai"');
    const t = text(html);
    expect(t).toContain("Certificate issued 10 March 2026");
    expect(t).toContain("Share verification link");
    expect(t).toContain("1/3 lessons");
  });

  it("explains how to earn one when there is nothing yet", () => {
    const html = renderToString(
      <MemoryRouter>
        <CompletionsPanel data={{ certificates: [], inProgress: [] }} />
      </MemoryRouter>,
    );
    expect(text(html)).toContain("Finish every lesson of a course to earn a certificate");
  });
});

describe("CertificateView", () => {
  it("shows the status, the verification URL and the print button; Revoked when revoked", () => {
    const valid = text(
      renderToString(
        <MemoryRouter>
          <CertificateView certificate={cert} />
        </MemoryRouter>,
      ),
    );
    expect(valid).toContain("Valid");
    expect(valid).toContain(cert.verificationUrl);
    expect(valid).toContain("Print / Save as PDF");
    const revoked = text(
      renderToString(
        <MemoryRouter>
          <CertificateView
            certificate={{ ...cert, status: "revoked", revokedAt: "2026-04-01T00:00:00.000Z" }}
          />
        </MemoryRouter>,
      ),
    );
    expect(revoked).toContain("Revoked");
    expect(revoked).toContain("no longer valid");
  });
});

describe("ReportsTeaser", () => {
  it("labels its charts as examples and leads to /pricing", () => {
    const html = renderToString(
      <MemoryRouter>
        <ReportsTeaser />
      </MemoryRouter>,
    );
    expect(html).toContain('href="/pricing"');
    expect(text(html)).toContain("Example report: sample figures, not your reading");
    expect(html.match(/>Example</g)?.length).toBe(4);
  });
});
