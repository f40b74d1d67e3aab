/**
 * The editor's live preview over HTTP (POST /api/studio/render): writers only, the public page's
 * pipeline (sanitizer, heading ids, Shiki), the XSS corpus rendered inert, and the body limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { expectInert, XSS_CORPUS } from "../helpers/xss-corpus.ts";

interface Rendered {
  html: string;
  headings: { id: string; text: string; depth: number }[];
}

describe.each(DIALECTS)("studio render API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    for (const who of ["free", "manager"])
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const render = (body: unknown, cookie?: string, options: { origin?: string | null } = {}) =>
    call(server.url, "/api/studio/render", body, { cookie, ...options });

  it("renders a writer's Markdown with heading ids, a table of contents and highlighted code", async () => {
    const res = await render(
      { body: "## First part\n\nSome *text*.\n\n### Detail\n\n```ts\nconst answer: number = 42;\n```\n" },
      cookies.manager,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const out = (await res.json()) as Rendered;
    expect(out.headings).toEqual([
      { id: "first-part", text: "First part", depth: 2 },
      { id: "detail", text: "Detail", depth: 3 },
    ]);
    expect(out.html).toContain('<h2 id="first-part">');
    expect(out.html).toContain("<em>text</em>");
    expect(out.html).toMatch(/<pre class="shiki[^"]*"[^>]*data-language="typescript"/);
    expect(out.html).toContain("--shiki-dark");
  });

  it("renders every payload of the XSS corpus inert", async () => {
    const body = XSS_CORPUS.map((payload, i) => `para ${i}\n\n${payload}\n\n`).join("");
    const res = await render({ body: `${body}the end` }, cookies.manager);
    expect(res.status).toBe(200);
    const out = (await res.json()) as Rendered;
    expectInert(out.html);
    expect(out.html).toContain("the end");
  });

  it("is for content writers only", async () => {
    const visitor = await render({ body: "# Hi" });
    expect(visitor.status).toBe(401);
    const reader = await render({ body: "# Hi" }, cookies.free);
    expect(reader.status).toBe(403);
    expect(((await reader.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
  });

  it("refuses a request from another site", async () => {
    const res = await render({ body: "# Hi" }, cookies.manager, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it("names the field of a bad body", async () => {
    const res = await render({ body: 42 }, cookies.manager);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { field?: Record<string, string> } };
    expect(Object.keys(error.field ?? {})).toEqual(["body"]);
    const unknown = await render({ body: "x", title: "y" }, cookies.manager);
    expect(unknown.status).toBe(400);
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const res = await render({ body: "a".repeat(1024 * 1024 + 1) }, cookies.manager);
    expect(res.status).toBe(413);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.message).toContain("1 MiB");
    const fits = await render({ body: "a".repeat(1024 * 1024) }, cookies.manager);
    expect(fits.status).toBe(200);
  });
});
