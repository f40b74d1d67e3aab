/**
 * The curl examples of docs/api/graphql.md, run as written (issue 5, "done when"): every ```sh
 * block of the page is a runnable example, preceded by `<!-- example: NAME [options] -->`, and is
 * run in document order by bash with the real `curl` against a test server (demo seed), in one
 * working folder (so cookie jars carry over), with `http://localhost:3000` replaced by the test
 * server's address and the shell variables ($API_KEY, $ID_TOKEN …) taken from earlier examples.
 *
 * Options of an example:
 * - `status=NNN`: the HTTP status it answers (default 200);
 * - `expect=CODE`: a documented error: `errors[0].extensions.code` is CODE (else: no `errors`);
 * - `text`: the answer is not JSON (a content body);
 * - `capture=VAR:path,VAR2:path`: later examples get $VAR from the JSON answer (dotted path).
 *
 * Beyond the general checks, the examples that show the tiers are checked for the demo data their
 * credential allows: with a Pro user's API key a Free item's body link is there and opens the body,
 * a Pro item is locked with no link (an API key reads as a visitor); the Pro user's session and
 * token open the Pro item; a content:read:all service token opens an Enterprise item.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMMENTS } from "../../server/db/seed/demo/comments.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const DOC_PATH = path.join(import.meta.dirname, "../../docs/api/graphql.md");
const DOC_ORIGIN = "http://localhost:3000";

interface Example {
  name: string;
  code: string;
  status: number;
  expect: string | null;
  text: boolean;
  capture: Array<{ variable: string; path: string }>;
}

const ANNOTATION = /<!--\s*example:\s*([a-z0-9-]+)([^>]*?)\s*-->\s*\n```sh\n([\s\S]*?)```/g;

/** The runnable examples of the page, in order; throws on a ```sh block without an annotation. */
function parseExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const match of markdown.matchAll(ANNOTATION)) {
    const options = match[2]!.trim().split(/\s+/).filter(Boolean);
    const option = (key: string) =>
      options.find((o) => o.startsWith(`${key}=`))?.slice(key.length + 1) ?? null;
    examples.push({
      name: match[1]!,
      code: match[3]!,
      status: Number(option("status") ?? 200),
      expect: option("expect"),
      text: options.includes("text"),
      capture: (option("capture") ?? "")
        .split(",")
        .filter(Boolean)
        .map((pair) => {
          const [variable, jsonPath] = pair.split(":");
          return { variable: variable!, path: jsonPath! };
        }),
    });
  }
  const shBlocks = markdown.match(/^```sh$/gm)?.length ?? 0;
  if (shBlocks !== examples.length) {
    throw new Error(
      `docs/api/graphql.md: ${shBlocks - examples.length} sh block(s) without an example annotation`,
    );
  }
  return examples;
}

const at = (value: unknown, dotted: string): unknown =>
  dotted.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | null)?.[key], value);

const EXAMPLES = parseExamples(readFileSync(DOC_PATH, "utf8"));

/** Examples the page must keep: one per auth mode, the tier checks, paging, a look-up, a conflict. */
const REQUIRED = [
  "sign-in",
  "session-query",
  "id-token",
  "bearer-query",
  "create-api-key",
  "api-key-free-item",
  "api-key-body",
  "api-key-pro-item",
  "create-service-credential",
  "service-token",
  "service-query",
  "get-content",
  "list-filter",
  "list-next-page",
  "list-by-key",
  "create-draft",
  "update-draft",
  "update-stale",
  "delete-draft",
  "upload-media",
  "media-library",
  "bad-api-key",
  "api-key-write",
];

const FREE_SLUG = "anatomy-of-a-good-prompt";
const PRO_SLUG = "human-oversight-patterns";

type Json = Record<string, unknown>;
const items = (body: unknown, field: string) => at(body, `data.${field}.items`) as Json[];

/** Checks of what the demo data looks like through each credential, by example name. */
const CHECKS: Record<string, (body: unknown, text: string, seen: Map<string, unknown>) => void> = {
  "sign-in": (body) => expect(at(body, "user.email")).toBe("pro@demo.local"),
  "session-query": (body) => {
    const [item] = items(body, "listContentBySlug");
    expect(item).toMatchObject({ slug: PRO_SLUG, tier: "Pro", locked: false });
    expect(item!.url).toEqual(expect.stringContaining("/body?"));
  },
  "bearer-query": (body) => {
    expect(at(body, "data.apiVersion")).toBe("1.4");
    const list = items(body, "listContentByTierAndPublishedAt");
    expect(list.length).toBeGreaterThan(0);
    for (const item of list) expect(item).toMatchObject({ tier: "Pro", locked: false });
  },
  "create-api-key": (body) => expect(at(body, "key")).toMatch(/^lh_[0-9a-f]{12}_/),
  "api-key-free-item": (body) => {
    const [item] = items(body, "listContentBySlug");
    expect(item).toMatchObject({ slug: FREE_SLUG, tier: "Free", locked: false });
    expect(item!.url).toEqual(expect.stringContaining("/body?"));
  },
  "api-key-body": (_body, text) => {
    expect(text.length).toBeGreaterThan(200);
    expect(text).toContain("A dependable prompt has four parts.");
  },
  "api-key-pro-item": (body) => {
    const [item] = items(body, "listContentBySlug");
    expect(item).toMatchObject({ slug: PRO_SLUG, tier: "Pro", locked: true, url: null, bodyS3Key: null });
  },
  "service-query": (body) => {
    const [item] = items(body, "listContentBySlug");
    expect(item).toMatchObject({ tier: "Enterprise", locked: false });
    expect(item!.url).toEqual(expect.stringContaining("/body?"));
  },
  "get-content": (body) =>
    expect(at(body, "data.getContent")).toMatchObject({ slug: FREE_SLUG, tier: "Free", commentCount: 3 }),
  "list-filter": (body, _text, seen) => {
    const list = items(body, "listContents");
    expect(list).toHaveLength(5);
    for (const item of list) expect(item).toMatchObject({ section: "ai-education", tier: "Free" });
    expect(at(body, "data.listContents.nextToken")).toEqual(expect.any(String));
    seen.set(
      "first-page",
      list.map((i) => i.slug),
    );
  },
  "list-next-page": (body, _text, seen) => {
    const list = items(body, "listContents");
    expect(list.length).toBeGreaterThan(0);
    for (const item of list) expect(item).toMatchObject({ section: "ai-education", tier: "Free" });
    const first = seen.get("first-page") as string[];
    for (const item of list) expect(first).not.toContain(item.slug);
  },
  "list-by-key": (body) => {
    const list = items(body, "listContentBySectionAndPublishedAt");
    expect(list.length).toBeGreaterThan(1);
    const times = list.map((i) => String(i.publishedAt));
    for (const t of times) expect(t.startsWith("2026-02")).toBe(true);
    expect([...times].sort().reverse()).toEqual(times);
  },
  "create-draft": (body) =>
    expect(at(body, "data.createContent")).toMatchObject({ status: "draft", version: 1 }),
  "update-draft": (body) => expect(at(body, "data.updateContent")).toMatchObject({ version: 2 }),
  "update-stale": (body) => expect(at(body, "errors.0.message")).toMatch(/changed|version/i),
  "delete-draft": (body) => expect(at(body, "data.deleteContent.slug")).toEqual(expect.any(String)),
  "upload-media": (body) =>
    expect(at(body, "data.uploadMedia")).toMatchObject({ kind: "image", width: 4, height: 3 }),
  "media-library": (body) =>
    expect(items(body, "mediaLibrary")).toEqual([
      {
        ref: expect.stringMatching(/^media:/),
        fileName: "chart.png",
        alt: "Downloads per release, 2026",
        width: 4,
        height: 3,
      },
    ]),
  "bearer-subscription": (body) => {
    const list = items(body, "listUserSubscriptionByUserId");
    expect(list).toEqual([expect.objectContaining({ tier: "pro", status: "active" })]);
  },
  "api-key-comments": (body) => {
    const list = items(body, "listCommentByContentIdAndCreatedAt");
    const expected = DEMO_COMMENTS.filter((c) => c.contentSlug === FREE_SLUG);
    expect(list.map((c) => c.body)).toEqual(expected.map((c) => c.body));
    expect(list.filter((c) => c.parentCommentId !== null)).toHaveLength(
      expected.filter((c) => c.replyTo).length,
    );
  },
  "session-comments": (body) => {
    const list = items(body, "listCommentByContentIdAndCreatedAt");
    const expected = DEMO_COMMENTS.filter((c) => c.contentSlug === PRO_SLUG).reverse();
    expect(list.map((c) => c.body)).toEqual(expected.map((c) => c.body));
    for (const c of list) expect(at(c, "author.displayName")).toEqual(expect.any(String));
  },
};

/** Runs a shell script without blocking the event loop (the test server runs in this process). */
function bash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      { cwd, env: { ...process.env, ...env }, timeout: 20_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe("docs/api/graphql.md", () => {
  it("marks every sh block as an example and keeps the required ones, in a working order", () => {
    const names = EXAMPLES.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of REQUIRED) expect(names, name).toContain(name);
    // Each $VAR an example uses is captured by an earlier one.
    const known = new Set<string>();
    for (const example of EXAMPLES) {
      for (const [, variable] of example.code.matchAll(/\$([A-Z][A-Z0-9_]+)/g)) {
        expect(known.has(variable!), `${example.name} uses $${variable} before it is set`).toBe(true);
      }
      for (const c of example.capture) known.add(c.variable);
    }
    expect(DEMO_CONTENT.find((c) => c.slug === FREE_SLUG)?.tier).toBe("Free");
    expect(DEMO_CONTENT.find((c) => c.slug === PRO_SLUG)?.tier).toBe("Pro");
  });
});

describe.each(DIALECTS)("docs/api/graphql.md examples against a server (%s)", (dialect) => {
  let server: TestServer;
  let workDir: string;
  const variables: Record<string, string> = {};
  const seen = new Map<string, unknown>();

  beforeAll(async () => {
    const curl = await bash("command -v curl", tmpdir(), {});
    if (curl.code !== 0) throw new Error("these examples need curl on the PATH (apt-get install curl)");
    server = await startTestServer(dialect);
    workDir = mkdtempSync(path.join(tmpdir(), "lumen-docs-"));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it.each(EXAMPLES.map((e) => [e.name, e] as const))("%s", async (_name, example) => {
    // The HTTP status goes on a last line of its own; the command is otherwise the page's text.
    const script = [
      "set -eo pipefail",
      "curl() { command curl -sS -w '\\n%{http_code}' \"$@\"; }",
      example.code.replaceAll(DOC_ORIGIN, server.url),
    ].join("\n");
    const run = await bash(script, workDir, variables);
    expect(run.stderr, `${example.name}: curl wrote to stderr`).toBe("");
    expect(run.code, `${example.name} exit code`).toBe(0);
    const lines = run.stdout.replace(/\n$/, "").split("\n");
    const status = Number(lines.pop());
    const text = lines.join("\n");
    expect(status, `${example.name}: HTTP status, answer ${text.slice(0, 300)}`).toBe(example.status);
    let body: unknown = null;
    if (!example.text) {
      body = JSON.parse(text);
      if (example.expect) {
        expect(at(body, "errors.0.extensions.code"), text.slice(0, 300)).toBe(example.expect);
      } else {
        expect(at(body, "errors"), text.slice(0, 300)).toBeUndefined();
      }
    }
    for (const c of example.capture) {
      const value = at(body, c.path);
      expect(typeof value, `${example.name}: ${c.path} for $${c.variable}`).toBe("string");
      variables[c.variable] = value as string;
    }
    CHECKS[example.name]?.(body, text, seen);
  });
});
