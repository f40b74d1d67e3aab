import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { downloadHeaders } from "../http/objects-api.ts";
import { LocalObjectStore } from "./local-store.ts";
import {
  assertValidKey,
  InvalidPresignOptionsError,
  PresignNotAllowedError,
  resolveLinkExpiry,
  UrlExpirationLimitError,
} from "./object-store.ts";
import { keyFromObjectsPath, UrlSigner } from "./url-signer.ts";

const SECRET = "unit-test-secret-0123456789-abcdefghij";
const NOW = Date.UTC(2030, 0, 1);
const isKey = (k: string) => {
  try {
    assertValidKey(k);
    return true;
  } catch {
    return false;
  }
};

describe("resolveLinkExpiry", () => {
  it("defaults to 3600 s", () => {
    const r = resolveLinkExpiry({}, NOW);
    expect(r.expiresInS).toBe(3600);
    expect(r.expiresAt.getTime()).toBe(NOW + 3_600_000);
  });

  it("allows exactly 7 days and refuses more with a typed URL-expiration-limit error", () => {
    expect(resolveLinkExpiry({ expiresInS: 604_800 }, NOW).expiresInS).toBe(604_800);
    try {
      resolveLinkExpiry({ expiresInS: 604_801 }, NOW);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UrlExpirationLimitError);
      expect((error as UrlExpirationLimitError).code).toBe("BAD_USER_INPUT");
      expect((error as UrlExpirationLimitError).reason).toBe("URL_EXPIRATION_LIMIT");
      expect((error as Error).message).toContain("604800");
    }
  });

  it("caps the expiry to notAfterMs", () => {
    const r = resolveLinkExpiry({ expiresInS: 3600, notAfterMs: NOW + 90_500 }, NOW);
    expect(r.expiresInS).toBe(90);
    expect(r.expiresAt.getTime()).toBeLessThanOrEqual(NOW + 90_500);
    expect(resolveLinkExpiry({ expiresInS: 60, notAfterMs: NOW + 3_600_000 }, NOW).expiresInS).toBe(60);
  });

  it("still refuses over 7 days even when notAfterMs is sooner", () => {
    expect(() => resolveLinkExpiry({ expiresInS: 700_000, notAfterMs: NOW + 1000 }, NOW)).toThrow(
      UrlExpirationLimitError,
    );
  });

  it("refuses to sign for an ended session and refuses non-positive expiries", () => {
    expect(() => resolveLinkExpiry({ notAfterMs: NOW - 1 }, NOW)).toThrow(PresignNotAllowedError);
    expect(() => resolveLinkExpiry({ notAfterMs: NOW + 500 }, NOW)).toThrow(PresignNotAllowedError);
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveLinkExpiry({ expiresInS: bad }, NOW)).toThrow();
    }
    expect(() => resolveLinkExpiry({ expiresInS: 0 }, NOW)).toThrow(InvalidPresignOptionsError);
  });
});

describe("UrlSigner", () => {
  const signer = new UrlSigner(SECRET);
  const exp = Math.floor(NOW / 1000) + 60;
  const q = (s: string) => new URLSearchParams(s);

  it("verifies its own signature before expiry", () => {
    const query = signer.query("GET", "media/a.png", { exp });
    expect(signer.verify("GET", "media/a.png", q(query), NOW)).toMatchObject({ ok: true, exp });
  });

  it("refuses after expiry (at exp exactly too)", () => {
    const query = q(signer.query("GET", "media/a.png", { exp }));
    expect(signer.verify("GET", "media/a.png", query, exp * 1000)).toMatchObject({
      ok: false,
      reason: "expired",
    });
    expect(signer.verify("GET", "media/a.png", query, exp * 1000 - 1).ok).toBe(true);
  });

  it("binds method, key, expiry, disposition and content type", () => {
    const query = q(signer.query("GET", "media/a.png", { exp, rcd: "inline" }));
    expect(signer.verify("PUT", "media/a.png", query, NOW)).toMatchObject({ ok: false, reason: "signature" });
    expect(signer.verify("GET", "media/b.png", query, NOW)).toMatchObject({ ok: false, reason: "signature" });
    const later = new URLSearchParams(query);
    later.set("exp", String(exp + 1000));
    expect(signer.verify("GET", "media/a.png", later, NOW)).toMatchObject({ ok: false, reason: "signature" });
    const otherRcd = new URLSearchParams(query);
    otherRcd.set("rcd", "attachment");
    expect(signer.verify("GET", "media/a.png", otherRcd, NOW)).toMatchObject({
      ok: false,
      reason: "signature",
    });
    const put = q(signer.query("PUT", "media/a.png", { exp, ct: "image/png" }));
    const otherCt = new URLSearchParams(put);
    otherCt.set("ct", "text/html");
    expect(signer.verify("PUT", "media/a.png", otherCt, NOW)).toMatchObject({
      ok: false,
      reason: "signature",
    });
  });

  it("refuses tampered, missing and malformed signatures and another secret's links", () => {
    const query = q(signer.query("GET", "media/a.png", { exp }));
    const sig = query.get("sig")!;
    const tampered = new URLSearchParams(query);
    tampered.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    expect(signer.verify("GET", "media/a.png", tampered, NOW)).toMatchObject({
      ok: false,
      reason: "signature",
    });
    expect(signer.verify("GET", "media/a.png", q(`exp=${exp}`), NOW)).toMatchObject({
      ok: false,
      reason: "missing",
    });
    expect(signer.verify("GET", "media/a.png", q(`exp=abc&sig=${sig}`), NOW)).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    expect(signer.verify("GET", "media/a.png", q(`exp=${exp}&sig=short`), NOW)).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    const other = new UrlSigner(`${SECRET}-other`);
    expect(other.verify("GET", "media/a.png", query, NOW)).toMatchObject({ ok: false, reason: "signature" });
  });

  it("needs a real secret", () => {
    expect(() => new UrlSigner("")).toThrow();
  });
});

