import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { useSidebar } from "./sidebar-context.tsx";

function SidebarConsumer() {
  useSidebar();
  return null;
}

function AuthConsumer() {
  useAuth();
  return null;
}

describe("provider hooks", () => {
  it("useSidebar outside a SidebarProvider throws the spec's message", () => {
    expect(() =>
      renderToString(
        <MemoryRouter>
          <SidebarConsumer />
        </MemoryRouter>,
      ),
    ).toThrowError(/^useSidebar must be used within a SidebarProvider$/);
  });

  it("useAuth outside an AuthProvider throws the spec's message", () => {
    expect(() =>
      renderToString(
        <MemoryRouter>
          <AuthConsumer />
        </MemoryRouter>,
      ),
    ).toThrowError(/^useAuth must be used within an AuthProvider$/);
  });
});
