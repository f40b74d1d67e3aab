/**
 * After `react-router build`: writes a brotli (`.br`) and a gzip (`.gz`) copy next to every
 * compressible file of the client build (JavaScript, CSS, HTML, SVG, JSON, text, XML, icons), at
 * the highest levels, once. The server sends them to clients that accept the coding
 * (`server/http/static-files.ts`), so static files cost no compression at run time. A copy that
 * would not be smaller than the file is not written.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "build", "client"));
const COMPRESSIBLE = /\.(?:js|mjs|cjs|css|html|svg|json|webmanifest|txt|xml|ico|map)$/i;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

let count = 0;
let before = 0;
let afterBr = 0;
for (const file of files(root)) {
  if (!COMPRESSIBLE.test(file)) continue;
  const body = readFileSync(file);
  for (const suffix of [".br", ".gz"]) rmSync(file + suffix, { force: true });
  if (body.byteLength < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  });
  const gz = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  if (br.byteLength < body.byteLength) writeFileSync(`${file}.br`, br);
  if (gz.byteLength < body.byteLength) writeFileSync(`${file}.gz`, gz);
  count += 1;
  before += body.byteLength;
  afterBr += Math.min(br.byteLength, body.byteLength);
}
process.stdout.write(
  `precompressed ${count} files in ${path.relative(process.cwd(), root) || "."}: ${(before / 1024).toFixed(0)} KiB → ${(afterBr / 1024).toFixed(0)} KiB brotli\n`,
);