describe("keyFromObjectsPath", () => {
  it("accepts plain keys", () => {
    expect(keyFromObjectsPath("/api/objects/media/a.png", isKey)).toBe("media/a.png");
    expect(keyFromObjectsPath("/api/objects/private/u1/x-y_z.v1.md", isKey)).toBe("private/u1/x-y_z.v1.md");
  });

  it.each([
    "/api/objects/",
    "/api/objects/../secret",
    "/api/objects/media/../../etc/passwd",
    "/api/objects/%2e%2e/secret",
    "/api/objects/%2E%2E%2Fsecret",
    "/api/objects/media/..%2f..%2fetc%2fpasswd",
    "/api/objects/%2fetc%2fpasswd",
    "/api/objects//etc/passwd",
    "/api/objects/media\\..\\x",
    "/api/objects/media%5c..%5cx",
    "/api/objects/media/%61.png",
    "/api/objects/media/%zz",
    "/api/objects/media/./a.png",
    "/other/media/a.png",
  ])("refuses %s", (p) => {
    expect(keyFromObjectsPath(p, isKey)).toBeNull();
  });
});

describe("downloadHeaders", () => {
  it("serves safe types inline with their type", () => {
    expect(downloadHeaders("image/png")).toEqual({ contentType: "image/png", disposition: null });
    expect(downloadHeaders("text/markdown")).toEqual({
      contentType: "text/markdown; charset=utf-8",
      disposition: null,
    });
    expect(downloadHeaders("video/mp4", 'attachment; filename="v.mp4"').disposition).toBe(
      'attachment; filename="v.mp4"',
    );
  });

  it.each([
    "text/html",
    "image/svg+xml",
    "application/javascript",
    "application/xhtml+xml",
    "application/pdf",
    "",
  ])("downloads %s as an attachment", (type) => {
    const h = downloadHeaders(type, "inline");
    expect(h.contentType).toBe("application/octet-stream");
    expect(h.disposition).toBe("attachment");
  });
});

describe("LocalObjectStore links", () => {
  const root = mkdtempSync(path.join(tmpdir(), "lumen-sign-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let now = NOW;
  const store = new LocalObjectStore(root, { secret: SECRET, now: () => now });

  it("builds /api/objects links that verify until they expire", async () => {
    const { url, expiresAt } = await store.presignGet("media/a.png", { expiresInS: 120 });
    expect(url.startsWith("/api/objects/media/a.png?exp=")).toBe(true);
    expect(expiresAt.getTime()).toBe(NOW + 120_000);
    const query = new URL(url, "http://x").searchParams;
    expect(store.verifyLink("GET", "media/a.png", query).ok).toBe(true);
    now = NOW + 120_000;
    expect(store.verifyLink("GET", "media/a.png", query)).toMatchObject({ ok: false, reason: "expired" });
    now = NOW;
  });

  it("uses the public origin when given and refuses bad options", async () => {
    const withOrigin = new LocalObjectStore(root, {
      secret: SECRET,
      baseUrl: "https://hub.example.com/",
      now: () => NOW,
    });
    expect(
      (await withOrigin.presignPut("media/b.png")).url.startsWith(
        "https://hub.example.com/api/objects/media/b.png?",
      ),
    ).toBe(true);
    await expect(store.presignGet("media/a.png", { expiresInS: 604_801 })).rejects.toBeInstanceOf(
      UrlExpirationLimitError,
    );
    await expect(store.presignGet("../x")).rejects.toThrow(/Invalid object key/);
    await expect(
      store.presignGet("media/a.png", { responseContentDisposition: "inline\r\nSet-Cookie: a=b" }),
    ).rejects.toBeInstanceOf(InvalidPresignOptionsError);
    await expect(
      store.presignPut("media/a.png", { contentType: "text/html\r\nx: y" }),
    ).rejects.toBeInstanceOf(InvalidPresignOptionsError);
    await expect(new LocalObjectStore(root).presignGet("media/a.png")).rejects.toThrow(/without a secret/);
  });
});
