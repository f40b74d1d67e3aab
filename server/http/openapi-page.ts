/**
 * The API reference page (`GET /api/docs`, decision 034): the OpenAPI document rendered as one
 * HTML page on the server — no CDN, no viewer library, no script but the theme bootstrap (the
 * reader's stored theme, as the app's pages apply it, with the request's nonce), so the app's
 * Content Security Policy holds unchanged. The colours are
 * the app's design tokens (app/app.css), light and dark; the layout reads at 390 px.
 */
import { DEFAULT_THEME, THEME_STORAGE_KEY } from "../../core/index.ts";
import type { OpenApiDocument } from "./openapi-registry.ts";

/** The app's theme choice (stored by its theme menu; default: the system's) as `class="dark"`. */
const themeScript = () =>
  `(function(){var d=document.documentElement;try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t!=="light"&&t!=="dark"&&t!=="system")t=${JSON.stringify(DEFAULT_THEME)};var k=t==="dark"||(t==="system"&&window.matchMedia("(prefers-color-scheme: dark)").matches);d.classList.toggle("dark",k);}catch(e){}})();`;

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/** The little Markdown the descriptions use: `code` and **bold**, escaped first. */
const inline = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${inline(p)}</p>`)
    .join("");

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: {
    name: string;
    in: string;
    required: boolean;
    schema: Record<string, unknown>;
    description?: string;
  }[];
  requestBody?: { description?: string; content: Record<string, { schema?: unknown }> };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, unknown> }>;
};

/** A schema in one line where it is short ("string, at most 100"), else as JSON. */
function schemaSummary(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum))
    parts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  else if (typeof schema.type === "string") parts.push(schema.type);
  else if (Array.isArray(schema.anyOf)) parts.push("one of several shapes");
  if (typeof schema.pattern === "string") parts.push(`matching ${schema.pattern}`);
  if (typeof schema.minimum === "number") parts.push(`at least ${schema.minimum}`);
  if (typeof schema.maximum === "number") parts.push(`at most ${schema.maximum}`);
  if (typeof schema.minLength === "number" && schema.minLength > 0)
    parts.push(`${schema.minLength}+ characters`);
  if (typeof schema.maxLength === "number") parts.push(`up to ${schema.maxLength} characters`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ") || "any";
}

function operationHtml(
  method: string,
  path: string,
  op: Operation,
  errorText: Record<string, string>,
): string {
  const params = op.parameters ?? [];
  const paramRows = params
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? "yes" : "no"}</td><td>${escapeHtml(schemaSummary(p.schema))}${p.description ? ` — ${inline(p.description)}` : ""}</td></tr>`,
    )
    .join("");
  const body = op.requestBody;
  let bodyHtml = "";
  if (body) {
    const [type, media] = Object.entries(body.content)[0] ?? ["", {}];
    bodyHtml = `<h4>Body <span class="muted">${escapeHtml(type)}</span></h4>${body.description ? paragraphs(body.description) : ""}${
      media.schema
        ? `<details><summary>Schema</summary><pre>${escapeHtml(JSON.stringify(media.schema, null, 2))}</pre></details>`
        : ""
    }`;
  }
  const answers = Object.entries(op.responses)
    .map(([status, answer]) => {
      const text = answer.$ref ? (errorText[status] ?? "") : (answer.description ?? "");
      const kind = status.startsWith("2") || status.startsWith("3") ? "ok" : "err";
      return `<li><span class="status ${kind}">${status}</span> ${inline(text)}</li>`;
    })
    .join("");
  const schemes = op.security.length
    ? op.security.map((s) => Object.keys(s)[0] ?? "no credential").join(" · ")
    : "no credential";
  return `<article class="op" id="${escapeHtml(op.operationId)}">
<h3><span class="method m-${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${inline(op.summary)}</p>
${op.description ? paragraphs(op.description) : ""}
<p class="muted small">Credentials: ${escapeHtml(schemes)}</p>
${params.length ? `<div class="scroll"><table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Accepts</th></tr></thead><tbody>${paramRows}</tbody></table></div>` : ""}
${bodyHtml}
<h4>Answers</h4><ul class="answers">${answers}</ul>
</article>`;
}

