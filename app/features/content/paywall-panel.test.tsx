import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { type GatedAccess, PaywallPanel } from "./paywall-panel.tsx";

function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function render(
  access: GatedAccess,
  signedIn: boolean,
  currentPath = "/content/prompt-patterns",
  rolesRequired: string[] = [],
) {
  return renderToString(
    <MemoryRouter>
      <PaywallPanel
        access={access}
        signedIn={signedIn}
        currentPath={currentPath}
        rolesRequired={rolesRequired}
      />
    </MemoryRouter>,
  );
}

describe("PaywallPanel", () => {
  it("offers a visitor the upgrade and a Sign In button that returns to the page", () => {
    const html = render({ kind: "signin", requiredTier: "Pro" }, false);
    const t = text(html);
    expect(t).toContain("Premium Content");
    expect(t).toContain("This content requires a Pro subscription or higher.");
    expect(t).toContain("Upgrade to Pro");
    expect(t).toContain("Sign In");
    expect(html).toMatch(/href="\/pricing"[^>]*>.*Upgrade to Pro/s);
    expect(html).toContain('href="/auth/signin?redirect=%2Fcontent%2Fprompt-patterns"');
  });

  it("offers a signed-in user only the upgrade", () => {
    const html = render({ kind: "tier", requiredTier: "Enterprise" }, true);
    const t = text(html);
    expect(t).toContain("Premium Content");
    expect(t).toContain("This content requires a Enterprise subscription or higher.");
    expect(t).toContain("Upgrade to Enterprise");
    expect(t).not.toContain("Sign In");
    expect(html).not.toContain("/auth/signin");
  });

  it("explains a role gate instead of a plan", () => {
    const t = text(render({ kind: "role", rolesRequired: ["Editor"] }, true));
    expect(t).toContain("This content is only available to editors.");
    expect(t).not.toContain("Premium Content");
    expect(t).not.toContain("Sign In");
  });

  it("offers a visitor Sign In on a role gate", () => {
    const t = text(render({ kind: "role", rolesRequired: ["ContentManager", "AdminUser"] }, false));
    expect(t).toContain("content managers and admins");
    expect(t).toContain("Sign In");
  });

  it("asks a visitor only to sign in when no plan is needed", () => {
    const html = render({ kind: "signin", requiredTier: "Free" }, false, "/content/style-guide", [
      "ContentManager",
    ]);
    const t = text(html);
    expect(t).toContain("Sign In Required");
    expect(t).toContain("This content is only available to content managers. Sign in to continue.");
    expect(t).not.toContain("Upgrade to Free");
    expect(html).toContain('href="/auth/signin?redirect=%2Fcontent%2Fstyle-guide"');
  });
});
