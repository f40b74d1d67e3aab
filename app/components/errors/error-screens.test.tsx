import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import {
  ApplicationErrorScreen,
  errorMessage,
  ForbiddenScreen,
  GenericErrorScreen,
} from "./error-screens.tsx";

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();

describe("error screens (spec §2 Other UI)", () => {
  it("the generic screen shows 'Something went wrong', the message, 'Try again' and 'Reload page'", () => {
    const html = text(
      renderToString(
        <MemoryRouter>
          <GenericErrorScreen message="Database unavailable" onRetry={() => {}} />
        </MemoryRouter>,
      ),
    );
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Database unavailable");
    expect(html).toContain("Try again");
    expect(html).toContain("Reload page");
  });

  it("falls back to 'An unexpected error occurred' when there is no message", () => {
    expect(errorMessage(new Error(""))).toBe("An unexpected error occurred");
    expect(errorMessage(undefined)).toBe("An unexpected error occurred");
    expect(errorMessage({ not: "an error" })).toBe("An unexpected error occurred");
    expect(errorMessage(new Error("Boom"))).toBe("Boom");
    expect(errorMessage("plain text")).toBe("plain text");
    const html = text(
      renderToString(
        <MemoryRouter>
          <GenericErrorScreen message="" onRetry={() => {}} />
        </MemoryRouter>,
      ),
    );
    expect(html).toContain("An unexpected error occurred");
  });

  it("the global screen shows 'Application Error', 'Something went wrong:' and 'Show Test Component'", () => {
    const html = text(
      renderToString(
        <MemoryRouter>
          <ApplicationErrorScreen error={new Error("Shell failed")} onRetry={() => {}} />
        </MemoryRouter>,
      ),
    );
    expect(html).toContain("Application Error");
    expect(html).toContain("Something went wrong: Shell failed");
    expect(html).toContain("Show Test Component");
  });

  it("a staff page whose role waits for a second factor leads to enrolment instead of a bare 403", () => {
    const html = renderToString(
      <MemoryRouter>
        <ForbiddenScreen
          payload={{ kind: "forbidden", reason: "mfa", path: "/admin/users", requiredTier: null }}
        />
      </MemoryRouter>,
    );
    expect(text(html)).toContain("Set up two-factor authentication first");
    expect(text(html)).toContain("This page needs the Admin or Super Admin role");
    expect(html).toContain('href="/settings?enrol-mfa=1"');
    const plain = text(
      renderToString(
        <MemoryRouter>
          <ForbiddenScreen
            payload={{ kind: "forbidden", reason: "role", path: "/admin/users", requiredTier: null }}
          />
        </MemoryRouter>,
      ),
    );
    expect(plain).toContain("Access denied");
    expect(plain).not.toContain("two-factor");
  });
});
