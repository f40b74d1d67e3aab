import { describe, expect, it, vi } from "vitest";
import { visitorContext } from "../../core/index.ts";
import type { Credential } from "../auth/identity.ts";
import { createBodyLinks } from "../modules/content/body-links.ts";
import type { Runtime } from "../runtime.ts";
import type { ContentSummary } from "../services.ts";
import { withBodyLinks } from "./content-api.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function fakeRuntime() {
  const warn = vi.fn();
  const bodyLinks = createBodyLinks({ secret: "unit-test-secret-0123456789", now: () => NOW });
  const runtime = {
    bodyLinks,
    logger: { warn },
    identity: {
      credentialRef: (actor: Credential) => (actor.kind === "session" ? "s.session-1" : "v"),
    },
  } as unknown as Runtime;
  return { runtime, warn, bodyLinks };
}

const item = (overrides: Partial<ContentSummary> = {}): ContentSummary =>
  ({
    id: "c1",
    slug: "c1",
    title: "T",
    locked: false,
    bodyS3Key: "content/free/x/c1.md",
    ...overrides,
  }) as ContentSummary;

// A Free reader's context: body links are checked against the body's content/<tier>/ area.
const actor = (expiresAtMs: number | null): Credential =>
  ({ kind: "session", context: visitorContext(), scopes: null, expiresAtMs }) as unknown as Credential;

const expOf = (url: string) => Number(new URL(url, "http://x").searchParams.get("exp")) * 1000;

describe("withBodyLinks", () => {
  it("links readable items for 3600 s and leaves locked or bodiless items without one", () => {
    const { runtime } = fakeRuntime();
    const [open, locked, bodiless] = withBodyLinks(runtime, actor(null), [
      item(),
      item({ id: "c2", locked: true, bodyS3Key: null }),
      item({ id: "c3", bodyS3Key: null }),
    ]);
    expect(open!.presignedUrl).toMatch(/^\/api\/content\/c1\/body\?exp=\d+&cred=s\.session-1&sig=/);
    expect(open!.url).toBe(open!.presignedUrl);
    expect(expOf(open!.presignedUrl!) - NOW).toBe(3600_000);
    expect(locked).not.toHaveProperty("presignedUrl");
    expect(bodiless).not.toHaveProperty("url");
  });

  it("never lets a link outlive the session or credential", () => {
    const { runtime } = fakeRuntime();
    const [linked] = withBodyLinks(runtime, actor(NOW + 600_000), [item()]);
    expect(expOf(linked!.presignedUrl!)).toBe(NOW + 600_000);
  });

  it("logs a link that cannot be signed and returns the item without url", () => {
    const { runtime, warn } = fakeRuntime();
    const [ended] = withBodyLinks(runtime, actor(NOW - 1), [item()]);
    expect(ended).not.toHaveProperty("presignedUrl");
    expect(ended).not.toHaveProperty("url");
    expect(ended!.title).toBe("T");
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![1]).toMatch(/presigned link generation failed/);
  });
});

describe("body links", () => {
  it("verify accepts its own link once signed and refuses other items, tampering and expiry", () => {
    let now = NOW;
    const links = createBodyLinks({ secret: "unit-test-secret-0123456789", now: () => now });
    const link = new URL(links.issue("item-a", "s.abc").url, "http://x");
    expect(links.verify("item-a", link.searchParams)).toMatchObject({ ok: true, credential: "s.abc" });
    expect(links.verify("item-b", link.searchParams)).toMatchObject({ ok: false, reason: "signature" });
    const other = createBodyLinks({ secret: "another-secret-0123456789", now: () => now });
    expect(other.verify("item-a", link.searchParams)).toMatchObject({ ok: false, reason: "signature" });
    now += 3600_000;
    expect(links.verify("item-a", link.searchParams)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("refuses an expiry over 7 days with a URL-expiration-limit error", () => {
    const links = createBodyLinks({ secret: "unit-test-secret-0123456789", now: () => NOW });
    expect(() => links.issue("a", "v", { expiresInS: 7 * 24 * 3600 + 1 })).toThrow(/expiration/i);
    expect(() => links.issue("a", "v", { expiresInS: 7 * 24 * 3600 })).not.toThrow();
  });
});
