/**
 * What a repository file is: its media type, whether it is binary, and the highlighting language
 * the code viewer should use. By file name first, then by content (NUL bytes or invalid UTF-8).
 */

interface FileKind {
  mimeType: string;
  /** Shiki language id; null = plain text. */
  language: string | null;
  binary?: boolean;
}

const TEXT = "text/plain; charset=utf-8";

const BY_EXTENSION: Record<string, FileKind> = {
  ts: { mimeType: "text/typescript; charset=utf-8", language: "typescript" },
  mts: { mimeType: "text/typescript; charset=utf-8", language: "typescript" },
  cts: { mimeType: "text/typescript; charset=utf-8", language: "typescript" },
  tsx: { mimeType: "text/tsx; charset=utf-8", language: "tsx" },
  js: { mimeType: "text/javascript; charset=utf-8", language: "javascript" },
  mjs: { mimeType: "text/javascript; charset=utf-8", language: "javascript" },
  cjs: { mimeType: "text/javascript; charset=utf-8", language: "javascript" },
  jsx: { mimeType: "text/jsx; charset=utf-8", language: "jsx" },
  py: { mimeType: "text/x-python; charset=utf-8", language: "python" },
  md: { mimeType: "text/markdown; charset=utf-8", language: "markdown" },
  markdown: { mimeType: "text/markdown; charset=utf-8", language: "markdown" },
  json: { mimeType: "application/json; charset=utf-8", language: "json" },
  jsonl: { mimeType: "application/jsonl; charset=utf-8", language: "json" },
  yml: { mimeType: "text/yaml; charset=utf-8", language: "yaml" },
  yaml: { mimeType: "text/yaml; charset=utf-8", language: "yaml" },
  toml: { mimeType: "text/toml; charset=utf-8", language: "toml" },
  csv: { mimeType: "text/csv; charset=utf-8", language: "csv" },
  tsv: { mimeType: "text/tab-separated-values; charset=utf-8", language: null },
  txt: { mimeType: TEXT, language: null },
  sh: { mimeType: "text/x-shellscript; charset=utf-8", language: "bash" },
  bash: { mimeType: "text/x-shellscript; charset=utf-8", language: "bash" },
  sql: { mimeType: "text/x-sql; charset=utf-8", language: "sql" },
  html: { mimeType: "text/html; charset=utf-8", language: "html" },
  css: { mimeType: "text/css; charset=utf-8", language: "css" },
  diff: { mimeType: "text/x-diff; charset=utf-8", language: "diff" },
  go: { mimeType: "text/x-go; charset=utf-8", language: "go" },
  rs: { mimeType: "text/x-rust; charset=utf-8", language: "rust" },
  java: { mimeType: "text/x-java; charset=utf-8", language: "java" },
  rb: { mimeType: "text/x-ruby; charset=utf-8", language: "ruby" },
  svg: { mimeType: "image/svg+xml", language: "xml" },
  xml: { mimeType: "application/xml; charset=utf-8", language: "xml" },
  png: { mimeType: "image/png", language: null, binary: true },
  jpg: { mimeType: "image/jpeg", language: null, binary: true },
  jpeg: { mimeType: "image/jpeg", language: null, binary: true },
  gif: { mimeType: "image/gif", language: null, binary: true },
  webp: { mimeType: "image/webp", language: null, binary: true },
  ico: { mimeType: "image/x-icon", language: null, binary: true },
  pdf: { mimeType: "application/pdf", language: null, binary: true },
  zip: { mimeType: "application/zip", language: null, binary: true },
  gz: { mimeType: "application/gzip", language: null, binary: true },
  woff2: { mimeType: "font/woff2", language: null, binary: true },
  parquet: { mimeType: "application/vnd.apache.parquet", language: null, binary: true },
};

const BY_NAME: Record<string, FileKind> = {
  dockerfile: { mimeType: TEXT, language: "docker" },
  makefile: { mimeType: TEXT, language: "make" },
  license: { mimeType: TEXT, language: null },
  ".gitignore": { mimeType: TEXT, language: null },
};

export function extensionOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : null;
}

function kindOfName(path: string): FileKind | null {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const ext = extensionOf(name);
  return BY_NAME[name] ?? (ext ? (BY_EXTENSION[ext] ?? null) : null);
}

/** The highlighting language of a file, by name (null = plain text). */
export function languageOf(path: string): string | null {
  return kindOfName(path)?.language ?? null;
}

/** True when the name says README (README, README.md, readme.txt …). */
export function isReadmeName(name: string): boolean {
  return /^readme(\.(md|markdown|txt|rst))?$/i.test(name);
}

/** Binary: a NUL byte in the first 8000 bytes (git's own test) or bytes that are not UTF-8. */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8000).includes(0)) return true;
  try {
    // stream: a multi-byte character cut at the end of the sample is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 64 * 1024), { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** Media type and binary flag of a file from its name and bytes. */
export function describeFile(path: string, bytes: Uint8Array): { mimeType: string; isBinary: boolean } {
  const kind = kindOfName(path);
  if (kind?.binary) return { mimeType: kind.mimeType, isBinary: true };
  const binary = looksBinary(bytes);
  if (binary) return { mimeType: "application/octet-stream", isBinary: true };
  return { mimeType: kind?.mimeType ?? TEXT, isBinary: false };
}

/** The main language of a set of files, by bytes of code (for local repositories). */
export function dominantLanguage(files: ReadonlyArray<{ path: string; size: number | null }>): string | null {
  const LABELS: Record<string, string> = {
    typescript: "TypeScript",
    tsx: "TypeScript",
    javascript: "JavaScript",
    jsx: "JavaScript",
    python: "Python",
    go: "Go",
    rust: "Rust",
    java: "Java",
    ruby: "Ruby",
    bash: "Shell",
    sql: "SQL",
    html: "HTML",
    css: "CSS",
    markdown: "Markdown",
    csv: "CSV",
  };
  const totals = new Map<string, number>();
  for (const file of files) {
    const label = LABELS[languageOf(file.path) ?? ""];
    if (label) totals.set(label, (totals.get(label) ?? 0) + (file.size ?? 0));
  }
  // Prose and data count only when there is no code at all.
  const code = [...totals].filter(([label]) => label !== "Markdown" && label !== "CSV");
  const pool = code.length > 0 ? code : [...totals];
  pool.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return pool[0]?.[0] ?? null;
}