const STYLE = `
:root{color-scheme:light;--canvas:#fff;--surface:#fafafa;--sunken:#f4f4f5;--line:#e4e4e7;--ink:#18181b;--muted:#52525b;--accent:#4338ca;--accent-soft:#eef2ff;--ok:#047857;--ok-soft:#ecfdf5;--err:#b91c1c;--err-soft:#fef2f2;--code:#f4f4f5}
.dark{color-scheme:dark;--canvas:#09090b;--surface:#0f0f12;--sunken:#141417;--line:#27272a;--ink:#f4f4f5;--muted:#a1a1aa;--accent:#a5b4fc;--accent-soft:#1e1b4b;--ok:#6ee7b7;--ok-soft:#052e1f;--err:#fca5a5;--err-soft:#2a0a0a;--code:#18181b}
*{box-sizing:border-box}
body{margin:0;background:var(--canvas);color:var(--ink);font:15px/1.55 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em}
code{background:var(--code);padding:.1em .3em;border-radius:4px;overflow-wrap:anywhere}
pre{background:var(--sunken);border:1px solid var(--line);border-radius:8px;padding:12px;overflow:auto;max-height:420px}
header{border-bottom:1px solid var(--line);background:var(--surface)}
.wrap{max-width:980px;margin:0 auto;padding:20px 16px}
h1{font-size:1.6rem;margin:0 0 6px}
h2{font-size:1.25rem;margin:40px 0 8px;padding-top:8px;border-top:1px solid var(--line)}
h3{font-size:1rem;margin:0 0 6px;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
h4{font-size:.9rem;margin:14px 0 6px}
.muted{color:var(--muted)}.small{font-size:.85rem}
.op{border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:14px 0;background:var(--surface)}
.summary{margin:0 0 6px;font-weight:600}
.method{font:600 .75rem ui-monospace,monospace;padding:3px 8px;border-radius:6px;background:var(--accent-soft);color:var(--accent)}
.m-post,.m-put,.m-patch{background:var(--ok-soft);color:var(--ok)}.m-delete{background:var(--err-soft);color:var(--err)}
.path{background:none;padding:0;font-size:.95rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.875rem}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
.answers{list-style:none;padding:0;margin:0;font-size:.875rem}.answers li{margin:3px 0}
.status{display:inline-block;min-width:2.6em;font:600 .75rem ui-monospace,monospace;padding:2px 6px;border-radius:6px;text-align:center}
.status.ok{background:var(--ok-soft);color:var(--ok)}.status.err{background:var(--err-soft);color:var(--err)}
nav ul{columns:2;padding-left:18px;margin:8px 0}
details summary{cursor:pointer;color:var(--accent);font-size:.875rem}
@media (max-width:640px){nav ul{columns:1}.wrap{padding:16px 12px}.op{padding:12px}}
`;

/**
 * The reference page of a document (the nonce lets the theme bootstrap run under the CSP);
 * `sdlServed`: whether this server answers `/graphql/schema.graphql` (in production: only for callers with a credential).
 */
export function renderApiReference(
  doc: OpenApiDocument,
  options: { nonce: string; sdlServed: boolean },
): string {
  const { nonce } = options;
  const byTag = new Map<string, string[]>();
  const errorText: Record<string, string> = {};
  for (const [name, response] of Object.entries(doc.components.responses ?? {})) {
    errorText[name.slice(1)] = (response as { description: string }).description;
  }
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as unknown as Operation;
      const tag = op.tags[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(method, path, op, errorText));
    }
  }
  const schemes = Object.entries(doc.components.securitySchemes ?? {})
    .map(
      ([name, scheme]) =>
        `<li><strong><code>${escapeHtml(name)}</code></strong> — ${inline((scheme as { description?: string }).description ?? "")}</li>`,
    )
    .join("");
  const tags = doc.tags
    .filter((t) => byTag.has(t.name))
    .map((t) => `<li><a href="#${slug(t.name)}">${escapeHtml(t.name)}</a></li>`)
    .join("");
  const sections = doc.tags
    .filter((t) => byTag.has(t.name))
    .map(
      (t) =>
        `<section id="${slug(t.name)}"><h2>${escapeHtml(t.name)}</h2>${t.description ? `<p class="muted">${inline(t.description)}</p>` : ""}${byTag.get(t.name)!.join("\n")}</section>`,
    )
    .join("\n");
  const info = doc.info as { title: string; version: string; description: string };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<meta name="description" content="The REST API of Lumen Hub: every endpoint, its parameters, credentials and answers.">
<script nonce="${escapeHtml(nonce)}">${themeScript()}</script>
<style>${STYLE}</style>
</head>
<body>
<header><div class="wrap">
<p class="small"><a href="/">← Lumen Hub</a></p>
<h1>${escapeHtml(info.title)} <span class="muted small">v${escapeHtml(info.version)} · OpenAPI ${escapeHtml(doc.openapi)}</span></h1>
${paragraphs(info.description)}
<p class="small">Machine-readable: <a href="/api/openapi.json"><code>/api/openapi.json</code></a> · GraphQL SDL: ${
    options.sdlServed
      ? '<a href="/graphql/schema.graphql"><code>/graphql/schema.graphql</code></a>'
      : '<a href="/graphql/schema.graphql"><code>/graphql/schema.graphql</code></a> (signed in or with an API key) and <code>docs/api/schema.graphql</code> in the repository'
  }</p>
</div></header>
<main class="wrap">
<h2 id="credentials">Credentials</h2>
<ul>${schemes}</ul>
<h2 id="contents">Contents</h2>
<nav aria-label="API sections"><ul>${tags}</ul></nav>
${sections}
</main>
</body>
</html>
`;
}
